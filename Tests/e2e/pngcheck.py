#!/usr/bin/env python3
"""Checks that a PNG (Lectern's frame dump) shows a page: size, and text-like pixels.

Usage: pngcheck.py FILE.png [--size WxH] [--expect page|any]

Prints one line, e.g.
  frame.png: 1280x720 RGB, 4711 colours, light 61.2%, dark 2.3%: shows a page with text
and exits 0 when the checks pass, 1 when they fail, 2 when the file cannot be read.

Only the standard library (zlib); no PIL. Understands 8-bit grey, grey+alpha, RGB and
RGBA, non-interlaced, which is what MuPDF and Lectern write.
"""

import struct
import sys
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


class PNGError(Exception):
    pass


def read_png(path):
    """Returns (width, height, channels, rows) with rows a list of bytes, one per row."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(PNG_SIGNATURE):
        raise PNGError("not a PNG file")
    pos, idat, ihdr = len(PNG_SIGNATURE), [], None
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise PNGError("truncated %s chunk" % ctype.decode("latin-1"))
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
        pos += 12 + length
    if ihdr is None:
        raise PNGError("no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in CHANNELS or interlace:
        raise PNGError("unsupported PNG: bit depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as e:
        raise PNGError("bad image data: %s" % e)
    bpp = CHANNELS[ctype]
    stride = width * bpp
    if len(raw) < height * (stride + 1):
        raise PNGError("image data too short (truncated file?)")
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 0:
            pass
        elif ftype == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:  # Up
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif ftype == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:  # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if (pa <= pb and pa <= pc) else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        else:
            raise PNGError("bad filter type %d in row %d" % (ftype, y))
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    path, want_size, expect = args[0], None, "page"
    i = 1
    while i < len(args):
        if args[i] == "--size" and i + 1 < len(args):
            try:
                w, h = args[i + 1].lower().split("x")
                want_size = (int(w), int(h))
            except ValueError:
                print("pngcheck: --size wants WxH, e.g. 1280x720", file=sys.stderr)
                return 2
            i += 2
        elif args[i] == "--expect" and i + 1 < len(args):
            expect = args[i + 1]
            i += 2
        else:
            print("pngcheck: unknown argument %r" % args[i], file=sys.stderr)
            return 2
    try:
        width, height, bpp, rows = read_png(path)
    except (OSError, PNGError) as e:
        print("%s: cannot read: %s" % (path, e))
        return 2

    # Classify every pixel: 1 light (paper), 2 dark (ink), 0 in between.
    colours, light, dark, total = set(), 0, 0, width * height
    classes = []
    x0, y0, x1, y1 = width, height, -1, -1  # bounding box of the light pixels
    for y, row in enumerate(rows):
        cls = bytearray(width)
        for x in range(width):
            o = x * bpp
            if bpp >= 3:
                r, g, b = row[o], row[o + 1], row[o + 2]
            else:
                r = g = b = row[o]
            colours.add((r, g, b))
            lum = (299 * r + 587 * g + 114 * b) // 1000
            if lum >= 200:
                cls[x] = 1
                light += 1
                if x < x0:
                    x0 = x
                if x > x1:
                    x1 = x
                if y < y0:
                    y0 = y
                y1 = y
            elif lum <= 110:
                cls[x] = 2
                dark += 1
        classes.append(cls)
    # Ink on paper: dark pixels with light pixels within 3 px left or right of them, inside
    # the light area (its outer 4 px left out, so the page's own edge against a dark
    # background does not count).
    ink = 0
    for y in range(y0 + 4, y1 - 3):
        cls = classes[y]
        for x in range(x0 + 4, x1 - 3):
            if cls[x] == 2 and 1 in cls[max(x - 3, 0):x + 4]:
                ink += 1

    kind = {1: "grey", 2: "grey+alpha", 3: "RGB", 4: "RGBA"}[bpp]
    light_pc, dark_pc = 100.0 * light / total, 100.0 * dark / total
    problems = []
    if want_size and (width, height) != want_size:
        problems.append("size is %dx%d, expected %dx%d" % (width, height, want_size[0], want_size[1]))
    if len(colours) < 2:
        problems.append("uniform image (every pixel is %s)" % (next(iter(colours)),))
    elif expect == "page":
        if light_pc < 5:
            problems.append("no light page area (light pixels %.1f%%)" % light_pc)
        elif ink < 200:
            problems.append("no dark text-like pixels on the light area (%d)" % ink)
        if len(colours) < 8:
            problems.append("only %d colours: not a rendered page" % len(colours))
    verdict = "; ".join(problems) if problems else ("shows a page with text" if expect == "page" else "not uniform")
    print("%s: %dx%d %s, %d colours, light %.1f%%, dark %.1f%%, ink-on-paper pixels %d: %s"
          % (path, width, height, kind, len(colours), light_pc, dark_pc, ink, verdict))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
