#!/usr/bin/env python3
"""Writes Resources/tour.jsonl: the demo's bundled tour, a JSON Lines trace (docs/DESIGN.md §4.1)
for a 1024x768 window that taps, swipes, pinches, rotates, pans the flower and shakes.

Positions follow the demo layout at 1024x768 (`gestures layout`): tap region centre
(276.48, 165.12), swipe (747.52, 165.12), pinch (276.48, 326.4), rotate (747.52, 326.4),
flower centre (512, 583.68).

    python3 scripts/make-tour.py [OUT.jsonl]
"""

import json
import math
import sys

HZ = 60.0
lines = [{"type": "viewport", "width": 1024, "height": 768}]


def r(v):
    return round(v, 3)


def emit(kind, t, i, x, y):
    lines.append({"type": kind, "t": r(t), "id": i, "x": r(x), "y": r(y)})


def stroke(t0, duration, fingers):
    """fingers: {id: f(u) -> (x, y)} for u in 0..1; down at t0, moves at HZ, up at t0+duration."""
    for i, f in fingers.items():
        emit("down", t0, i, *f(0.0))
    steps = max(1, int(duration * HZ))
    for k in range(1, steps + 1):
        u = k / steps
        for i, f in fingers.items():
            emit("move", t0 + duration * u, i, *f(u))
    for i, f in fingers.items():
        emit("up", t0 + duration + 0.05, i, *f(1.0))
    return t0 + duration + 0.05


def ease(u):
    return 0.5 - 0.5 * math.cos(math.pi * u)


# Tap.
stroke(0.5, 0.08, {1: lambda u: (276.0, 165.0)})
# Swipe right across the swipe region (200 pt in 0.2 s).
stroke(1.5, 0.2, {2: lambda u: (650.0 + 200.0 * u, 165.0)})
# Pinch out in the pinch region: 100 pt apart to 160 pt apart.
stroke(2.5, 0.6, {
    3: lambda u: (226.0 - 30.0 * ease(u), 326.0),
    4: lambda u: (326.0 + 30.0 * ease(u), 326.0),
})
# Rotate a quarter turn clockwise in the rotate region.
cx, cy, rad = 747.0, 326.0, 55.0
stroke(4.0, 0.8, {
    5: lambda u: (cx + rad * math.cos(math.pi + ease(u) * math.pi / 2), cy + rad * math.sin(math.pi + ease(u) * math.pi / 2)),
    6: lambda u: (cx + rad * math.cos(ease(u) * math.pi / 2), cy + rad * math.sin(ease(u) * math.pi / 2)),
})
# Drag the flower up and to the right.
stroke(5.5, 0.6, {7: lambda u: (512.0 + 120.0 * ease(u), 583.0 - 60.0 * ease(u))})
# Shake: the flower goes home.
lines.append({"type": "shake", "t": 7.0})
lines.append({"type": "wait", "t": 8.0})

out = sys.argv[1] if len(sys.argv) > 1 else "Resources/tour.jsonl"
with open(out, "w") as f:
    for line in lines:
        f.write(json.dumps(line, separators=(",", ":")) + "\n")
