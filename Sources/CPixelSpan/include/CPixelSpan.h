#ifndef GESTURES_CPIXELSPAN_H
#define GESTURES_CPIXELSPAN_H

#include <stdint.h>

/// Writes `count` pixels of one row of a picture drawn under an affine transform with the
/// nearest pixel: pixel i is the source pixel at column `(u + i·du) >> 32` and row
/// `(v + i·dv) >> 32` (32.32 fixed point), with its top byte set (opaque).
///
/// The caller guarantees that every one of those positions lies inside the source, `rows` rows
/// of `stride` pixels (NearestPainter calls it for the run of a row that takes the picture).
/// Whatever the processor, the pixels written are the same: the vector path (x86-64 with AVX2,
/// chosen at run time) computes the same 32.32 positions as the scalar loop.
void gestures_nearest_span(
    uint32_t *out, intptr_t count, const uint32_t *source, intptr_t stride, intptr_t rows,
    int64_t u, int64_t v, int64_t du, int64_t dv);

/// Whether ``gestures_nearest_span`` takes its vector path on this processor (1) or its scalar
/// loop (0); `GESTURES_SCALAR_SPANS=1` in the environment forces the scalar loop (for tests and
/// measurements).
int gestures_nearest_span_vectorized(void);

/// Composites the solid colour `solid` (premultiplied `0xAARRGGBB`, as pixman holds a Cairo
/// colour) OVER `count` opaque pixels, in place, with pixman's rounding: each channel becomes
/// s + d·(255 − a)/255 rounded as pixman's MUL_UN8, saturated; the top byte stays 0xFF. The same
/// pixels Cairo's fill of a whole-pixel rectangle with that colour writes onto an RGB24 image.
void gestures_tint_span(uint32_t *pixels, intptr_t count, uint32_t solid);

#endif
