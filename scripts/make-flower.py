#!/usr/bin/env python3
"""Draws Resources/flower.png: the demo's picture, made by this project.

A stylised flower (a stem with two leaves, two rings of petals, a seeded centre) on a
transparent background, 300x300 RGBA. Only the Python standard library is used: every shape
is a signed-distance function, its coverage is anti-aliased over one pixel, and the PNG is
written with zlib + struct.

    python3 scripts/make-flower.py [OUT.png] [SIZE]
    python3 scripts/make-flower.py --pixels Resources/flower.png

Beside OUT.png it writes OUT.pixels (flower.pixels): the same picture as the app holds it, so
that the app's start need not decode the PNG (libpng's inflate, check and premultiplication
are a quarter of the instructions from exec to the first frame when it is decoded there). The
format, read by `DemoImage.bundled`: "GPIXARGB", width and height as little-endian 32-bit numbers, then
width x height pixels, each a little-endian 32-bit 0xAARRGGBB with the colour premultiplied by
alpha exactly as cairo's PNG reader does (rows top to bottom, no padding). `--pixels PNG` writes
it for an existing PNG (8-bit RGBA, filter type 0, as written here).
"""

import math
import struct
import sys
import zlib

SIZE = 300


def clamp(v, lo=0.0, hi=1.0):
    return lo if v < lo else hi if v > hi else v


def ellipse_sdf(px, py, cx, cy, a, b, angle):
    """Approximate signed distance (pixels) to an ellipse with semi-axes a (along angle), b."""
    dx, dy = px - cx, py - cy
    ca, sa = math.cos(angle), math.sin(angle)
    u = dx * ca + dy * sa
    v = -dx * sa + dy * ca
    k = math.hypot(u / a, v / b)
    if k == 0:
        return -min(a, b)
    # First-order distance: the value of the implicit function over its gradient's length.
    gu, gv = u / (a * a), v / (b * b)
    g = math.hypot(gu, gv) / k
    return (k - 1.0) / g if g > 0 else (k - 1.0) * min(a, b)


def circle_sdf(px, py, cx, cy, r):
    return math.hypot(px - cx, py - cy) - r


def petal_sdf(px, py, cx, cy, length, width, angle):
    """A petal: an ellipse whose inner end sits at the flower's centre, pointed at the tip."""
    mx = cx + math.cos(angle) * length * 0.5
    my = cy + math.sin(angle) * length * 0.5
    dx, dy = px - mx, py - my
    ca, sa = math.cos(angle), math.sin(angle)
    u = dx * ca + dy * sa
    # Narrow the petal towards its tip for a pointed look.
    taper = 1.0 - 0.35 * clamp((u / (length * 0.5) + 0.2) / 1.2)
    return ellipse_sdf(px, py, mx, my, length * 0.5, width * 0.5 * taper, angle)


def coverage(d):
    return clamp(0.5 - d)


def mix(c0, c1, t):
    return tuple(c0[i] + (c1[i] - c0[i]) * t for i in range(3))


def over(dst, color, alpha):
    """Composites a straight-alpha colour over dst (r, g, b, a) straight alpha."""
    r, g, b, a = dst
    out_a = alpha + a * (1 - alpha)
    if out_a <= 0:
        return (0.0, 0.0, 0.0, 0.0)
    f = a * (1 - alpha)
    return (
        (color[0] * alpha + r * f) / out_a,
        (color[1] * alpha + g * f) / out_a,
        (color[2] * alpha + b * f) / out_a,
        out_a,
    )


