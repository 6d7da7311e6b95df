#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Validates workload TOML files against docs/schemas/workload.schema.json (with jsonschema).

usage: validate_workloads.py SCHEMA --good FILE... --bad FILE...
Every --good file must validate and every --bad file must not (so the schema is shown to reject what the C++
reader rejects). Prints PASS, or each problem and FAIL.
"""
import json
import sys
import tomllib

import jsonschema


def main(argv):
    schema = json.load(open(argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    mode, problems, seen = None, [], 0
    for arg in argv[2:]:
        if arg in ("--good", "--bad"):
            mode = arg
            continue
        with open(arg, "rb") as f:
            doc = tomllib.load(f)
        errors = [e.message for e in validator.iter_errors(doc)]
        seen += 1
        if mode == "--good" and errors:
            problems.append(f"{arg}: {'; '.join(errors)}")
        if mode == "--bad" and not errors:
            problems.append(f"{arg}: validates, but the reader rejects it")
    for p in problems:
        print(p)
    print("FAIL" if problems or seen == 0 else f"PASS ({seen} files)")
    return 1 if problems or seen == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
