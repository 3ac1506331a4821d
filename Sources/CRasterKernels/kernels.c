// Wide span kernels for Raster: AVX2 and AVX-512, chosen at run time through cpuid.
//
// The package builds without unsafe flags, so nothing here may assume more than x86-64's
// baseline at compile time: each wide function carries its own target attribute and is
// reached only after `crk_wide()` has checked the CPU. Every kernel reproduces the bytes
// of its scalar reference in Raster (named in crasterkernels.h): integer channels are
// scaled in 16-bit lanes with the same rounded division by 255, and gradient positions
// are the same IEEE Float operations in the same order. Fused multiply-add would round once
// where the reference rounds twice, so contraction is off for this file and no function
// asks for the "fma" target. RasterTests compare every kernel with the reference on
// millions of random inputs.
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)

#include "crasterkernels.h"
#include "pixel.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CRK_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static int level = -1;

int crk_cpu_level(void) {
#if CRK_X86
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!osxsave || !avx) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;   // the OS saves XMM and YMM state
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    if (!((b >> 5) & 1)) return 0;  // AVX2
    // AVX-512 F, DQ, BW and VL, with the OS saving the opmask and ZMM state.
    int f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
    return (f && dq && bw && vl && (lo & 0xE6) == 0xE6) ? 2 : 1;
#else
    return 0;
#endif
}

int crk_choose_level(const char *simd, int cpu) {
    if (!simd) return cpu;
    if (strcmp(simd, "off") == 0 || strcmp(simd, "0") == 0 || strcmp(simd, "scalar") == 0) return 0;
    if (strcmp(simd, "avx2") == 0) return cpu < 1 ? cpu : 1;
    return cpu;
}

int crk_wide(void) {
    int l = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (l >= 0) return l;
    l = crk_choose_level(getenv("CHARTREEL_SIMD"), crk_cpu_level());
    __atomic_store_n(&level, l, __ATOMIC_RELAXED);
    return l;
}

void crk_reset_wide(void) { __atomic_store_n(&level, -1, __ATOMIC_RELAXED); }

void crk_set_wide(int l) {
    int cpu = crk_cpu_level();
    __atomic_store_n(&level, l < 0 ? 0 : (l > cpu ? cpu : l), __ATOMIC_RELAXED);
}

// MARK: Scalar pieces for the tails: pixel.h, the same formulas as Raster's Blend.swift and Shader.swift.

// table_index_f (a gradient position's table entry) is in pixel.h: the grid's row loop
// (fixedcells.c) looks up a vertical gradient's row colour with it too.

// A linear or concentric radial gradient on one row: what crk_linear_spans and
// crk_radial_spans take. `unit` (radial): ux = 1 and uy = ±0, see gradient_spans.
enum { crk_linear = 0, crk_radial_unit = 1, crk_radial = 2 };

typedef struct {
    float q0, a;                        // linear: q0 + a·x; radial: |d|·k + q0
    float dx0, dy0, ux, uy, k, dy2;     // radial: d = (dx0 + ux·x, dy0 + uy·x); dy2 = dy0·dy0
} gradient_row;

// The colour of pixel x: the reference's formula, in the same Float operations.
static inline __attribute__((always_inline)) uint32_t shade1(const gradient_row *g, const uint32_t *lut, int n,
                                                            const int kind, const int spread, ptrdiff_t x) {
    float q;
    if (kind == crk_linear) {
        q = g->q0 + g->a * (float)x;
    } else {
        float dx = g->dx0 + g->ux * (float)x, dy = g->dy0 + g->uy * (float)x;
        q = __builtin_sqrtf(dx * dx + dy * dy) * g->k + g->q0;
    }
    return lut[table_index_f(q, spread, n)];
}

// Every span of a row, one pixel at a time: the entry points' path without AVX2.
static void gradient_spans_scalar(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut, int n,
                                  int spread, const gradient_row *g, int kind) {
    for (ptrdiff_t j = 0; j < count; j++) {
        uint32_t cov = spans[j].alpha;
        for (ptrdiff_t x = spans[j].x; x < spans[j].x + spans[j].length; x++) {
            uint32_t s = shade1(g, lut, n, kind, spread, x);
            row[x] = over1(cov == 255 ? s : scale_packed(s, cov), row[x]);
        }
    }
}

#if CRK_X86
#define AVX2 __attribute__((target("avx2")))

// Each 16-bit lane of `x` (holding 0…255) times the 16-bit factors `k` (0…255), divided
// by 255 with rounding as scalePacked does: (t + (t >> 8)) >> 8 with t = x·k + 128. That
// is (t·257) >> 16, the high half of one unsigned 16-bit multiply: writing t = 256h + l,
// both are h + ⌊(l + h)/256⌋, since l < 256 cannot carry 256(l + h) + l past the next
// multiple of 65,536; and t ≤ 255·255 + 128 fits in 16 bits. Checked for every x and k by
// WideKernelTests. Three instructions instead of five: these loops are bound by the
// vector instructions they issue (AVX-512 has two ports for them), not by memory.
static inline AVX2 __m256i scale16(__m256i x, __m256i k) {
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, k), _mm256_set1_epi16(128));
    return _mm256_mulhi_epu16(t, _mm256_set1_epi16(257));
}

// Every channel of eight packed pixels `x` scaled by its pixel's factor in `k` (the factor
// in both 16-bit halves of the pixel's 32-bit lane): scalePacked, with red and blue in the
// low bytes of the halves and green and alpha shifted down into them, so the pixels are
// never unpacked to 16 bits per channel and packed again.
static inline AVX2 __m256i scale_px8(__m256i x, __m256i k) {
    __m256i rb = scale16(_mm256_and_si256(x, _mm256_set1_epi32(0x00FF00FF)), k);
    __m256i ag = scale16(_mm256_srli_epi16(x, 8), k);
    return _mm256_or_si256(rb, _mm256_slli_epi16(ag, 8));
}

// 255 − α of each pixel in both 16-bit halves of its lane (α ≤ 255, so 255 − α = α ^ 255).
static inline AVX2 __m256i inv_alpha8(__m256i s) {
    const __m256i m = _mm256_setr_epi8(3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1,
                                       3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1);
    return _mm256_xor_si256(_mm256_shuffle_epi8(s, m), _mm256_set1_epi32(0x00FF00FF));
}

