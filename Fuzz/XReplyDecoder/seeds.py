#!/usr/bin/env python3
"""Writes the seeds of the xreply fuzz target (Fuzz/corpus/xreply): well-formed replies as an
X server sends them (little-endian), one per decoder. Usage: seeds.py DIR"""
import struct
import sys


def reply(body, data1=0, extra=b""):
    """A reply: header (type 1, data byte, sequence, length) + the rest of the 32 bytes + extra."""
    fixed = body.ljust(24, b"\0")[:24]
    extra = extra + b"\0" * (-len(extra) % 4)
    return struct.pack("<BBHI", 1, data1, 7, len(extra) // 4) + fixed + extra


def xi_query_device():
    name = b"Virtual core pointer"
    scroll_v = struct.pack("<HHHHHHIiI", 3, 6, 2, 2, 1, 0, 0, 1, 0)
    scroll_h = struct.pack("<HHHHHHIiI", 3, 6, 2, 3, 2, 0, 0, 1, 0)
    button = struct.pack("<HHHH", 1, 3, 2, 2) + b"\0" * 4
    classes = [button, scroll_v, scroll_h]
    info = struct.pack("<HHHHHBB", 2, 1, 3, len(classes), len(name), 1, 0) + name + b"\0" * (-len(name) % 4)
    info += b"".join(classes)
    keyboard = b"kbd!"
    info2 = struct.pack("<HHHHHBB", 3, 2, 2, 0, len(keyboard), 1, 0) + keyboard
    return reply(struct.pack("<H", 2), extra=info + info2)


def rr_get_monitors():
    m1 = struct.pack("<IBBHhhHHII", 300, 1, 1, 1, 0, 0, 1024, 768, 270, 200) + struct.pack("<I", 63)
    m2 = struct.pack("<IBBHhhHHII", 301, 0, 1, 2, 1024, 0, 800, 600, 200, 150) + struct.pack("<II", 64, 65)
    return reply(struct.pack("<III", 1234, 2, 3), extra=m1 + m2)


def get_property():
    value = struct.pack("<II", 411, 412)
    return reply(struct.pack("<III", 4, 0, 2), data1=32, extra=value)


def get_atom_name():
    name = b"DUMMY0"
    return reply(struct.pack("<H", len(name)), extra=name)


def xinerama():
    screens = struct.pack("<hhHH", 0, 0, 1024, 768) + struct.pack("<hhHH", 1024, 0, 800, 600)
    return reply(struct.pack("<I", 2), extra=screens)


def screen_resources():
    crtcs = struct.pack("<II", 63, 64)
    outputs = struct.pack("<I", 65)
    mode = struct.pack("<IHHIHHHHHHHHI", 70, 1024, 768, 65000000, 1048, 1184, 1344, 0, 771, 777, 806, 8, 0)
    return reply(struct.pack("<IIHHHH", 1, 2, 2, 1, 1, 8), extra=crtcs + outputs + mode + b"1024x768")


def keyboard_mapping():
    syms = [0x61, 0x41, 0, 0, 0x62, 0x42, 0, 0, 0xff0d, 0, 0, 0]
    return reply(b"", data1=4, extra=struct.pack("<%dI" % len(syms), *syms))


def setup():
    vendor = b"The X.Org Foundation"
    formats = struct.pack("<BBB5x", 24, 32, 32)
    visual = struct.pack("<IBBHIII4x", 0x21, 4, 8, 256, 0xFF0000, 0xFF00, 0xFF)
    depth = struct.pack("<BxH4x", 24, 1) + visual
    screen = struct.pack("<IIIIIHHHHHHIBBBB", 0x3C3, 0x20, 0xFFFFFF, 0, 0, 1280, 800, 338, 211, 1, 1, 0x21, 0, 0, 24, 1)
    rest = struct.pack("<IIIIHHBBBBBBBB4x", 12101004, 0x200000, 0x1FFFFF, 256, len(vendor), 65535, 1, 1, 0, 0, 32, 32, 8, 255)
    rest += vendor + b"\0" * (-len(vendor) % 4) + formats + screen + depth
    return struct.pack("<BBHHH", 1, 0, 11, 0, len(rest) // 4) + rest


if __name__ == "__main__":
    out = sys.argv[1]
    for name, data in [("xi-query-device", xi_query_device()), ("rr-get-monitors", rr_get_monitors()),
                       ("get-property", get_property()), ("get-atom-name", get_atom_name()),
                       ("xinerama-query-screens", xinerama()), ("rr-screen-resources", screen_resources()),
                       ("get-keyboard-mapping", keyboard_mapping()), ("setup", setup())]:
        with open(f"{out}/{name}", "wb") as f:
            f.write(data)
