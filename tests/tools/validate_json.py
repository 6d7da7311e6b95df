#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Validates result documents against docs/result-schema.json.

usage: validate_json.py SCHEMA FILE... ; exits 0 when every file validates, 1 otherwise (errors on stderr).
Optional checks for sweep documents: --expect-wrong-zero (every row checked and 0 wrong) and
--expect-formulas (algbw/busbw satisfy nccl-tests' formulas exactly, from size/count/time).
"""
import json
import sys

import jsonschema

FACTORS = {
    "all_reduce": lambda n: 2.0 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "alltoall": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
    "sendrecv": lambda n: 1.0,
}
ELT = {"int8": 1, "uint8": 1, "half": 2, "bfloat16": 2, "int32": 4, "uint32": 4, "float": 4,
       "int64": 8, "uint64": 8, "double": 8}


def check_formulas(doc, path):
    n = doc["context"]["world_size"]
    errors = []
    for res in doc["results"]:
        if res["kind"] != "sweep":
            continue
        for row in res["rows"]:
            coll, es = row["collective"], ELT[row["dtype"]]
            # S: per-rank bytes for all_reduce/broadcast/reduce/sendrecv, count*n for the split collectives.
            s = row["count"] * es * (n if coll in ("all_gather", "reduce_scatter", "alltoall") else 1)
            t = row["time_us"] * 1e-6
            algbw = s / t / 1e9 if t > 0 else 0.0
            busbw = algbw * FACTORS[coll](n)
            if abs(algbw - row["algbw_gbps"]) > 1e-9 * max(1.0, algbw) or \
               abs(busbw - row["busbw_gbps"]) > 1e-9 * max(1.0, busbw):
                errors.append(f"{path}: {coll} size {row['size_bytes']}: algbw/busbw do not match the formulas")
    return errors


def main(argv):
    flags = {a for a in argv[1:] if a.startswith("--")}
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    errors = []
    for path in args[1:]:
        with open(path) as f:
            doc = json.load(f)
        errors += [f"{path}: {'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(doc)]
        if "--expect-wrong-zero" in flags:
            for res in doc["results"]:
                for row in res.get("rows", []):
                    if row.get("wrong") != 0:
                        errors.append(f"{path}: {res['key']} size {row.get('size_bytes')}: wrong = {row.get('wrong')}")
        if "--expect-formulas" in flags:
            errors += check_formulas(doc, path)
    for e in errors[:50]:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