// Source-over of 8 premultiplied pixels `s` (scaled by `cov`, a 16-bit broadcast, unless
// `full`) onto `d`: s' + scalePacked(d, 255 − α(s')), the sum as 32-bit lanes (`&+`).
static inline AVX2 __m256i over8(__m256i s, __m256i d, __m256i cov, int full) {
    if (!full) s = scale_px8(s, cov);
    return _mm256_add_epi32(s, scale_px8(d, inv_alpha8(s)));
}

static AVX2 void over_span_avx2(uint32_t *dst, const uint32_t *src, ptrdiff_t len, uint32_t cov) {
    __m256i c = _mm256_set1_epi16((short)cov);
    ptrdiff_t i = 0;
    if (cov == 255) {
        for (; i + 8 <= len; i += 8) {
            __m256i s = _mm256_loadu_si256((const __m256i *)(src + i)), d = _mm256_loadu_si256((const __m256i *)(dst + i));
            _mm256_storeu_si256((__m256i *)(dst + i), over8(s, d, c, 1));
        }
        for (; i < len; i++) dst[i] = over1(src[i], dst[i]);
    } else {
        for (; i + 8 <= len; i += 8) {
            __m256i s = _mm256_loadu_si256((const __m256i *)(src + i)), d = _mm256_loadu_si256((const __m256i *)(dst + i));
            _mm256_storeu_si256((__m256i *)(dst + i), over8(s, d, c, 0));
        }
        for (; i < len; i++) dst[i] = over1(scale_packed(src[i], cov), dst[i]);
    }
}

static AVX2 void solid_span_avx2(uint32_t *dst, ptrdiff_t len, uint32_t cov, uint32_t color) {
    uint32_t src = cov == 255 ? color : scale_packed(color, cov);
    __m256i s = _mm256_set1_epi32((int)src);
    if (src >> 24 == 255) {
        for (ptrdiff_t i = 0; i < len; i++) dst[i] = src;   // a store loop: memset-like
        return;
    }
    __m256i inv = _mm256_set1_epi16((short)(255 - (src >> 24)));
    ptrdiff_t i = 0;
    for (; i + 8 <= len; i += 8) {
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_add_epi32(s, scale_px8(d, inv)));
    }
    for (; i < len; i++) dst[i] = src + scale_packed(dst[i], 255u - (src >> 24));
}

// Source-over of one colour through a row of coverage bytes: pixel i takes
// scalePacked(color, mask[i]) over dst[i], the bytes of Raster's `maskSolidSpan`. Eight
// coverage bytes are spread to both 16-bit halves of their pixel's lane by one shuffle of
// the bytes broadcast to both lanes; a group of eight zero bytes is skipped.
static AVX2 void mask_solid_avx2(uint32_t *dst, const uint8_t *mask, ptrdiff_t len, uint32_t color) {
    const __m256i spread = _mm256_setr_epi8(0, -1, 0, -1, 1, -1, 1, -1, 2, -1, 2, -1, 3, -1, 3, -1,
                                            4, -1, 4, -1, 5, -1, 5, -1, 6, -1, 6, -1, 7, -1, 7, -1);
    __m256i c = _mm256_set1_epi32((int)color);
    ptrdiff_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t m8;
        memcpy(&m8, mask + i, 8);
        if (m8 == 0) continue;
        __m256i s = scale_px8(c, _mm256_shuffle_epi8(_mm256_set1_epi64x((long long)m8), spread));
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_add_epi32(s, scale_px8(d, inv_alpha8(s))));
    }
    for (; i < len; i++) if (mask[i]) dst[i] = over1(scale_packed(color, mask[i]), dst[i]);
}

// Table indices of eight shifted positions, as table_index_f. Under pad, NaN and
// positions up to 0 clamp to 0 (max returns its second operand for NaN) and positions
// from n + 1 on to n + 1, and the truncating conversion is the index.
static inline AVX2 __m256i index8f(__m256 q, int spread, int n) {
    if (spread == 0) {
        q = _mm256_min_ps(_mm256_max_ps(q, _mm256_setzero_ps()), _mm256_set1_ps((float)(n + 1)));
        return _mm256_cvttps_epi32(q);
    }
    __m256 c = _mm256_min_ps(_mm256_max_ps(q, _mm256_set1_ps(-spread_limit_f)), _mm256_set1_ps(spread_limit_f));
    c = _mm256_round_ps(c, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m256i v = _mm256_sub_epi32(_mm256_cvttps_epi32(c), _mm256_set1_epi32(1));
    if (spread == 1) return _mm256_add_epi32(_mm256_and_si256(v, _mm256_set1_epi32(n - 1)), _mm256_set1_epi32(1));
    __m256i m = _mm256_and_si256(v, _mm256_set1_epi32(2 * n - 1));
    return _mm256_add_epi32(_mm256_min_epi32(m, _mm256_sub_epi32(_mm256_set1_epi32(2 * n - 1), m)), _mm256_set1_epi32(1));
}

// The table entries at eight indices (each in 0…n + 1). When they lie within 16
// consecutive entries, as they do wherever the gradient changes by less than about two
// entries a pixel (nearly every chart's), two loads and two register permutes fetch them;
// otherwise a gather does. Either way the result is lut[idx] lane by lane, so the choice
// changes the time, never the bytes. The window starts at the smallest index, moved down
// so that it ends inside the table (n ≥ 256, so n + 2 ≥ 16); the test of the relative
// indices, not the choice of the start, decides which way is taken. Why: a gather of
// eight costs 5–9 cycles on Zen 3 and Zen 4 and about 30 on Intel CPUs with the Gather
// Data Sampling microcode fix (measured 11 ns on a 2.8 GHz Ice Lake), the permutes 2–4.
static inline AVX2 __m256i lookup8(const uint32_t *lut, int n, __m256i idx) {
    __m256i mn = _mm256_min_epi32(idx, _mm256_permute2x128_si256(idx, idx, 1));
    mn = _mm256_min_epi32(mn, _mm256_shuffle_epi32(mn, 0x4E));
    mn = _mm256_min_epi32(mn, _mm256_shuffle_epi32(mn, 0xB1));
    int m = _mm256_cvtsi256_si32(mn), top = n + 2 - 16;
    if (m > top) m = top;
    __m256i rel = _mm256_sub_epi32(idx, _mm256_set1_epi32(m));
    if (_mm256_testz_si256(rel, _mm256_set1_epi32(~15))) {
        const __m256i *w = (const __m256i *)(lut + m);
        __m256 lo = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(_mm256_loadu_si256(w), rel));
        __m256 hi = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(_mm256_loadu_si256(w + 1), rel));
        // Bit 3 of the relative index, moved to the sign bit, picks the upper half.
        return _mm256_castps_si256(_mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(rel, 28))));
    }
    return _mm256_i32gather_epi32((const int *)lut, idx, 4);
}

