#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
"""Validates preflight's integration outputs.

usage: validate_outputs.py junit FILE            JUnit XML parses (xml.etree) and has the expected structure
       validate_outputs.py prometheus FILE       Prometheus text exposition format 0.0.4 rules (as promtool checks)
Exits 0 when valid, 1 with the reasons on stderr.
"""
import re
import sys
import xml.etree.ElementTree as ET

METRIC = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
LABEL = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
# name{labels} value, with label values in double quotes and \\ \" \n escapes only.
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\})? '
                    r'(\S+)$')
PAIR = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"')


def check_junit(path):
    errors = []
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        errors.append(f"root element is <{root.tag}>, expected <testsuites>")
    suites = root.findall("testsuite")
    if not suites:
        errors.append("no <testsuite>")
    for s in suites:
        for attr in ("name", "tests", "failures", "errors", "skipped", "time"):
            if attr not in s.attrib:
                errors.append(f"testsuite lacks '{attr}'")
        cases = s.findall("testcase")
        if int(s.get("tests", -1)) != len(cases):
            errors.append(f"tests={s.get('tests')} but {len(cases)} <testcase>")
        fails = sum(1 for c in cases if c.find("failure") is not None)
        if int(s.get("failures", -1)) != fails:
            errors.append(f"failures={s.get('failures')} but {fails} <failure>")
        for c in cases:
            if not c.get("name") or not c.get("classname"):
                errors.append("a testcase lacks name or classname")
            float(c.get("time", "0"))
    return errors


def check_prometheus(path):
    errors = []
    text = open(path, encoding="utf-8").read()
    if text and not text.endswith("\n"):
        errors.append("the file does not end with a newline")
    seen_type, seen_help, done, series = {}, {}, set(), set()
    current = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            parts = line.split(" ", 3)
            name = parts[2]
            if not METRIC.match(name):
                errors.append(f"{n}: bad metric name '{name}'")
            table = seen_help if parts[1] == "HELP" else seen_type
            if name in table:
                errors.append(f"{n}: second # {parts[1]} for {name}")
            table[name] = True
            if parts[1] == "TYPE" and parts[3] not in ("counter", "gauge", "histogram", "summary", "untyped"):
                errors.append(f"{n}: unknown type '{parts[3]}'")
            if name in done:
                errors.append(f"{n}: {name} metadata after its samples")
            continue
        if line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            errors.append(f"{n}: not a valid sample line: {line!r}")
            continue
        name, labels, value = m.group(1), m.group(3) or "", m.group(4)
        if current is not None and name != current:
            done.add(current)
        if name in done:
            errors.append(f"{n}: samples of {name} are not contiguous")
        current = name
        if name not in seen_type:
            errors.append(f"{n}: sample of {name} before its # TYPE")
        names = [k for k, _ in PAIR.findall(labels)]
        if len(names) != len(set(names)):
            errors.append(f"{n}: repeated label name")
        key = (name, tuple(sorted(PAIR.findall(labels))))
        if key in series:
            errors.append(f"{n}: duplicate series {line!r}")
        series.add(key)
        try:
            float(value.replace("Inf", "inf"))
        except ValueError:
            errors.append(f"{n}: value '{value}' is not a float")
    if not series:
        errors.append("no samples")
    return errors


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("junit", "prometheus"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, path = sys.argv[1], sys.argv[2]
    try:
        errors = check_junit(path) if kind == "junit" else check_prometheus(path)
    except (ET.ParseError, OSError, ValueError) as e:
        errors = [str(e)]
    for e in errors:
        print(f"{path}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
