// The inner loop of NearestPainter (Sources/GesturesDemo/NearestPainter.swift): one row's run of
// picture pixels under an affine transform, nearest sampling. See CPixelSpan.h for the contract.
//
// Why C: the loop is the whole cost of a moving, enlarged picture (a 3840×2160 frame is 8.3
// million of these pixels), and its fast form needs instructions Swift cannot ask for without
// building the whole program for them: AVX2's 8-lane permute, chosen at run time so that the
// binary still runs on any x86-64 (and on ARM, where the scalar loop runs).
//
// The vector path, 8 pixels at a time: when the picture is enlarged (about 2× or more) the 8
// pixels come from at most 8 consecutive columns of at most 2 consecutive rows, so two 8-pixel
// loads and two in-register permutes replace 8 separate loads. Otherwise AVX2's gather does
// the 8 loads. Positions are exact 32.32 in 64-bit lanes, so the pixels equal the scalar loop's.

#include "CPixelSpan.h"

#include <stdlib.h>

static inline uint32_t tint_pixel(uint32_t d, uint32_t solid, uint32_t inverse) {
    uint32_t out = 0xFF000000u;
    for (int shift = 0; shift < 24; shift += 8) {
        uint32_t t = ((d >> shift) & 0xFF) * inverse + 0x80;
        uint32_t c = ((solid >> shift) & 0xFF) + ((t + (t >> 8)) >> 8);
        out |= (c > 0xFF ? 0xFF : c) << shift;
    }
    return out;
}

static void span_scalar(
    uint32_t *out, intptr_t count, const uint32_t *source, intptr_t stride,
    int64_t u, int64_t v, int64_t du, int64_t dv) {
    for (intptr_t i = 0; i < count; i++) {
        out[i] = source[(v >> 32) * stride + (u >> 32)] | 0xFF000000u;
        u += du;
        v += dv;
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

// SSE2 is part of x86-64: no run-time choice. Four pixels at a time, channels widened to 16 bits.
void gestures_tint_span(uint32_t *pixels, intptr_t count, uint32_t solid) {
    uint32_t inverse = 255 - (solid >> 24);
    const __m128i zero = _mm_setzero_si128();
    const __m128i factor = _mm_set1_epi16((short)inverse);
    const __m128i half = _mm_set1_epi16(0x80);
    const __m128i colour = _mm_set1_epi32((int)(solid & 0x00FFFFFFu));
    const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
    intptr_t i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i d = _mm_loadu_si128((const __m128i *)(pixels + i));
        __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), factor), half);
        __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), factor), half);
        lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
        hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
        __m128i p = _mm_adds_epu8(_mm_packus_epi16(lo, hi), colour);
        _mm_storeu_si128((__m128i *)(pixels + i), _mm_or_si128(p, opaque));
    }
    for (; i < count; i++) pixels[i] = tint_pixel(pixels[i], solid, inverse);
}