// The gradient kernels take a row's spans (crk_span) and positions measured from the
// row's start: pixel x's position is q0 + a·x (linear) or comes from
// (dx0 + ux·x, dy0 + uy·x) (radial), so one call composites a row's edge pixels and its
// interior alike. Spans of 8 pixels or more run the vector loop, with the last 1–7
// pixels and shorter spans on the scalar formulas (shade1).

// The colours of the eight pixels whose columns are `xs`, as shade1. `crk_radial_unit`:
// ux = 1 and uy = ±0, a gradient under no rotation or scale (every chart's). Then the
// reference's dx = dx0 + 1·x is dx0 + x, and dy = dy0 + (±0·x) squares to dy0·dy0 at
// every pixel (±0 + ±0 and ±0 square alike; NaN and infinities stay what they were), so
// dy·dy is one product for the row: the same Floats with three fewer instructions per
// eight pixels.
static inline __attribute__((always_inline)) AVX2 __m256i shade8(const gradient_row *g, const uint32_t *lut, int n,
                                                                const int kind, const int spread, __m256 xs) {
    __m256 q, vq0 = _mm256_set1_ps(g->q0);
    if (kind == crk_linear) {
        q = _mm256_add_ps(vq0, _mm256_mul_ps(_mm256_set1_ps(g->a), xs));
    } else {
        __m256 d2;
        if (kind == crk_radial_unit) {
            __m256 dx = _mm256_add_ps(_mm256_set1_ps(g->dx0), xs);
            d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_set1_ps(g->dy2));
        } else {
            __m256 dx = _mm256_add_ps(_mm256_set1_ps(g->dx0), _mm256_mul_ps(_mm256_set1_ps(g->ux), xs));
            __m256 dy = _mm256_add_ps(_mm256_set1_ps(g->dy0), _mm256_mul_ps(_mm256_set1_ps(g->uy), xs));
            d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        }
        q = _mm256_add_ps(_mm256_mul_ps(_mm256_sqrt_ps(d2), _mm256_set1_ps(g->k)), vq0);
    }
    return lookup8(lut, n, index8f(q, spread, n));
}

static inline __attribute__((always_inline)) AVX2 void gradient_spans(uint32_t *row, const crk_span *spans, ptrdiff_t count,
        const uint32_t *lut, int n, const gradient_row *g, const int kind, const int spread) {
    const __m256 lanes = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), eight = _mm256_set1_ps(8);
    for (ptrdiff_t j = 0; j < count; j++) {
        ptrdiff_t x = spans[j].x, len = spans[j].length, i = 0;
        uint32_t cov = spans[j].alpha, *dst = row + x;
        if (len >= 8) {
            __m256i c = _mm256_set1_epi16((short)cov);
            __m256 xs = _mm256_add_ps(_mm256_set1_ps((float)x), lanes);
            for (; i + 8 <= len; i += 8) {
                __m256i s = shade8(g, lut, n, kind, spread, xs), d = _mm256_loadu_si256((const __m256i *)(dst + i));
                _mm256_storeu_si256((__m256i *)(dst + i), over8(s, d, c, cov == 255));
                xs = _mm256_add_ps(xs, eight);
            }
        }
        for (; i < len; i++) {
            uint32_t s = shade1(g, lut, n, kind, spread, x + i);
            dst[i] = over1(cov == 255 ? s : scale_packed(s, cov), dst[i]);
        }
    }
}

// A gradient span loop (gradient_spans, gradient_spans16) called with the kind and the
// spread as constants, so that each of the nine combinations compiles to its own loop.
#define CRK_GRADIENT_SPREADS(loop, kind) \
    switch (spread) { \
    case 0: loop(row, spans, count, lut, n, g, kind, 0); break; \
    case 1: loop(row, spans, count, lut, n, g, kind, 1); break; \
    default: loop(row, spans, count, lut, n, g, kind, 2); break; \
    }
#define CRK_GRADIENT_KINDS(loop) \
    switch (kind) { \
    case crk_linear: CRK_GRADIENT_SPREADS(loop, crk_linear) break; \
    case crk_radial_unit: CRK_GRADIENT_SPREADS(loop, crk_radial_unit) break; \
    default: CRK_GRADIENT_SPREADS(loop, crk_radial) break; \
    }

static AVX2 void gradient_spans_avx2(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut, int n,
                                     int spread, const gradient_row *g, int kind) {
    CRK_GRADIENT_KINDS(gradient_spans)
}

// MARK: AVX-512: the same kernels 16 pixels at a time.
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

static inline AVX512 __m512i scale16x(__m512i x, __m512i k) {
    __m512i t = _mm512_add_epi16(_mm512_mullo_epi16(x, k), _mm512_set1_epi16(128));
    return _mm512_mulhi_epu16(t, _mm512_set1_epi16(257));
}

static inline AVX512 __m512i scale_px16(__m512i x, __m512i k) {
    __m512i rb = scale16x(_mm512_and_si512(x, _mm512_set1_epi32(0x00FF00FF)), k);
    __m512i ag = scale16x(_mm512_srli_epi16(x, 8), k);
    return _mm512_or_si512(rb, _mm512_slli_epi16(ag, 8));
}

static inline AVX512 __m512i over16(__m512i s, __m512i d, __m512i cov, int full) {
    if (!full) s = scale_px16(s, cov);
    const __m512i m = _mm512_set4_epi32((int)0x800F800Fu, (int)0x800B800Bu, (int)0x80078007u, (int)0x80038003u);
    __m512i inv = _mm512_xor_si512(_mm512_shuffle_epi8(s, m), _mm512_set1_epi32(0x00FF00FF));
    return _mm512_add_epi32(s, scale_px16(d, inv));
}

