#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How many of NCCL's own WARN messages (or a network plugin's) reach a specific doctor rule.

Reads every WARN("...") format string in an NCCL source tree (src/), fills its conversions with plausible values,
lays each out as NCCL prints it ("host:pid:tid [dev] path/file.cc:LINE NCCL WARN message", after an INFO line with
the version) and runs `preflight doctor --json` on it as its own process. Counts how many reach a rule other than
the fallbacks (`other.nccl-warning`, the `*.weak-evidence` rules, the memory's `*.similar-reports`). Many WARNs are
internal checks or API misuse that no user meets; the list (--list) is where to look for the ones that matter.
A filled value is a guess ("mlx5_0" for every %s), so a rule keyed on a real argument (a /dev/shm path) can miss
here and still match a real log: the count is a floor.

With --ofi the tree is aws-ofi-nccl's: its NCCL_OFI_WARN("...") calls (often split over lines, with adjacent
literals and PRIu64-style macros) reach the log through NCCL's logger with "NET/OFI " in front. There, the two
catch-all rules for any plugin warning (`efa-libfabric.ofi-plugin-warning`, `efa-libfabric.ofi-call-failed`) count as
fallbacks too: they name the plugin, not the cause.

  python3 bench/doctor_nccl_warn_coverage.py --nccl /path/to/nccl [--preflight build/bin/preflight] [--list]
  python3 bench/doctor_nccl_warn_coverage.py --ofi /path/to/aws-ofi-nccl [--list]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

WARN = re.compile(r'WARN\(\s*"((?:[^"\\]|\\.)*)"')
# NCCL_OFI_WARN( then the format: string literals, possibly split over lines and joined with PRIu64-style macros.
OFI_WARN = re.compile(r'NCCL_OFI_WARN\(\s*((?:"(?:[^"\\]|\\.)*"\s*(?:PRI[a-zA-Z0-9]+\s*)?)+)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"|PRI([a-zA-Z])[a-zA-Z0-9]*')
FALLBACK = re.compile(r"^other\.nccl-warning$|\.weak-evidence$|\.similar-reports$")
OFI_FALLBACK = re.compile(FALLBACK.pattern + r"|^efa-libfabric\.(ofi-plugin-warning|ofi-call-failed)$")
# A transport's own files and the category its warnings belong to: a specific rule of another category there is a
# misreading (NCCL 2.29's transport/net_ib/p2p.cc once read as the P2P transport's p2p.cc), listed whatever --list says.
TRANSPORT_CATEGORY = (("transport/net_ib", "ib-verbs"), ("transport/p2p.cc", "p2p"), ("transport/shm.cc", "shm"),
                      ("transport/net_socket.cc", "network-interface"))


def ofi_format(concatenated):
    # "a %" PRIu64 " b" -> "a %lu b", PRIx64 -> "lx": the letter after PRI is the conversion.
    return "".join(lit if lit else ("l" + conv) for lit, conv in LITERAL.findall(concatenated))


def formats(src, ofi=False):
    found = {}
    for root, _, files in os.walk(src):
        for name in sorted(files):
            # .c: aws-ofi-nccl was written in C up to 1.13, and NCCL's 1.x in it too.
            if not name.endswith((".c", ".cc", ".cu", ".h", ".cpp")):
                continue
            path = os.path.join(root, name)
            with open(path, errors="replace") as f:
                text = f.read()
                if ofi:
                    fmts = [ofi_format(m.group(1)) for m in OFI_WARN.finditer(text)]
                else:
                    fmts = [m.group(1) for m in WARN.finditer(text)]
                for fmt in fmts:
                    found.setdefault(fmt, os.path.relpath(path, src))
    return sorted(found.items(), key=lambda kv: (kv[1], kv[0]))


def fill(fmt):
    s = fmt.replace("\\n", "").replace('\\"', '"')
    s = re.sub(r"%-?\d*\.?\d*(ll|l|z|h|hh)?[dui]", "3", s)
    s = re.sub(r"%-?\d*(ll|l|z)?[xX]", "1f", s)
    s = s.replace("%p", "0x7f00dead0000")
    s = re.sub(r"%-?\d*\.?\*?s", "mlx5_0", s)
    s = re.sub(r"%(\.\d+)?[fgeG]", "1.5", s)
    return s.replace("%%", "%")


def diagnose(preflight, text, tmp):
    log, out = os.path.join(tmp, "warn.log"), os.path.join(tmp, "warn.json")
    with open(log, "w") as f:
        f.write(text)
    subprocess.run([preflight, "doctor", log, "--json", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        doc = json.load(f)
    return [r["params"]["rule_id"] for r in doc["results"] if r.get("kind") == "diagnosis"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tree = ap.add_mutually_exclusive_group(required=True)
    tree.add_argument("--nccl", help="an NCCL (or RCCL) source tree (its src/ is read)")
    tree.add_argument("--ofi", help="an aws-ofi-nccl source tree (its src/ is read)")
    ap.add_argument("--preflight", default="build/bin/preflight")
    ap.add_argument("--list", action="store_true", help="print every WARN that reaches only a fallback")
    a = ap.parse_args()
    root = a.nccl or a.ofi
    src = os.path.join(root, "src")
    if not os.path.isdir(src):
        sys.exit(f"{root}: no src/ directory; pass the root of an {'NCCL' if a.nccl else 'aws-ofi-nccl'} checkout")
    if not os.access(a.preflight, os.X_OK):
        sys.exit(f"{a.preflight}: not an executable; build first or pass --preflight")
    rows = formats(src, ofi=bool(a.ofi))
    fallback, prefix = (OFI_FALLBACK, "NET/OFI ") if a.ofi else (FALLBACK, "")
    specific, by_dir, missed, misread = 0, collections.Counter(), [], []
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, path in rows:
            text = ("node1:1234:1234 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
                    f"node1:1234:5678 [0] {path}:100 NCCL WARN {prefix}{fill(fmt)}\n")
            ids = diagnose(a.preflight, text, tmp)
            if ids and not fallback.search(ids[0]):
                specific += 1
                want = next((c for prefix, c in TRANSPORT_CATEGORY if path.startswith(prefix)), None)
                if want and not ids[0].startswith(want + "."):
                    misread.append((path, fmt, ids[0]))
            else:
                missed.append((path, fmt))
                by_dir[os.path.dirname(path) or "."] += 1
    print(f"{len(rows)} distinct WARN formats in {src}: {specific} reach a specific rule "
          f"({100.0 * specific / max(len(rows), 1):.0f}%), {len(missed)} only a fallback")
    print("fallback only, by directory: " + ", ".join(f"{d} {n}" for d, n in by_dir.most_common()))
    print(f"read as another category than their transport's: {len(misread)}")
    for path, fmt, rule in misread:
        print(f"  {path}: {fmt}  -> {rule}")
    if a.list:
        for path, fmt in missed:
            print(f"{path}: {fmt}")


if __name__ == "__main__":
    main()
