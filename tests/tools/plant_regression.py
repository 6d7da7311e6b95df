#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes a copy of a sweep document with some sizes made slower by FACTOR, as a real slowdown reads: every
# timing field of both halves multiplied, busbw and algbw divided (nccl-tests' formulas: bandwidth = bytes /
# time). A comparison of the original with the copy then has a real regression at exactly those sizes.
# Usage: plant_regression.py IN.json OUT.json FACTOR FIRST[:LAST]
#   FIRST[:LAST] picks sizes from the sorted distinct sizes of the first sweep result, as a Python slice
#   (-2:-1 the second largest, -4: the four largest). Prints the planted sizes, one per line.
import json
import sys


def main():
    src, dst, factor, pick = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    doc = json.load(open(src))
    sweep = next((r for r in doc["results"] if r.get("kind") == "sweep"), None)
    if sweep is None:
        print(f"{src}: no sweep result to slow down", file=sys.stderr)
        return 2
    sizes = sorted({r["size_bytes"] for r in sweep["rows"]})
    if ":" in pick:
        chosen = sizes[slice(*(int(part) if part else None for part in pick.split(":")))]
    else:
        chosen = [sizes[int(pick)]]
    for r in sweep["rows"]:
        if r["size_bytes"] not in chosen:
            continue
        for k in ("time_us", "iter_min_us", "iter_p50_us", "iter_p99_us", "iter_max_us"):
            if r.get(k) is not None:
                r[k] *= factor
        for k in ("algbw_gbps", "busbw_gbps"):
            if r.get(k) is not None:
                r[k] /= factor
    json.dump(doc, open(dst, "w"))
    for s in chosen:
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