static AVX512 void over_span_avx512(uint32_t *dst, const uint32_t *src, ptrdiff_t len, uint32_t cov) {
    __m512i c = _mm512_set1_epi16((short)cov);
    ptrdiff_t i = 0;
    for (; i + 16 <= len; i += 16) {
        __m512i s = _mm512_loadu_si512(src + i), d = _mm512_loadu_si512(dst + i);
        _mm512_storeu_si512(dst + i, over16(s, d, c, cov == 255));
    }
    if (i < len) over_span_avx2(dst + i, src + i, len - i, cov);
}

static AVX512 void solid_span_avx512(uint32_t *dst, ptrdiff_t len, uint32_t cov, uint32_t color) {
    uint32_t src = cov == 255 ? color : scale_packed(color, cov);
    if (src >> 24 == 255) { solid_span_avx2(dst, len, cov, color); return; }
    __m512i s = _mm512_set1_epi32((int)src), inv = _mm512_set1_epi16((short)(255 - (src >> 24)));
    ptrdiff_t i = 0;
    for (; i + 16 <= len; i += 16) {
        __m512i d = _mm512_loadu_si512(dst + i);
        _mm512_storeu_si512(dst + i, _mm512_add_epi32(s, scale_px16(d, inv)));
    }
    if (i < len) solid_span_avx2(dst + i, len - i, cov, color);
}

// Table indices of sixteen shifted positions: index8f's steps on sixteen lanes (vmaxps,
// vminps, the floor and the truncating conversion behave alike on 512-bit registers).
static inline AVX512 __m512i index16f(__m512 q, int spread, int n) {
    if (spread == 0) {
        q = _mm512_min_ps(_mm512_max_ps(q, _mm512_setzero_ps()), _mm512_set1_ps((float)(n + 1)));
        return _mm512_cvttps_epi32(q);
    }
    __m512 c = _mm512_min_ps(_mm512_max_ps(q, _mm512_set1_ps(-spread_limit_f)), _mm512_set1_ps(spread_limit_f));
    c = _mm512_roundscale_ps(c, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512i v = _mm512_sub_epi32(_mm512_cvttps_epi32(c), _mm512_set1_epi32(1));
    if (spread == 1) return _mm512_add_epi32(_mm512_and_si512(v, _mm512_set1_epi32(n - 1)), _mm512_set1_epi32(1));
    __m512i m = _mm512_and_si512(v, _mm512_set1_epi32(2 * n - 1));
    return _mm512_add_epi32(_mm512_min_epi32(m, _mm512_sub_epi32(_mm512_set1_epi32(2 * n - 1), m)), _mm512_set1_epi32(1));
}

// lookup8 on sixteen lanes: a window of 32 entries is one two-table permute (vpermt2d).
// The window starts at the smaller of the first and the last lane's indices, two moves
// instead of the full reduction's seven steps: that is the smallest index wherever the
// positions run one way along the block (a linear gradient's; pad's clamps keep their
// order) or are convex in x, as a radial gradient's distance from its centre is along a
// row, except in the block that holds the row's point nearest the centre. There (and
// where repeat or reflect wrap inside the block) a lane falls below the window, and the
// full reduction is taken before the gather. The colours are lut[idx] whichever way.
static inline __attribute__((always_inline)) AVX512 __m512i lookup16(const uint32_t *lut, int n, __m512i idx) {
    const int top = n + 2 - 32;
    int first = _mm_cvtsi128_si32(_mm512_castsi512_si128(idx));
    int last = _mm_extract_epi32(_mm512_extracti32x4_epi32(idx, 3), 3);
    int m = first < last ? first : last;
    if (m > top) m = top;
    __m512i rel = _mm512_sub_epi32(idx, _mm512_set1_epi32(m));
    if (_mm512_test_epi32_mask(rel, _mm512_set1_epi32(~31)) != 0) {
        m = _mm512_reduce_min_epi32(idx);
        if (m > top) m = top;
        rel = _mm512_sub_epi32(idx, _mm512_set1_epi32(m));
        if (_mm512_test_epi32_mask(rel, _mm512_set1_epi32(~31)) != 0) return _mm512_i32gather_epi32(idx, (const int *)lut, 4);
    }
    return _mm512_permutex2var_epi32(_mm512_loadu_si512(lut + m), rel, _mm512_loadu_si512(lut + m + 16));
}

// shade8 on sixteen lanes, in the same Float operations.
static inline __attribute__((always_inline)) AVX512 __m512i shade16(const gradient_row *g, const uint32_t *lut, int n,
                                                                   const int kind, const int spread, __m512 xs) {
    __m512 q, vq0 = _mm512_set1_ps(g->q0);
    if (kind == crk_linear) {
        q = _mm512_add_ps(vq0, _mm512_mul_ps(_mm512_set1_ps(g->a), xs));
    } else {
        __m512 d2;
        if (kind == crk_radial_unit) {
            __m512 dx = _mm512_add_ps(_mm512_set1_ps(g->dx0), xs);
            d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_set1_ps(g->dy2));
        } else {
            __m512 dx = _mm512_add_ps(_mm512_set1_ps(g->dx0), _mm512_mul_ps(_mm512_set1_ps(g->ux), xs));
            __m512 dy = _mm512_add_ps(_mm512_set1_ps(g->dy0), _mm512_mul_ps(_mm512_set1_ps(g->uy), xs));
            d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        }
        q = _mm512_add_ps(_mm512_mul_ps(_mm512_sqrt_ps(d2), _mm512_set1_ps(g->k)), vq0);
    }
    return lookup16(lut, n, index16f(q, spread, n));
}

