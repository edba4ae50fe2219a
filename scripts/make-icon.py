#!/usr/bin/env python3
"""Draws the application icon: Resources/icons/hicolor/scalable/apps/gestures.svg and a PNG per
size in Resources/icons/hicolor/NxN/apps/gestures.png (the freedesktop icon theme layout that
scripts/install copies to PREFIX/share/icons/hicolor, and that the window's _NET_WM_ICON is read
from).

The picture: the demo's flower (two rings of petals and a golden centre, in make-flower.py's
colours) on a rounded sky-blue tile, with two touch points at opposite corners — a pinch. It is
described once, as a list of shapes; the SVG is written from that list and the PNGs are drawn
from the same list with make-flower.py's signed-distance rasteriser (Python standard library
only), so the vector and the bitmaps cannot disagree.

    python3 scripts/make-icon.py [OUT_DIR]     (default Resources/icons/hicolor)
"""

import importlib.util
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_flower", os.path.join(HERE, "make-flower.py"))
flower = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(flower)

SIZES = [16, 22, 24, 32, 48, 64, 128, 256]
UNIT = 256.0  # the design grid: every shape is in 0…256

TILE = (16.0, 16.0, 240.0, 240.0, 48.0)  # x0, y0, x1, y1, corner radius
TILE_TOP = (0.42, 0.71, 0.93)
TILE_BOTTOM = (0.16, 0.40, 0.70)
TILE_RIM = (0.10, 0.28, 0.52)
CENTRE = (128.0, 128.0)


def hex_color(c):
    return "#" + "".join("%02x" % int(round(flower.clamp(v) * 255)) for v in c)


def shapes():
    """The icon, back to front: (kind, geometry, fill, rim colour, rim width, fill opacity)."""
    out = []
    cx, cy = CENTRE
    for i in range(8):
        a = i * 2 * math.pi / 8 - math.pi / 2
        out.append(("ellipse", (cx + 46 * math.cos(a), cy + 46 * math.sin(a), 46.0, 21.0, a),
                    (0.93, 0.33, 0.52), (0.55, 0.13, 0.30), 4.0, 1.0))
    for i in range(8):
        a = i * 2 * math.pi / 8 - math.pi / 2 + math.pi / 8
        out.append(("ellipse", (cx + 31 * math.cos(a), cy + 31 * math.sin(a), 31.0, 15.0, a),
                    (0.99, 0.76, 0.83), (0.80, 0.25, 0.42), 3.0, 1.0))
    out.append(("circle", (cx, cy, 22.0), (0.98, 0.78, 0.20), (0.85, 0.47, 0.08), 4.0, 1.0))
    # Two fingertips pinching: translucent white discs with a white ring.
    for fx, fy in ((62.0, 194.0), (194.0, 62.0)):
        out.append(("circle", (fx, fy, 19.0), (1.0, 1.0, 1.0), (1.0, 1.0, 1.0), 5.0, 0.55))
    return out


def rounded_rect_sdf(px, py, x0, y0, x1, y1, r):
    hx, hy = (x1 - x0) / 2 - r, (y1 - y0) / 2 - r
    qx = abs(px - (x0 + x1) / 2) - hx
    qy = abs(py - (y0 + y1) / 2) - hy
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def svg():
    x0, y0, x1, y1, r = TILE
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!-- Gestures application icon, drawn by scripts/make-icon.py (do not edit by hand). -->',
        '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">',
        '  <title>Gestures</title>',
        '  <defs>',
        '    <linearGradient id="tile" x1="0" y1="%g" x2="0" y2="%g" gradientUnits="userSpaceOnUse">' % (y0, y1),
        '      <stop offset="0" stop-color="%s"/>' % hex_color(TILE_TOP),
        '      <stop offset="1" stop-color="%s"/>' % hex_color(TILE_BOTTOM),
        '    </linearGradient>',
        '  </defs>',
        '  <rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="url(#tile)" stroke="%s" stroke-width="4"/>'
        % (x0, y0, x1 - x0, y1 - y0, r, hex_color(TILE_RIM)),
    ]
    for kind, g, fill, rim, width, opacity in shapes():
        paint = 'fill="%s" stroke="%s" stroke-width="%g"' % (hex_color(fill), hex_color(rim), width)
        if opacity < 1:
            paint += ' fill-opacity="%g"' % opacity
        if kind == "ellipse":
            ex, ey, a, b, ang = g
            lines.append('  <ellipse rx="%g" ry="%g" transform="translate(%.3f %.3f) rotate(%.3f)" %s/>'
                         % (a, b, ex, ey, math.degrees(ang), paint))
        else:
            ccx, ccy, rr = g
            lines.append('  <circle cx="%g" cy="%g" r="%g" %s/>' % (ccx, ccy, rr, paint))
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def render(size):
    """The PNG rows (RGBA, straight alpha) of the icon at size×size pixels."""
    k = UNIT / size  # design units per pixel
    x0, y0, x1, y1, r = TILE
    items = shapes()
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            # Pixel centre in design units; distances are converted back to pixels for coverage.
            px, py = (x + 0.5) * k, (y + 0.5) * k
            pix = (0.0, 0.0, 0.0, 0.0)
            d = rounded_rect_sdf(px, py, x0, y0, x1, y1, r)
            t = flower.clamp((py - y0) / (y1 - y0))
            pix = flower.over(pix, flower.mix(TILE_TOP, TILE_BOTTOM, t), flower.coverage(d / k))
            pix = flower.over(pix, TILE_RIM, flower.coverage((abs(d) - 2.0) / k))
            for kind, g, fill, rim, width, opacity in items:
                if kind == "ellipse":
                    ex, ey, a, b, ang = g
                    d = flower.ellipse_sdf(px, py, ex, ey, a, b, ang)
                else:
                    ccx, ccy, rr = g
                    d = flower.circle_sdf(px, py, ccx, ccy, rr)
                if d > width:
                    continue
                pix = flower.over(pix, fill, flower.coverage(d / k) * opacity)
                pix = flower.over(pix, rim, flower.coverage((abs(d) - width / 2) / k))
            row += bytes(int(round(flower.clamp(v) * 255)) for v in pix)
        rows.append(bytes(row))
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "Resources", "icons", "hicolor")
    os.makedirs(os.path.join(out, "scalable", "apps"), exist_ok=True)
    with open(os.path.join(out, "scalable", "apps", "gestures.svg"), "w") as f:
        f.write(svg())
    for size in SIZES:
        folder = os.path.join(out, "%dx%d" % (size, size), "apps")
        os.makedirs(folder, exist_ok=True)
        flower.write_png(os.path.join(folder, "gestures.png"), size, render(size))


if __name__ == "__main__":
    main()