__attribute__((target("avx2"))) static void span_avx2(
    uint32_t *out, intptr_t count, const uint32_t *source, intptr_t stride, intptr_t rows,
    int64_t u, int64_t v, int64_t du, int64_t dv) {
    const uint32_t *end = source + stride * rows;
    // Lanes hold pixels 0, 1, 4, 5 (lo) and 2, 3, 6, 7 (hi): taking the high halves of both
    // with one shuffle then gives pixels 0…7 in order.
    // Lanes hold pixels 0, 1, 4, 5 (lo) and 2, 3, 6, 7 (hi): taking the high halves of both
    // with one shuffle then gives pixels 0…7 in order. k·du for k ≤ 8 does not overflow:
    // |du|, |dv| < 2^46 (NearestPainter's bound on the transform).
    __m256i ulo = _mm256_setr_epi64x(u, u + du, u + 4 * du, u + 5 * du);
    __m256i uhi = _mm256_setr_epi64x(u + 2 * du, u + 3 * du, u + 6 * du, u + 7 * du);
    __m256i vlo = _mm256_setr_epi64x(v, v + dv, v + 4 * dv, v + 5 * dv);
    __m256i vhi = _mm256_setr_epi64x(v + 2 * dv, v + 3 * dv, v + 6 * dv, v + 7 * dv);
    const __m256i step_u = _mm256_set1_epi64x(8 * du), step_v = _mm256_set1_epi64x(8 * dv);
    const __m256i opaque = _mm256_set1_epi32((int)0xFF000000u);
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i vstride = _mm256_set1_epi32((int)stride);
    intptr_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i cu = _mm256_castps_si256(
            _mm256_shuffle_ps(_mm256_castsi256_ps(ulo), _mm256_castsi256_ps(uhi), _MM_SHUFFLE(3, 1, 3, 1)));
        __m256i cv = _mm256_castps_si256(
            _mm256_shuffle_ps(_mm256_castsi256_ps(vlo), _mm256_castsi256_ps(vhi), _MM_SHUFFLE(3, 1, 3, 1)));
        // Columns and rows are monotonic along the run: the ends bound them.
        int64_t u7 = u + 7 * du, v7 = v + 7 * dv;
        int32_t ua = (int32_t)(u >> 32), ub = (int32_t)(u7 >> 32);
        int32_t va = (int32_t)(v >> 32), vb = (int32_t)(v7 >> 32);
        int32_t umin = ua < ub ? ua : ub, umax = ua < ub ? ub : ua;
        int32_t vmin = va < vb ? va : vb, vmax = va < vb ? vb : va;
        const uint32_t *r0 = source + (intptr_t)vmin * stride + umin;
        __m256i p;
        if (umax - umin < 8 && vmax - vmin <= 1 && r0 + stride + 8 <= end) {
            __m256i a = _mm256_loadu_si256((const __m256i *)r0);
            __m256i b = _mm256_loadu_si256((const __m256i *)(r0 + stride));
            __m256i column = _mm256_sub_epi32(cu, _mm256_set1_epi32(umin));
            __m256i second = _mm256_cmpeq_epi32(_mm256_sub_epi32(cv, _mm256_set1_epi32(vmin)), one);
            p = _mm256_blendv_epi8(
                _mm256_permutevar8x32_epi32(a, column), _mm256_permutevar8x32_epi32(b, column), second);
        } else {
            __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(cv, vstride), cu);
            p = _mm256_i32gather_epi32((const int *)source, index, 4);
        }
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_or_si256(p, opaque));
        ulo = _mm256_add_epi64(ulo, step_u);
        uhi = _mm256_add_epi64(uhi, step_u);
        vlo = _mm256_add_epi64(vlo, step_v);
        vhi = _mm256_add_epi64(vhi, step_v);
        u += 8 * du;
        v += 8 * dv;
    }
    span_scalar(out + i, count - i, source, stride, u, v, du, dv);
}

// Chosen once, before main (no thread reads it before it is set).
static int use_avx2;

__attribute__((constructor)) static void choose_path(void) {
    const char *forced = getenv("GESTURES_SCALAR_SPANS");
    __builtin_cpu_init();
    use_avx2 = !(forced && forced[0] == '1') && __builtin_cpu_supports("avx2");
}

int gestures_nearest_span_vectorized(void) { return use_avx2; }

void gestures_nearest_span(
    uint32_t *out, intptr_t count, const uint32_t *source, intptr_t stride, intptr_t rows,
    int64_t u, int64_t v, int64_t du, int64_t dv) {
    if (count >= 8 && use_avx2) {
        span_avx2(out, count, source, stride, rows, u, v, du, dv);
    } else {
        span_scalar(out, count, source, stride, u, v, du, dv);
    }
}

#else

void gestures_tint_span(uint32_t *pixels, intptr_t count, uint32_t solid) {
    uint32_t inverse = 255 - (solid >> 24);
    for (intptr_t i = 0; i < count; i++) pixels[i] = tint_pixel(pixels[i], solid, inverse);
}

int gestures_nearest_span_vectorized(void) { return 0; }

void gestures_nearest_span(
    uint32_t *out, intptr_t count, const uint32_t *source, intptr_t stride, intptr_t rows,
    int64_t u, int64_t v, int64_t du, int64_t dv) {
    (void)rows;
    span_scalar(out, count, source, stride, u, v, du, dv);
}

#endif