// `len` pixels from column x, each at its own coverage (`cov`, 1…255), sixteen at a time
// (the last step under a mask): over16 with the coverage per lane. Scaling by 255 is
// exact (the rounded 255·v/255 is v), so a pixel gets the bytes its span's own step
// gives it.
static inline __attribute__((always_inline)) AVX512 void gradient_covered16(uint32_t *dst, ptrdiff_t x, ptrdiff_t len,
        const uint8_t *cov, const uint32_t *lut, int n, const gradient_row *g, const int kind, const int spread) {
    const __m512 lanes = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), sixteen = _mm512_set1_ps(16);
    __m512 xs = _mm512_add_ps(_mm512_set1_ps((float)x), lanes);
    for (ptrdiff_t i = 0; i < len; i += 16) {
        __mmask16 k = len - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (len - i)) - 1);
        __m512i c = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(k, cov + i));
        c = _mm512_or_si512(c, _mm512_slli_epi32(c, 16));
        __m512i s = shade16(g, lut, n, kind, spread, xs), d = _mm512_maskz_loadu_epi32(k, dst + i);
        _mm512_mask_storeu_epi32(dst + i, k, over16(s, d, c, 0));
        xs = _mm512_add_ps(xs, sixteen);
    }
}

// One span of `len` pixels from column x at coverage `cov`, sixteen at a time; the last
// 1–15 pixels are one more step under a mask.
static inline __attribute__((always_inline)) AVX512 void gradient_span16(uint32_t *dst, ptrdiff_t x, ptrdiff_t len,
        uint32_t cov, const uint32_t *lut, int n, const gradient_row *g, const int kind, const int spread) {
    const __m512 lanes = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), sixteen = _mm512_set1_ps(16);
    __m512i c = _mm512_set1_epi16((short)cov);
    __m512 xs = _mm512_add_ps(_mm512_set1_ps((float)x), lanes);
    ptrdiff_t i = 0;
    for (; i + 16 <= len; i += 16) {
        __m512i s = shade16(g, lut, n, kind, spread, xs), d = _mm512_loadu_si512(dst + i);
        _mm512_storeu_si512(dst + i, over16(s, d, c, cov == 255));
        xs = _mm512_add_ps(xs, sixteen);
    }
    if (i < len) {
        __mmask16 k = (__mmask16)((1u << (len - i)) - 1);
        __m512i s = shade16(g, lut, n, kind, spread, xs), d = _mm512_maskz_loadu_epi32(k, dst + i);
        _mm512_mask_storeu_epi32(dst + i, k, over16(s, d, c, cov == 255));
    }
}

// gradient_spans sixteen pixels at a time. A span's last 1–15 pixels, and spans shorter
// than 16 (the edge pixels of a shape's rows), are one more vector step under a mask:
// the lanes past the span compute positions (always valid indices) but neither load
// nor store. Short spans side by side (a thin stroke's crossing of a row: an edge pixel
// or two, a pixel or two inside, edge pixels again) are one run at a coverage a pixel,
// up to 64 pixels: one step for what took a step a span (a 3 px gradient stroke spent a
// quarter of its time in this loop, perf, 2026-12-07).
static inline __attribute__((always_inline)) AVX512 void gradient_spans16(uint32_t *row, const crk_span *spans,
        ptrdiff_t count, const uint32_t *lut, int n, const gradient_row *g, const int kind, const int spread) {
    for (ptrdiff_t j = 0; j < count; j++) {
        ptrdiff_t x = spans[j].x, len = spans[j].length;
        if (len < 16 && j + 1 < count && spans[j + 1].x == x + len) {
            uint8_t cov[64 + 8];
            ptrdiff_t total = 0, k = j;
            while (k < count && spans[k].x == x + total && total + spans[k].length <= 64) {
                // Eight bytes a store, the last one past the span's end (overwritten by
                // the next span; `cov` has 8 bytes of room past 64): a byte loop became a
                // call to memset, 3 % of a thin stroke's frame.
                uint64_t v = 0x0101010101010101ull * spans[k].alpha;
                for (ptrdiff_t t = 0; t < spans[k].length; t += 8) memcpy(cov + total + t, &v, 8);
                total += spans[k].length;
                k++;
            }
            if (k - j >= 2) {
                gradient_covered16(row + x, x, total, cov, lut, n, g, kind, spread);
                j = k - 1;
                continue;
            }
        }
        gradient_span16(row + x, x, len, spans[j].alpha, lut, n, g, kind, spread);
    }
}

// MARK: A grid row swept and composited in one pass (AVX-512)

// The lanes' values moved up by `k` lanes (lane i takes lane i − k), zeros shifted in.
#define CRK_UP(v, k) _mm512_alignr_epi32((v), _mm512_setzero_si512(), 16 - (k))

// grid_alpha on sixteen running sums, in the same double operations (the int32 sum
// converts exactly, 2⁻¹⁷ is a power of two, and the product and the sum are separate
// instructions as in grid_alpha), eight lanes at a time.
static inline AVX512 __m256i grid_alpha8(__m256i sums, __m512d scale) {
    __m512d a = _mm512_mul_pd(_mm512_abs_pd(_mm512_cvtepi32_pd(sums)), _mm512_set1_pd(1.0 / 131072.0));
    a = _mm512_min_pd(a, _mm512_set1_pd(1.0));
    return _mm512_cvttpd_epi32(_mm512_add_pd(_mm512_mul_pd(a, scale), _mm512_set1_pd(0.5)));
}

// grid_alpha on sixteen sums at full opacity (scale exactly 255), in integers: there
// a·255 + 0.5 with a = min(|v|, 131072)·2⁻¹⁷ is exact in double, so its truncation is
// (min(|v|, 131072)·255 + 65536) >> 17. (|INT32_MIN| stays 2³¹ unsigned: clamped too.)
static inline AVX512 __m512i grid_alpha16_full(__m512i sums) {
    __m512i m = _mm512_min_epu32(_mm512_abs_epi32(sums), _mm512_set1_epi32(131072));
    __m512i t = _mm512_add_epi32(_mm512_sub_epi32(_mm512_slli_epi32(m, 8), m), _mm512_set1_epi32(65536));
    return _mm512_srli_epi32(t, 17);
}

