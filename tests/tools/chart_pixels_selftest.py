#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# chart_pixels.py must be able to fail: an empty white plot with a grey frame is "nothing drawn" (exit 1),
# the same plot with one red marker is drawn (exit 0), and both PNG colour types Chromium may write are read.
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

here = os.path.dirname(os.path.abspath(__file__))


def write_png(path, width, height, pixel, channels):
    raw = b""
    for y in range(height):
        raw += b"\x00" + b"".join(bytes(pixel(x, y)[:channels]) for x in range(width))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    colour = 2 if channels == 3 else 6
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def frame(x, y):
    return (150, 150, 150, 255) if x in (0, 59) or y in (0, 39) else (255, 255, 255, 255)


def marker(x, y):
    return (220, 30, 30, 255) if 20 <= x < 26 and 10 <= y < 16 else frame(x, y)


def run(png, boxes):
    return subprocess.run([sys.executable, os.path.join(here, "chart_pixels.py"), png, boxes],
                          capture_output=True, text=True).returncode


with tempfile.TemporaryDirectory() as d:
    boxes = os.path.join(d, "boxes.json")
    json.dump({"height": 40, "boxes": [{"id": "c", "x": 0, "y": 0, "w": 60, "h": 40}]}, open(boxes, "w"))
    failures = []
    for channels in (3, 4):
        empty, drawn = os.path.join(d, f"empty{channels}.png"), os.path.join(d, f"drawn{channels}.png")
        write_png(empty, 60, 40, frame, channels)
        write_png(drawn, 60, 40, marker, channels)
        if run(empty, boxes) != 1:
            failures.append(f"an empty plot ({channels} channels) passed")
        if run(drawn, boxes) != 0:
            failures.append(f"a plot with a marker ({channels} channels) failed")
    # The marker at (20..26, 10..16) is red: a regression marker there passes, one over the white plot fails.
    drawn = os.path.join(d, "drawn4.png")
    for alarm, want in (({"x": 20, "y": 10, "w": 6, "h": 6}, 0), ({"x": 40, "y": 20, "w": 6, "h": 6}, 1)):
        json.dump({"height": 40, "boxes": [{"id": "c", "x": 0, "y": 0, "w": 60, "h": 40}],
                   "alarms": [dict(alarm, id="c")]}, open(boxes, "w"))
        if run(drawn, boxes) != want:
            failures.append(f"a regression marker at {alarm} gave the wrong verdict (want exit {want})")
    # A problem the page found (e-notation, clipped legend) fails a page whose plots are drawn.
    json.dump({"height": 40, "boxes": [{"id": "c", "x": 0, "y": 0, "w": 60, "h": 40}],
               "problems": ['c: "1e+06" is in e-notation']}, open(boxes, "w"))
    if run(drawn, boxes) != 1:
        failures.append("a page with an e-notation label passed")
    if failures:
        print("FAIL: " + "; ".join(failures))
        sys.exit(1)
    print("PASS: empty plots fail, drawn ones pass; grey regression markers and page problems fail")
