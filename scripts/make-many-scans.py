#!/usr/bin/env python3
"""make-many-scans.py IN OUT N [K]: a progressive JPEG (IN, e.g. from `jpegtran -progressive`)
with its scan K (default: the smallest) repeated N times before EOI. A decoder without a scan
limit walks the whole picture once per scan; Tests/Fixtures/many-scans.jpg is a 64x48 gradient
with scan 5 repeated 800 times (810 scans)."""
import sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = open(src, 'rb').read()
i = 2; scans = []; head_end = None
while i < len(b):
    assert b[i] == 0xFF
    m = b[i + 1]
    if m == 0xD9: break
    length = b[i + 2] << 8 | b[i + 3]
    if m == 0xDA:
        if head_end is None: head_end = i
        j = i + 2 + length
        while not (b[j] == 0xFF and b[j + 1] not in (0x00,) and not (0xD0 <= b[j + 1] <= 0xD7)): j += 1
        scans.append((i, j)); i = j
    else:
        i += 2 + length
# tables (DHT) between scans belong to the following scan: keep everything up to the last scan's end
last_end = scans[-1][1]
k = int(sys.argv[4]) if len(sys.argv) > 4 else None
small = scans[k] if k is not None else min(scans, key=lambda s: s[1] - s[0])
body = b[:last_end] + b[small[0]:small[1]] * n + b'\xff\xd9'
open(dst, 'wb').write(body)
print(len(scans), 'scans; repeated one of', small[1] - small[0], 'bytes', n, 'times;', len(body), 'bytes')
