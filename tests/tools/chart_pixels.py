#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks a browser screenshot of an HTML report: every chart area (boxes measured in the same browser at the
# same window size) must hold drawn data, not just an empty frame. "Drawn" means saturated pixels: the axes,
# grid and text are grey or black, every data series is drawn in a colour. Reads the PNG with zlib alone
# (8-bit RGB or RGBA, not interlaced: what Chromium writes), so the test needs no imaging library.
# The same JSON (tests/tools/chart_probe.js) lists each regression marker's box, which must show red in the
# screenshot, and the problems the page itself found (e-notation labels, clipped text), each a failure.
# Usage: chart_pixels.py SCREENSHOT.png BOXES.json [MIN_PIXELS]
# Exit 0 when every box has at least MIN_PIXELS (default 15: half a data marker, as a point on the
# plot's edge is cut in half; an empty plot has none, its grid and frame are grey) coloured pixels, every
# regression marker is red and no problem was found; 1 naming what failed.
import json
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise SystemExit(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are read")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # PNG filters (RFC 2083 section 6)
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def count_pixels(px, box, channels, wanted):
    width, height, rows = px
    x0, y0 = max(0, int(box["x"])), max(0, int(box["y"]))
    x1, y1 = min(width, int(box["x"] + box["w"])), min(height, int(box["y"] + box["h"]))
    count = 0
    for y in range(y0, y1):
        row = rows[y]
        for x in range(x0, x1):
            r, g, b = row[x * channels:x * channels + 3]
            if wanted(r, g, b):
                count += 1
    return count


def saturated(r, g, b):
    return max(r, g, b) - min(r, g, b) > 60


def alarm_red(r, g, b):  # the reports' alarm colour #d62728, antialiased edges included
    return r > 170 and g < 90 and b < 90


def main():
    png, boxes_path = sys.argv[1], sys.argv[2]
    minimum = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    width, height, channels, rows = read_png(png)
    measured = json.load(open(boxes_path))
    boxes = measured["boxes"]
    if not boxes:
        print(f"FAIL: {boxes_path}: no chart areas measured")
        return 1
    empty = []
    for box in boxes:
        n = count_pixels((width, height, rows), box, channels, saturated)
        print(f"  {box['id']}: {n} coloured pixels in {int(box['w'])}x{int(box['h'])} at ({int(box['x'])},{int(box['y'])})")
        if n < minimum:
            empty.append(box["id"])
    failed = False
    if empty:
        print(f"FAIL: {png}: nothing drawn in {', '.join(empty)}")
        failed = True
    # A marker is a circle of radius 6: at least a third of its box red (a white outline surrounds it).
    grey = [a for a in measured.get("alarms", [])
            if count_pixels((width, height, rows), a, channels, alarm_red) < a["w"] * a["h"] / 3]
    if grey:
        print(f"FAIL: {png}: {len(grey)} of {len(measured['alarms'])} regression markers are not red on screen")
        failed = True
    for problem in measured.get("problems", []):
        print(f"FAIL: {png}: {problem}")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