// A linear gradient's colours at eight columns `xs`, as shade8 (the same Float steps and
// indices), the table window of sixteen entries one two-table permute (AVX-512VL) and
// its start the smaller of the first and last lanes' indices, as lookup16 takes it.
static inline __attribute__((always_inline)) AVX512 __m256i shade8_linear(const gradient_row *g, const uint32_t *lut,
                                                                         int n, const int spread, __m256 xs) {
    __m256 q = _mm256_add_ps(_mm256_set1_ps(g->q0), _mm256_mul_ps(_mm256_set1_ps(g->a), xs));
    __m256i idx = index8f(q, spread, n);
    int first = _mm256_cvtsi256_si32(idx), last = _mm256_extract_epi32(idx, 7);
    int m = first < last ? first : last, top = n + 2 - 16;
    if (m > top) m = top;
    __m256i rel = _mm256_sub_epi32(idx, _mm256_set1_epi32(m));
    if (_mm256_test_epi32_mask(rel, _mm256_set1_epi32(~15)) == 0)
        return _mm256_permutex2var_epi32(_mm256_loadu_si256((const __m256i *)(lut + m)), rel,
                                         _mm256_loadu_si256((const __m256i *)(lut + m + 8)));
    return _mm256_i32gather_epi32((const int *)lut, idx, 4);
}

// A mask of the first `count` of `width` lanes (all of them when count ≥ width, none
// when count ≤ 0).
static inline unsigned lanes_below(int32_t count, int32_t width) {
    return count >= width ? (1u << width) - 1 : count > 0 ? (1u << count) - 1 : 0;
}

// grid_alpha16_full on eight sums.
static inline AVX512 __m256i grid_alpha8_full(__m256i sums) {
    __m256i m = _mm256_min_epu32(_mm256_abs_epi32(sums), _mm256_set1_epi32(131072));
    __m256i t = _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(m, 8), m), _mm256_set1_epi32(65536));
    return _mm256_srli_epi32(t, 17);
}

// crk_grid_sweep_row and the linear gradient's source-over in one pass: from each touched
// pixel, sixteen cells are loaded and cleared, summed as a running sum (a prefix sum in
// four shifted adds, plus the sum carried from the left), turned into coverage bytes and
// composited at once, a coverage a lane (gradient_covered16's step). Between blocks the
// coverage is constant and goes through the span loop. The coverage of every pixel is
// the sweep's (both are the running sum of the row's cells), and a lane at coverage 0
// is not stored; so the bytes are crk_linear_spans' on the swept spans, and the spans,
// their merging and their expansion back into coverage bytes are gone: for a thin
// gradient stroke they were two thirds of its compositing time.
//
// A pixel whose cell lies just past a block (the right neighbour of the block's last
// lane) holds area carried from that lane without its own bit: when that lane's bit is
// set, the next block starts there (its bit tells, without loading a cold cell).
static inline __attribute__((always_inline)) AVX512 ptrdiff_t grid_row16(crk_grid *g, int32_t row,
        double scale, int32_t clip_right, uint32_t *dst, const uint32_t *lut, int n, const gradient_row *gr,
        const int solid, const uint32_t color, const int spread, const int full, ptrdiff_t ahead, int32_t ahead_rows,
        int32_t *bounds, int32_t *thin) {
    const int32_t words = g->words, ncell = g->width + 1, x0 = (int32_t)g->origin_x;
    // Columns that may be drawn: those with a cell, left of the clip's right side.
    const int32_t lim = clip_right - x0 < ncell ? clip_right - x0 : ncell;
    uint64_t *restrict bits = g->bits + (size_t)row * (size_t)words;
    uint32_t *restrict cells = (uint32_t *)g->cells + (size_t)row * (size_t)ncell;
    const __m512d vscale = _mm512_set1_pd(scale);
    const __m512 lanes = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i zero = _mm512_setzero_si512(), last = _mm512_set1_epi32(15);
    int32_t covered = 0, blocks = 0;   // pixels drawn, blocks loaded: how the row ahead is prefetched, `thin`
    uint32_t sum = 0;
    int32_t pos = 0, lo = INT32_MAX, hi = INT32_MIN, any = 0, carried = 0;
    for (;;) {
        int32_t c = carried && pos < ncell ? pos : next_bit(bits, words, pos);
        if (c < 0) break;
        any = 1;
        if (c > pos && sum != 0) {
            // The stretch since the last block, at the running coverage.
            uint8_t a = grid_alpha((int32_t)sum, scale);
            int32_t e = c < lim ? c : lim;
            if (a != 0 && e > pos) {
                if (solid) solid_run(dst + x0 + pos, e - pos, a, color);
                else gradient_span16(dst + x0 + pos, x0 + pos, e - pos, a, lut, n, gr, crk_linear, spread);
                covered += e - pos;
                if (x0 + pos < lo) lo = x0 + pos;
                if (x0 + e > hi) hi = x0 + e;
            }
        }
        // The bitmap's sixteen bits from c: a crossing whose touched pixels all lie in
        // its first eight (a thin stroke's, most often) takes a block of eight lanes, the
        // same steps on 256-bit registers (AVX-512VL for the masks and the table's
        // window): those issue on three ports instead of two. A 3 px stroke's rows 6–8 %
        // fewer cycles in scripts/raster-replay; rows with wider crossings unchanged.
        // Same bytes: each lane's sum, coverage and colour are the sixteen-lane block's.
        uint64_t ahead_bits = bits[c >> 6] >> (c & 63);
        if ((c & 63) > 48 && (c >> 6) + 1 < words) ahead_bits |= bits[(c >> 6) + 1] << (64 - (c & 63));
        const int32_t width = ahead_bits & 0xFF00 ? 16 : 8, x = x0 + c;
        const unsigned kc = lanes_below(ncell - c, width);
        unsigned k;   // the lanes composited
        if (width == 8) {
            __m256i v8 = _mm256_maskz_loadu_epi32((__mmask8)kc, cells + c);
            _mm256_mask_storeu_epi32(cells + c, (__mmask8)kc, _mm256_setzero_si256());
            v8 = _mm256_add_epi32(v8, _mm256_alignr_epi32(v8, _mm256_setzero_si256(), 7));
            v8 = _mm256_add_epi32(v8, _mm256_alignr_epi32(v8, _mm256_setzero_si256(), 6));
            v8 = _mm256_add_epi32(v8, _mm256_alignr_epi32(v8, _mm256_setzero_si256(), 4));
            v8 = _mm256_add_epi32(v8, _mm256_set1_epi32((int)sum));
            sum = (uint32_t)_mm256_extract_epi32(v8, 7);
            __m256i al8 = full ? grid_alpha8_full(v8) : grid_alpha8(v8, vscale);
            k = lanes_below(lim - c, 8) & _mm256_test_epi32_mask(al8, al8);
            if (k) {
                __m256i cov = _mm256_or_si256(al8, _mm256_slli_epi32(al8, 16));
                __m256i s8 = solid ? _mm256_set1_epi32((int)color)
                                   : shade8_linear(gr, lut, n, spread,
                                                   _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)));
                __m256i d = _mm256_maskz_loadu_epi32((__mmask8)k, dst + x);
                _mm256_mask_storeu_epi32(dst + x, (__mmask8)k, over8(s8, d, cov, 0));
            }
        } else {
            __m512i v = _mm512_maskz_loadu_epi32((__mmask16)kc, cells + c);
            _mm512_mask_storeu_epi32(cells + c, (__mmask16)kc, zero);
            v = _mm512_add_epi32(v, CRK_UP(v, 1));
            v = _mm512_add_epi32(v, CRK_UP(v, 2));
            v = _mm512_add_epi32(v, CRK_UP(v, 4));
            v = _mm512_add_epi32(v, CRK_UP(v, 8));
            v = _mm512_add_epi32(v, _mm512_set1_epi32((int)sum));
            sum = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_permutexvar_epi32(last, v)));
            __m512i al = full ? grid_alpha16_full(v)
                : _mm512_inserti64x4(_mm512_castsi256_si512(grid_alpha8(_mm512_castsi512_si256(v), vscale)),
                                     grid_alpha8(_mm512_extracti64x4_epi64(v, 1), vscale), 1);
            k = lanes_below(lim - c, 16) & _mm512_test_epi32_mask(al, al);
            if (k) {
                __m512i cov = _mm512_or_si512(al, _mm512_slli_epi32(al, 16));
                __m512i s = solid ? _mm512_set1_epi32((int)color)
                                  : shade16(gr, lut, n, crk_linear, spread, _mm512_add_ps(_mm512_set1_ps((float)x), lanes));
                __m512i d = _mm512_maskz_loadu_epi32((__mmask16)k, dst + x);
                _mm512_mask_storeu_epi32(dst + x, (__mmask16)k, over16(s, d, cov, 0));
            }
        }
        if (k) {
            int32_t f = x + __builtin_ctz(k), l = x + 32 - __builtin_clz(k);
            covered += __builtin_popcount(k);
            if (f < lo) lo = f;
            if (l > hi) hi = l;
        }
        pos = c + width;
        blocks++;
        // The block's last lane carries area into the next cell: the next block starts there.
        carried = (int32_t)((ahead_bits >> (width - 1)) & 1);
    }
    if (!any) return 0;
    memset(bits, 0, (size_t)words * sizeof(uint64_t));
    // Right of the last block (or of the last cell, where the block ran past it), to the
    // clip's side: a shape cut there.
    const int32_t tail = x0 + (pos < lim ? pos : lim);
    if (sum != 0 && tail < clip_right) {
        uint8_t a = grid_alpha((int32_t)sum, scale);
        if (a != 0) {
            if (solid) solid_run(dst + tail, clip_right - tail, a, color);
            else gradient_span16(dst + tail, tail, clip_right - tail, a, lut, n, gr, crk_linear, spread);
            covered += clip_right - tail;
            if (tail < lo) lo = tail;
            hi = clip_right;
        }
    }
    if (lo >= hi) return 0;
    bounds[0] = lo; bounds[1] = hi;
    *thin = thin_row(covered, blocks);
    if (ahead && row + ahead_rows <= g->max_row) {
        // The row ahead as crk_grid_fill_row does it for a filled row (the whole extent:
        // its interior is one run, each missing line read before it is written), and
        // only where its pixels are for a thin shape's (a stroke's few crossings).
        if (2 * covered >= hi - lo) prefetch_row(dst + ahead + lo, hi - lo);
        else prefetch_blocks(g, row + ahead_rows, dst + ahead);
    }
    return 1;
}
#undef CRK_UP

