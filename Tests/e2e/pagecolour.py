#!/usr/bin/env python3
"""Which page of Tests/Fixtures/colors-8pages.pdf a frame dump shows, by its colour.

Usage: pagecolour.py FILE.png

Prints "WxH page N" when the pixels a tenth of the width left and right of the centre
both have the colour of page N (each channel within 24 of it), else
"WxH no page colour (rrggbb rrggbb)"; exits 0, 1 or 2 (cannot read the file).
The fixture fills page n with one colour and puts its number in white in the middle,
so the two points are on the page but off the number, in any orientation.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngcheck import PNGError, read_png  # noqa: E402

PAGE_COLOURS = {
    1: 0xE53935, 2: 0x1E88E5, 3: 0x43A047, 4: 0xFDD835,
    5: 0x8E24AA, 6: 0xFB8C00, 7: 0x00ACC1, 8: 0x6D4C41,
}
TOLERANCE = 24


def page_of(rgb):
    for page, colour in PAGE_COLOURS.items():
        want = ((colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF)
        if all(abs(a - b) <= TOLERANCE for a, b in zip(rgb, want)):
            return page
    return None


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    try:
        width, height, bpp, rows = read_png(argv[1])
    except (OSError, PNGError) as e:
        print("%s: cannot read: %s" % (argv[1], e))
        return 2
    samples = []
    for x in (width // 2 - width // 10, width // 2 + width // 10):
        o = x * bpp
        px = rows[height // 2][o:o + 3] if bpp >= 3 else bytes([rows[height // 2][o]] * 3)
        samples.append(tuple(px))
    pages = {page_of(px) for px in samples}
    if len(pages) == 1 and None not in pages:
        print("%dx%d page %d" % (width, height, pages.pop()))
        return 0
    print("%dx%d no page colour (%s)" % (width, height, " ".join(bytes(px).hex() for px in samples)))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
