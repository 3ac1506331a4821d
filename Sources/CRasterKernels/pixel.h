// Packed-pixel arithmetic shared by the C files of CRasterKernels (not part of the
// module's interface): the formulas of Raster's Blend.swift, byte for byte.
#ifndef CRK_PIXEL_H
#define CRK_PIXEL_H

#include <stddef.h>
#include <stdint.h>

#include "crasterkernels.h"

// Every channel of premultiplied `c` times `a` (0…255), divided by 255 with rounding:
// Raster's scalePacked.
static inline uint32_t scale_packed(uint32_t c, uint32_t a) {
    uint32_t rb = (c & 0x00FF00FFu) * a + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((c >> 8) & 0x00FF00FFu) * a + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

// Source-over of premultiplied `s` onto `d`.
static inline uint32_t over1(uint32_t s, uint32_t d) { return s + scale_packed(d, 255u - (s >> 24)); }

// Prefetches the cache lines of `len` pixels at `p` for writing.
static inline void prefetch_row(const uint32_t *p, ptrdiff_t len) {
    for (ptrdiff_t i = 0; i < len; i += 16) __builtin_prefetch(p + i, 1, 3);
    __builtin_prefetch(p + len - 1, 1, 3);
}

// A pixel's coverage byte from its running cell sum `v` (131,072 for a whole pixel; the
// sign is the winding's direction) and `scale` (255 × opacity): the non-zero rule, rounded.
// The product and the sum are separate statements: written as one expression, the
// compiler may fuse them (one rounding instead of two) where this is inlined into a
// function compiled for a CPU with FMA, and those bytes would differ from the sweep's.
static inline uint8_t grid_alpha(int64_t v, double scale) {
    double a = __builtin_fabs((double)v) * (1.0 / 131072.0);
    if (a > 1) a = 1;
    double t = a * scale;
    return (uint8_t)(t + 0.5);
}

// grid_alpha at full opacity (scale exactly 255), in integers: a = min(|v|, 131072)·2⁻¹⁷
// is exact, and so are a·255 (under 2²⁵ units of 2⁻¹⁷) and that plus 0.5, so the
// truncation is (min(|v|, 131072)·255 + 65536) >> 17, byte for byte.
static inline uint8_t grid_alpha_full(int64_t v) {
    uint64_t m = (uint64_t)(v < 0 ? -v : v);
    if (m > 131072) m = 131072;
    return (uint8_t)((m * 255 + 65536) >> 17);
}

// Gradient positions are Floats holding the table position plus one (see Raster's
// `tableIndex(shifted:)`), so that under pad a truncation is the index.
static const float spread_limit_f = 0x1p30f;

static inline int table_index_f(float q, int spread, int n) {
    if (spread == 0) return q > 0 ? (q < (float)(n + 1) ? (int)q : n + 1) : 0;
    float c = q > -spread_limit_f ? (q < spread_limit_f ? q : spread_limit_f) : -spread_limit_f;
    int v = (int)__builtin_floorf(c) - 1;
    if (spread == 1) return (v & (n - 1)) + 1;
    int m = v & (2 * n - 1);
    return (m < n ? m : 2 * n - 1 - m) + 1;
}

// The first set bit of a row's bitmap at or after column `pos`, or -1.
static inline int32_t next_bit(const uint64_t *bits, int32_t words, int32_t pos) {
    int32_t w = pos >> 6;
    if (w >= words) return -1;
    uint64_t b = bits[w] & (~0ull << (pos & 63));
    while (!b) {
        if (++w >= words) return -1;
        b = bits[w];
    }
    return (w << 6) | __builtin_ctzll(b);
}

// Prefetches grid row `row`'s cells and its pixels in `dst` (that row's device row,
// indexed by device column) where its touched pixels are, sixteen columns from each of
// its first eight: its bits say exactly where (both cache lines of a block's sixteen
// cells: with only the first, the cells' load was a sixth of a 3 px gradient stroke's
// one-pass row by perf, and after, 7 %). For a thin shape's row (a stroke's
// crossings a few blocks apart) that is all that will be read or written. Not for a
// fill's rows: its interior is written a cache line at a time, each missing line read
// first, and prefetching only the edges made the dashboard's opaque fills 0.87x as fast
// as prefetching the whole extent (crk_grid_fill_row, 2026-12-07).
static inline void prefetch_blocks(const crk_grid *g, int32_t row, const uint32_t *dst) {
    const int32_t words = g->words;
    const uint64_t *bits = g->bits + (size_t)row * (size_t)words;
    const int32_t *cells = g->cells + (size_t)row * ((size_t)g->width + 1);
    const uint32_t *px = dst + (int32_t)g->origin_x;
    for (int32_t f = next_bit(bits, words, 0), k = 0; f >= 0 && k < 8; f = next_bit(bits, words, f + 16), k++) {
        __builtin_prefetch(cells + f, 1, 3);
        __builtin_prefetch(cells + f + 15, 1, 3);
        __builtin_prefetch(px + f, 1, 3);
        __builtin_prefetch(px + f + 15, 1, 3);
    }
}

// A solid colour's stretch of `len` pixels at coverage `a`: Raster's blitSolidWide (an
// opaque colour at full coverage stored, else source-over through the wide kernel), one
// pixel without the call. The swept spans (fixedcells.c) and the one-pass row's
// stretches between blocks (kernels.c) both draw through it.
static inline void solid_run(uint32_t *p, int32_t len, uint8_t a, uint32_t color) {
    if (a == 255 && color >> 24 == 255) {
        if (len >= 32) crk_fill_span(p, len, color); else for (int32_t i = 0; i < len; i++) p[i] = color;
        return;
    }
    uint32_t s = a == 255 ? color : scale_packed(color, a);
    if (len == 1) { p[0] = over1(s, p[0]); return; }
    crk_solid_span(p, len, a, color);
}

// Whether a row drawn with `pixels` pixels in `runs` runs of touched pixels (crossings)
// was a thin shape's: 3–7 pixels a crossing, a 2–4 px stroke's. The next row of a solid
// colour is then drawn in one pass (crk_grid_fill_row).
static inline int32_t thin_row(int32_t pixels, int32_t runs) { return pixels >= 3 * runs && pixels < 8 * runs; }

// crk_grid_fill_row for a linear gradient (kernels.c), swept and composited in one pass;
// -1 when the CPU's wide level has no such loop (the caller sweeps to spans instead).
ptrdiff_t crk_grid_linear_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, uint32_t *dst,
                              const crk_row_paint *paint, int32_t *bounds);

// The same for a solid colour (`paint->color`).
ptrdiff_t crk_grid_solid_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, uint32_t *dst,
                             crk_row_paint *paint, int32_t *bounds);

#endif