static AVX512 ptrdiff_t grid_linear_row_avx512(crk_grid *g, int32_t row, double scale, int32_t clip_right,
                                               uint32_t *dst, const crk_row_paint *p, int32_t *bounds) {
    gradient_row gr = {.q0 = p->q0, .a = p->a};
    int32_t thin;
#define CRK_ROW(spread, full) \
    grid_row16(g, row, scale, clip_right, dst, p->lut, p->n, &gr, 0, 0, spread, full, p->ahead, p->ahead_rows, bounds, \
               &thin)
    if (scale == 255.0) {
        switch (p->spread) {
        case 0: return CRK_ROW(0, 1);
        case 1: return CRK_ROW(1, 1);
        default: return CRK_ROW(2, 1);
        }
    }
    switch (p->spread) {
    case 0: return CRK_ROW(0, 0);
    case 1: return CRK_ROW(1, 0);
    default: return CRK_ROW(2, 0);
    }
#undef CRK_ROW
}

static AVX512 ptrdiff_t grid_solid_row_avx512(crk_grid *g, int32_t row, double scale, int32_t clip_right,
                                              uint32_t *dst, crk_row_paint *p, int32_t *bounds) {
    if (scale == 255.0)
        return grid_row16(g, row, scale, clip_right, dst, NULL, 0, NULL, 1, p->color, 0, 1, p->ahead, p->ahead_rows,
                          bounds, &p->thin);
    return grid_row16(g, row, scale, clip_right, dst, NULL, 0, NULL, 1, p->color, 0, 0, p->ahead, p->ahead_rows, bounds,
                      &p->thin);
}

static AVX512 void gradient_spans_avx512(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut,
                                         int n, int spread, const gradient_row *g, int kind) {
    CRK_GRADIENT_KINDS(gradient_spans16)
}
#undef CRK_GRADIENT_KINDS
#undef CRK_GRADIENT_SPREADS

#endif

// MARK: Entry points. Raster calls them only when crk_wide() is non-zero; without AVX2
// they fall back to the scalar formulas, so a stray call still gives the right bytes.

void crk_over_span(uint32_t *dst, const uint32_t *src, ptrdiff_t len, uint32_t cov) {
#if CRK_X86
    int l = crk_wide();
    if (l >= 2) { over_span_avx512(dst, src, len, cov); return; }
    if (l >= 1) { over_span_avx2(dst, src, len, cov); return; }
#endif
    for (ptrdiff_t i = 0; i < len; i++) dst[i] = over1(cov == 255 ? src[i] : scale_packed(src[i], cov), dst[i]);
}