def render(size):
    s = size / 300.0
    cx, cy = 150 * s, 118 * s
    outer_petals = [(i * 2 * math.pi / 8 - math.pi / 2, 92 * s, 46 * s) for i in range(8)]
    inner_petals = [
        (i * 2 * math.pi / 8 - math.pi / 2 + math.pi / 8, 64 * s, 34 * s) for i in range(8)
    ]
    seeds = []
    golden = math.pi * (3 - math.sqrt(5))
    for i in range(34):
        r = 3.1 * s * math.sqrt(i + 0.5)
        seeds.append((cx + r * math.cos(i * golden), cy + r * math.sin(i * golden)))

    stem_color = (0.24, 0.55, 0.22)
    leaf_color = (0.31, 0.66, 0.27)
    leaf_vein = (0.20, 0.45, 0.18)
    petal_out_a = (0.93, 0.33, 0.52)
    petal_out_b = (0.99, 0.72, 0.80)
    petal_in_a = (0.98, 0.55, 0.66)
    petal_in_b = (1.00, 0.90, 0.93)
    centre_a = (0.98, 0.78, 0.20)
    centre_b = (0.85, 0.47, 0.08)
    seed_color = (0.55, 0.28, 0.05)
    outline = (0.55, 0.13, 0.30)

    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            px, py = x + 0.5, y + 0.5
            pix = (0.0, 0.0, 0.0, 0.0)
            # Stem: a slightly curved band from the flower down to the bottom edge.
            bend = 10 * s * math.sin((py - cy) / (190 * s) * math.pi)
            stem_d = abs(px - (cx + bend)) - 5.5 * s
            stem_d = max(stem_d, cy - py, py - 296 * s)
            pix = over(pix, stem_color, coverage(stem_d))
            # Two leaves on the stem, with a midrib.
            for lx, ly, ang in ((cx + 38 * s, 236 * s, -0.55), (cx - 36 * s, 258 * s, math.pi + 0.5)):
                d = ellipse_sdf(px, py, lx, ly, 40 * s, 15 * s, ang)
                c = coverage(d)
                if c > 0:
                    u = (px - lx) * math.cos(ang) + (py - ly) * math.sin(ang)
                    v = -(px - lx) * math.sin(ang) + (py - ly) * math.cos(ang)
                    shade = mix(leaf_color, stem_color, clamp(0.5 + v / (30 * s)))
                    pix = over(pix, shade, c)
                    rib = coverage(abs(v) - 1.0 * s) * clamp(1 - abs(u) / (38 * s))
                    pix = over(pix, leaf_vein, rib * c)
            # Outer petals, with a darker rim and a gradient towards the tip.
            for ang, length, width in outer_petals:
                d = petal_sdf(px, py, cx, cy, length, width, ang)
                c = coverage(d + 1.6 * s)
                rim = coverage(d)
                if rim > 0:
                    t = clamp(math.hypot(px - cx, py - cy) / length)
                    pix = over(pix, outline, rim)
                    pix = over(pix, mix(petal_out_a, petal_out_b, t), c)
            for ang, length, width in inner_petals:
                d = petal_sdf(px, py, cx, cy, length, width, ang)
                c = coverage(d + 1.4 * s)
                rim = coverage(d)
                if rim > 0:
                    t = clamp(math.hypot(px - cx, py - cy) / length)
                    pix = over(pix, (0.80, 0.25, 0.42), rim)
                    pix = over(pix, mix(petal_in_a, petal_in_b, t), c)
            # The centre: a radial gradient and a sunflower spiral of seeds.
            d = circle_sdf(px, py, cx, cy, 24 * s)
            c = coverage(d)
            if c > 0:
                t = clamp(math.hypot(px - cx - 6 * s, py - cy - 6 * s) / (30 * s))
                pix = over(pix, mix(centre_a, centre_b, t), c)
                for sx, sy in seeds:
                    sc = coverage(circle_sdf(px, py, sx, sy, 1.5 * s))
                    if sc > 0:
                        pix = over(pix, seed_color, sc * c * 0.8)
            r, g, b, a = pix
            row += bytes(
                (
                    int(round(clamp(r) * 255)),
                    int(round(clamp(g) * 255)),
                    int(round(clamp(b) * 255)),
                    int(round(clamp(a) * 255)),
                )
            )
        rows.append(bytes(row))
    return rows


def write_png(path, size, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def premultiply(alpha, colour):
    """cairo's multiply_alpha (cairo-png.c): the colour scaled by alpha/255, rounded."""
    t = alpha * colour + 0x80
    return (t + (t >> 8)) >> 8


def write_pixels(path, size, rows):
    """The picture as cairo holds it (see the module's doc): for the app's start."""
    out = bytearray(b"GPIXARGB" + struct.pack("<II", size, size))
    for row in rows:
        for i in range(0, len(row), 4):
            r, g, b, a = row[i], row[i + 1], row[i + 2], row[i + 3]
            if a == 0:
                pixel = 0
            else:
                if a != 255:
                    r, g, b = premultiply(a, r), premultiply(a, g), premultiply(a, b)
                pixel = a << 24 | r << 16 | g << 8 | b
            out += struct.pack("<I", pixel)
    with open(path, "wb") as f:
        f.write(out)


def read_png_rows(path):
    """The rows of a PNG written by write_png (8-bit RGBA, one IDAT, filter type 0)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6), path + ": expected 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + 4 * width
    rows = [raw[y * stride : (y + 1) * stride] for y in range(height)]
    assert all(r[0] == 0 for r in rows), path + ": expected filter type 0 on every row"
    assert width == height, path + ": expected a square picture"
    return width, [r[1:] for r in rows]


def pixels_path(png):
    return (png[:-4] if png.endswith(".png") else png) + ".pixels"


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--pixels":
        size, rows = read_png_rows(sys.argv[2])
        write_pixels(pixels_path(sys.argv[2]), size, rows)
        return
    out = sys.argv[1] if len(sys.argv) > 1 else "Resources/flower.png"
    size = int(sys.argv[2]) if len(sys.argv) > 2 else SIZE
    rows = render(size)
    write_png(out, size, rows)
    write_pixels(pixels_path(out), size, rows)


if __name__ == "__main__":
    main()
