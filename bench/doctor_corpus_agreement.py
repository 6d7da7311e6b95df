#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# How often a second reader puts a corpus case in the same category as its collector did
# (tests/fixtures/doctor-corpus/README.md, "Agreement between readers").
#
#   bench/doctor_corpus_agreement.py [CORPUS_DIR]
#
# reader_categories.jsonl holds, for every case, the category a reader chose from the case's root cause and fix
# alone (blind to the recorded category, the excerpt and the doctor). The doctor sees less than that reader (only
# the log excerpt), so the agreement between the two people is a ceiling on how often any reader of the log can
# match the recorded category: what one careful reader files elsewhere is not a miss of the log's reader alone.
import argparse
import collections
import json
import pathlib
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, json.JSONDecodeError) as e:
        print(f"doctor_corpus_agreement: cannot read {path}: {e}", file=sys.stderr)
        sys.exit(2)


def kappa(pairs):
    # Cohen's kappa: the agreement beyond what two readers with these category frequencies reach by chance.
    n = len(pairs)
    seen = sum(a == b for a, b in pairs) / n
    first = collections.Counter(a for a, _ in pairs)
    second = collections.Counter(b for _, b in pairs)
    chance = sum(first[c] * second[c] for c in first) / (n * n)
    return seen, (seen - chance) / (1 - chance)


def main():
    ap = argparse.ArgumentParser(description="Agreement between the corpus's recorded categories and a second reader's")
    here = pathlib.Path(__file__).resolve().parent.parent
    ap.add_argument("corpus", nargs="?", default=here / "tests/fixtures/doctor-corpus", type=pathlib.Path)
    args = ap.parse_args()
    recorded = {}
    for part in ("development", "validation"):
        for case in load(args.corpus / f"{part}.jsonl"):
            recorded[case["id"]] = (part, case["category"])
    readers = {r["id"]: r for r in load(args.corpus / "reader_categories.jsonl")}
    # A reading of a case that is not in the corpus, or outside its categories, is a broken file, not a finding.
    categories = set(c for _, c in recorded.values())
    for i, r in readers.items():
        wrong = [c for c in (r.get("category"), r.get("second")) if c is not None and c not in categories]
        if i not in recorded or r.get("category") is None or wrong:
            print(f"doctor_corpus_agreement: reader_categories.jsonl: case {i}: "
                  + ("not in the corpus" if i not in recorded else f"category not one of the corpus's: {wrong}")
                  + "; fix or remove that line", file=sys.stderr)
            sys.exit(2)
    # Cases added after the reading have no second category yet: they are left out of the figures, and said so.
    missing = sorted(set(recorded) - set(readers))
    if missing:
        print(f"{len(missing)} case(s) have no reader's category yet and are not counted (e.g. {missing[0]})")
    disagreements = collections.Counter()
    for part in ("development", "validation", "both"):
        ids = [i for i, (p, _) in recorded.items() if part in (p, "both") and i in readers]
        if not ids:
            print(f"{part}: no case with a reader's category")
            continue
        pairs = [(recorded[i][1], readers[i]["category"]) for i in ids]
        seen, k = kappa(pairs)
        either = sum(recorded[i][1] in (readers[i]["category"], readers[i].get("second")) for i in ids)
        print(f"{part}: {len(ids)} cases; the reader's category is the recorded one on {round(seen * len(ids))} "
              f"({seen:.1%}, Cohen's kappa {k:.2f}); the recorded one is among the reader's two on {either} "
              f"({either / len(ids):.1%})")
        if part == "both":
            disagreements.update((a, b) for a, b in pairs if a != b)
    print("most frequent disagreements (recorded -> reader):")
    for (a, b), n in disagreements.most_common(8):
        print(f"  {a} -> {b}: {n}")


if __name__ == "__main__":
    main()