void crk_solid_span(uint32_t *dst, ptrdiff_t len, uint32_t cov, uint32_t color) {
#if CRK_X86
    int l = crk_wide();
    if (l >= 2) { solid_span_avx512(dst, len, cov, color); return; }
    if (l >= 1) { solid_span_avx2(dst, len, cov, color); return; }
#endif
    uint32_t src = cov == 255 ? color : scale_packed(color, cov);
    for (ptrdiff_t i = 0; i < len; i++) dst[i] = over1(src, dst[i]);
}

// An opaque span is one 32-bit word stored `len` times. Swift's loop for it stores 16
// bytes at a time (x86-64's baseline); glibc's wmemset (wchar_t is 32 bits here) stores
// with the widest registers the CPU has.
_Static_assert(sizeof(wchar_t) == 4, "wmemset must store 32-bit units");
void crk_fill_span(uint32_t *dst, ptrdiff_t len, uint32_t color) {
    if (len > 0) wmemset((wchar_t *)dst, (wchar_t)color, (size_t)len);
}

void crk_mask_solid(uint32_t *dst, const uint8_t *mask, ptrdiff_t len, uint32_t color) {
#if CRK_X86
    if (crk_wide() >= 1) { mask_solid_avx2(dst, mask, len, color); return; }
#endif
    for (ptrdiff_t i = 0; i < len; i++) if (mask[i]) dst[i] = over1(scale_packed(color, mask[i]), dst[i]);
}

// A block's rows, `crk_prefetch_rows` rows before they are composited (pixel.h's
// prefetch_row): a frame's pixels are rarely in cache when a label is drawn on them (the
// clear has just streamed 8 MB through), and a label's rows lie a frame's stride apart,
// so the hardware prefetcher does not see them coming. Measured on 300 labels at 1080p:
// the destination loads were a third of the frame's time (perf annotate). The same
// holds for the rows of any shape: the grid's fills and the radial rows prefetch too.
void crk_prefetch_row(const uint32_t *p, ptrdiff_t len) { prefetch_row(p, len); }

enum { crk_prefetch_rows = 4 };

void crk_mask_solid_rows(uint32_t *dst, ptrdiff_t stride, const uint8_t *mask, ptrdiff_t mask_stride,
                         const int32_t *ranges, ptrdiff_t rows, uint32_t color) {
    for (ptrdiff_t r = 0; r < rows && r < crk_prefetch_rows; r++)
        if (ranges[2 * r] < ranges[2 * r + 1]) prefetch_row(dst + r * stride + ranges[2 * r], ranges[2 * r + 1] - ranges[2 * r]);
    for (ptrdiff_t r = 0; r < rows; r++) {
        ptrdiff_t a = r + crk_prefetch_rows;
        if (a < rows && ranges[2 * a] < ranges[2 * a + 1]) prefetch_row(dst + a * stride + ranges[2 * a], ranges[2 * a + 1] - ranges[2 * a]);
        ptrdiff_t lo = ranges[2 * r], hi = ranges[2 * r + 1];
        if (lo < hi) crk_mask_solid(dst + r * stride + lo, mask + r * mask_stride + lo, hi - lo, color);
    }
}

void crk_over_rows(uint32_t *dst, ptrdiff_t stride, const uint32_t *src, ptrdiff_t src_stride,
                   const int32_t *ranges, ptrdiff_t rows) {
    for (ptrdiff_t r = 0; r < rows && r < crk_prefetch_rows; r++)
        if (ranges[2 * r] < ranges[2 * r + 1]) prefetch_row(dst + r * stride + ranges[2 * r], ranges[2 * r + 1] - ranges[2 * r]);
    for (ptrdiff_t r = 0; r < rows; r++) {
        ptrdiff_t a = r + crk_prefetch_rows;
        if (a < rows && ranges[2 * a] < ranges[2 * a + 1]) prefetch_row(dst + a * stride + ranges[2 * a], ranges[2 * a + 1] - ranges[2 * a]);
        ptrdiff_t lo = ranges[2 * r], hi = ranges[2 * r + 1];
        if (lo < hi) crk_over_span(dst + r * stride + lo, src + r * src_stride + lo, hi - lo, 255);
    }
}

void crk_linear_spans(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut, int n, int spread,
                      float q0, float a) {
    gradient_row g = {.q0 = q0, .a = a};
#if CRK_X86
    int l = crk_wide();
    if (l >= 2) { gradient_spans_avx512(row, spans, count, lut, n, spread, &g, crk_linear); return; }
    if (l >= 1) { gradient_spans_avx2(row, spans, count, lut, n, spread, &g, crk_linear); return; }
#endif
    gradient_spans_scalar(row, spans, count, lut, n, spread, &g, crk_linear);
}

ptrdiff_t crk_grid_linear_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, uint32_t *dst,
                              const crk_row_paint *paint, int32_t *bounds) {
#if CRK_X86
    if (crk_wide() >= 2) return grid_linear_row_avx512(g, row, scale, clip_right, dst, paint, bounds);
#endif
    return -1;
}

ptrdiff_t crk_grid_solid_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, uint32_t *dst,
                             crk_row_paint *paint, int32_t *bounds) {
#if CRK_X86
    if (crk_wide() >= 2) return grid_solid_row_avx512(g, row, scale, clip_right, dst, paint, bounds);
#endif
    return -1;
}

void crk_radial_spans(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut, int n, int spread,
                      float dx0, float dy0, float ux, float uy, float k, float q0) {
    gradient_row g = {.q0 = q0, .dx0 = dx0, .dy0 = dy0, .ux = ux, .uy = uy, .k = k, .dy2 = dy0 * dy0};
#if CRK_X86
    int l = crk_wide(), kind = ux == 1.0f && uy == 0.0f ? crk_radial_unit : crk_radial;
    if (l >= 2) { gradient_spans_avx512(row, spans, count, lut, n, spread, &g, kind); return; }
    if (l >= 1) { gradient_spans_avx2(row, spans, count, lut, n, spread, &g, kind); return; }
#endif
    gradient_spans_scalar(row, spans, count, lut, n, spread, &g, crk_radial);
}
