// The fixed-point cell grid: Raster's scan converter for non-zero shapes of a bounded box
// (see Rasterizer+FixedGrid.swift for when it is used and why).
//
// Vertices are rounded to 1/256 px. An edge is walked row by row and, within a row, column
// by column, in integers; each piece it leaves in a pixel has a height (`cover`, in
// 1/256 px) and that height times the sum of its two ends' offsets from the pixel's left
// side (`area`, in 1/256 · 1/256 px). A pixel's coverage is 512 × (the covers left of it
// + its own cover) − its area, out of 131,072 for a whole pixel. The grid holds one
// 32-bit sum per pixel, over the shape's box with one spare column a row: a piece adds
// 512·cover − area to its pixel and area to the pixel on its right, so that the running
// sum of a row's cells is each pixel's coverage (as font-rs and Blend2D accumulate), and
// sets its pixel's bit in its row's bitmap. Integer sums do not depend on the order the
// pieces arrive in, so there is no list of cells to sort or merge, and every path that
// sums the same pieces gives the same bytes. A row is swept by its bits; between touched
// pixels (and their right neighbours) the running sum is constant. One cell a pixel
// instead of a cover and an area halves the grid (2 MB for a band of 512 K pixels) and
// the cache lines an edge's pieces land on (2026-12-07).
//
// Sums are taken modulo 2³² (unsigned): only a pixel crossed by more than 16,000 edges
// going the same way could wrap, and it then draws wrong coverage, never out of bounds.
// The row loop's gradient start repeats Raster's Double arithmetic operation by operation:
// no contraction into fused multiply-adds here either (see kernels.c).
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)

#include "crasterkernels.h"
#include "pixel.h"

#include <math.h>

#define ONE 256

// scripts/raster-replay builds the kernels with -DCRK_REPLAY_DUMP: every edge walked and
// every row swept is then written to the file $CRK_REPLAY_DUMP (up to
// $CRK_REPLAY_RECORDS records, default 300,000, of eight int32: kind, then for an edge
// x0 y0 x1 y1 width band_top band_rows, for a row the row), for scripts/bench-replay to
// replay and time. Other builds have no trace of it.
#ifdef CRK_REPLAY_DUMP
#include <stdio.h>
#include <stdlib.h>
static void replay_record(int32_t kind, int32_t a, int32_t b, int32_t c, int32_t d, int32_t e, int32_t f, int32_t h) {
    static FILE *out;
    static long left = -1;
    if (left == 0) return;
    if (left < 0) {
        const char *path = getenv("CRK_REPLAY_DUMP"), *limit = getenv("CRK_REPLAY_RECORDS");
        left = limit ? atol(limit) : 300000;
        if (!path || !(out = fopen(path, "wb"))) { left = 0; return; }
    }
    int32_t rec[8] = {kind, a, b, c, d, e, f, h};
    fwrite(rec, sizeof rec, 1, out);
    if (--left == 0) fclose(out);
}
#define REPLAY_RECORD(...) replay_record(__VA_ARGS__)
#else
#define REPLAY_RECORD(...) ((void)0)
#endif

static inline int32_t to_fixed(double v) {
    // Round half away from zero; `v` is within the grid (clamped by the caller).
    return (int32_t)(v >= 0 ? v * ONE + 0.5 : v * ONE - 0.5);
}

// Adds one piece to pixel `col` of a row (`cells`: the row's width + 1 cells, `bits`: its
// bitmap).
static inline __attribute__((always_inline))
void deposit(uint32_t width, uint32_t *restrict cells, uint64_t *restrict bits, int32_t col, int32_t cover, int32_t area) {
    if ((uint32_t)col >= width) return;   // right of the clip (x clamped to its side)
    uint32_t *p = cells + (size_t)col;
    p[0] += ((uint32_t)cover << 9) - (uint32_t)area;
    p[1] += (uint32_t)area;
    bits[(size_t)col >> 6] |= (uint64_t)1 << (col & 63);
}

// ⌊(num + k·step) / den⌋ for k = 0, 1, 2…, num ≥ 0, step ≥ 0, den > 0: one division for
// the first term and one for the step (when `count`, the terms wanted, is 2 or more),
// then a remainder carried from term to term. Each term is the quotient a division of its
// own would give, without a 64-bit divide per row or column (most of a steep edge's row).
typedef struct { int64_t q, r, sq, sr, den; } ddx_step;

static inline __attribute__((always_inline)) ddx_step ddx_begin(int64_t num, int64_t step, int64_t den, int32_t count) {
    ddx_step h;
    h.q = num / den; h.r = num - h.q * den; h.den = den;
    h.sq = 0; h.sr = 0;
    if (count >= 2) { h.sq = step / den; h.sr = step - h.sq * den; }
    return h;
}

static inline __attribute__((always_inline)) void ddx_next(ddx_step *h) {
    h->q += h->sq; h->r += h->sr;
    if (h->r >= h->den) { h->r -= h->den; h->q++; }
}

// The part of an edge inside one row (`cells`, `bits`: the row's), between heights
// fya < fyb (0…256 within the row), at xa and xb (fixed, either may be the left one);
// `sign` is +1 for an edge going down. The grid's fields come in as values: read through
// `g` they were reloaded after every cell store (the cells might alias them), and the
// walk spent a third of its instructions on reloads and spills (cachegrind: 131
// instructions a row piece). This is the general case, a piece across two or more
// column boundaries (xa and xb in different columns); row_piece takes the common ones
// itself and calls this for the rest.
static __attribute__((noinline))
void row_piece_across(uint32_t width, uint32_t *restrict cells, uint64_t *restrict bits, int32_t xa, int32_t fya,
                      int32_t xb, int32_t fyb, int32_t sign) {
    int32_t ca = xa >> 8, cb = xb >> 8;
    int32_t dy = fyb - fya;
    int64_t ddx = (int64_t)xb - xa;
    int32_t x = xa, y = fya;
    if (xa < xb) {
        // Rightwards: each column boundary (c + 1)·256 is met at the height the slope
        // gives, fya + ⌊dy·((c + 1)·256 − xa) / ddx⌋ (all terms ≥ 0), stepped (ddx_step).
        ddx_step h = ddx_begin((int64_t)dy * (((ca + 1) << 8) - xa), (int64_t)dy << 8, ddx, cb - ca);
        for (int32_t c = ca; c < cb; c++) {
            int32_t xn = (c + 1) << 8;
            int32_t yn = fya + (int32_t)h.q;
            int32_t d = yn - y;
            deposit(width, cells, bits, c, sign * d, sign * d * ((x - (c << 8)) + ONE));
            x = xn; y = yn;
            ddx_next(&h);
        }
        int32_t d = fyb - y;
        deposit(width, cells, bits, cb, sign * d, sign * d * (xb - (cb << 8)));
    } else {
        // Leftwards: boundaries c·256, entering column c − 1 at its right side.
        ddx_step h = ddx_begin((int64_t)dy * (xa - (ca << 8)), (int64_t)dy << 8, -ddx, ca - cb);
        for (int32_t c = ca; c > cb; c--) {
            int32_t xn = c << 8;
            int32_t yn = fya + (int32_t)h.q;
            int32_t d = yn - y;
            deposit(width, cells, bits, c, sign * d, sign * d * (x - (c << 8)));
            x = xn; y = yn;
            ddx_next(&h);
        }
        int32_t d = fyb - y;
        deposit(width, cells, bits, cb, sign * d, sign * d * (ONE + (xb - (cb << 8))));
    }
}

// row_piece_across's integers, with its two common cases inline: a piece within one
// column (two thirds of a thin stroke's rows) and a piece across one column boundary
// (most of the rest), whose crossing height is one 32-bit division (dy·(boundary − xa)
// is at most 256·256) instead of ddx_begin's setup and loop. Pieces across two or more
// boundaries (a shallow edge's rows) go to the out-of-line general case, which keeps
// this loop's registers free: the 3 px gradient stroke's walk took 15 % fewer cycles
// (a replay of its edges, 2026-12-07).
static inline __attribute__((always_inline))
void row_piece(uint32_t width, uint32_t *restrict cells, uint64_t *restrict bits, int32_t xa, int32_t fya, int32_t xb,
               int32_t fyb, int32_t sign) {
    int32_t ca = xa >> 8, cb = xb >> 8;
    int32_t dy = fyb - fya;
    if (ca == cb) {
        deposit(width, cells, bits, ca, sign * dy, sign * dy * ((xa - (ca << 8)) + (xb - (cb << 8))));
        return;
    }
    if (ca + 1 == cb) {
        // Rightwards across x = cb·256, met at fya + ⌊dy·(cb·256 − xa) / (xb − xa)⌋.
        int32_t X = cb << 8;
        int32_t d = (int32_t)((uint32_t)(dy * (X - xa)) / (uint32_t)(xb - xa));
        deposit(width, cells, bits, ca, sign * d, sign * d * ((xa - (ca << 8)) + ONE));
        d = dy - d;
        deposit(width, cells, bits, cb, sign * d, sign * d * (xb - X));
        return;
    }
    if (cb + 1 == ca) {
        // Leftwards across x = ca·256.
        int32_t X = ca << 8;
        int32_t d = (int32_t)((uint32_t)(dy * (xa - X)) / (uint32_t)(xa - xb));
        deposit(width, cells, bits, ca, sign * d, sign * d * (xa - X));
        d = dy - d;
        deposit(width, cells, bits, cb, sign * d, sign * d * (ONE + (xb - (cb << 8))));
        return;
    }
    row_piece_across(width, cells, bits, xa, fya, xb, fyb, sign);
}

// A fixed-point edge inside the grid (0 ≤ x ≤ width·256, 0 ≤ y ≤ height·256), walked on
// the rows of the grid's band only (band_top ..< band_top + band_rows; the cells hold
// those rows). Where the band cuts the edge, the walk starts and stops on the row
// boundaries the whole walk would cross, at the x the whole walk computes there (row r
// ends at x0 + ⌊|dx|·((r + 1)·256 − y0) / dy⌋ with dx's sign, whatever row it started
// from): a band deposits exactly the pieces the one-band walk leaves in its rows, so the
// picture does not depend on where the bands fall.
static void fixed_line(crk_grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    REPLAY_RECORD(0, x0, y0, x1, y1, g->width, g->band_top, g->band_rows);
    if (y0 == y1) return;
    int32_t sign = 1;
    if (y0 > y1) {
        int32_t t = x0; x0 = x1; x1 = t;
        t = y0; y0 = y1; y1 = t;
        sign = -1;
    }
    int32_t r0 = y0 >> 8, r1 = (y1 - 1) >> 8;
    const int32_t b0 = g->band_top, b1 = b0 + g->band_rows - 1;
    if (r1 < b0 || r0 > b1) return;
    // Rows walked: s0 ... s1 (grid rows); the first begins at the edge's start unless the
    // band cut it, the last ends at its end unless the band cut it.
    const int32_t s0 = r0 > b0 ? r0 : b0, s1 = r1 < b1 ? r1 : b1;
    if (s0 - b0 < g->min_row) g->min_row = s0 - b0;
    if (s1 - b0 > g->max_row) g->max_row = s1 - b0;
    const uint32_t width = (uint32_t)g->width;
    const size_t stride = (size_t)width + 1, words = (size_t)g->words;
    uint32_t *restrict cells = (uint32_t *)g->cells + (size_t)(s0 - b0) * stride;
    uint64_t *restrict bits = g->bits + (size_t)(s0 - b0) * words;
    if (r0 == r1) {
        row_piece(width, cells, bits, x0, y0 - (r0 << 8), x1, y1 - (r0 << 8), sign);
        return;
    }
    // Heights within the first and the last row walked.
    const int32_t top = s0 == r0 ? y0 - (r0 << 8) : 0;
    const int32_t bottom = s1 == r1 ? y1 - (r1 << 8) : ONE;
    if (x0 == x1) {
        // Vertical: one pixel per row, at one offset; the rows between the ends each add
        // the same whole-row piece.
        int32_t col = x0 >> 8, f2 = 2 * (x0 - (col << 8));
        if ((uint32_t)col >= width) return;
        if (s0 == s1) {
            deposit(width, cells, bits, col, sign * (bottom - top), sign * (bottom - top) * f2);
            return;
        }
        deposit(width, cells, bits, col, sign * (ONE - top), sign * (ONE - top) * f2);
        const uint32_t a = (uint32_t)(sign * ONE * f2), c = ((uint32_t)(sign * ONE) << 9) - a;
        const uint64_t bit = (uint64_t)1 << (col & 63);
        // Rows s0 + 1 ..< s1, less the repeated rows after their first (grid rows, and
        // with one band the band's): crk_grid_fill_rows draws those from the first.
        int32_t k0 = g->repeat_row + 1, k1 = g->repeat_end;
        if (k1 <= k0) k0 = k1 = s1;
        const int32_t e0 = s1 < k0 ? s1 : k0, r1 = s0 + 1 > k1 ? s0 + 1 : k1;
        uint32_t *p = cells + col + stride;
        uint64_t *w = bits + ((size_t)col >> 6) + words;
        for (int32_t r = s0 + 1; r < e0; r++, p += stride, w += words) {
            p[0] += c; p[1] += a; *w |= bit;
        }
        p = cells + col + (size_t)(r1 - s0) * stride;
        w = bits + ((size_t)col >> 6) + (size_t)(r1 - s0) * words;
        for (int32_t r = r1; r < s1; r++, p += stride, w += words) {
            p[0] += c; p[1] += a; *w |= bit;
        }
        deposit(width, cells + (size_t)(s1 - s0) * stride, bits + (size_t)(s1 - s0) * words, col, sign * bottom, sign * bottom * f2);
        return;
    }
    // Row r (below the last) ends at x0 + dx·((r + 1)·256 − y0) / dy, the quotient
    // truncated toward zero: ⌊|dx|·(…) / dy⌋ taken with dx's sign. Rows s0 ..< e are
    // walked to their ends; the last walked row, s1, ends at the edge's end when e = s1.
    int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0;
    int32_t sx = dx < 0 ? -1 : 1;
    int64_t adx = dx < 0 ? -dx : dx;
    const int32_t e = s1 == r1 ? r1 : s1 + 1;
    ddx_step h = ddx_begin(adx * (((s0 + 1) << 8) - y0), adx << 8, dy, e - s0);
    int32_t x = s0 == r0 ? x0 : x0 + sx * (int32_t)((adx * ((int64_t)s0 << 8) - adx * y0) / dy), y = top;
    if (x0 >> 8 == x1 >> 8) {
        // Within one column (every row's ends lie between x0 and x1): each row is one
        // piece there, row_piece's first case, with the column's cell, word and bit fixed.
        // Fewer live values than the general loop, which kept its row pointers on the
        // stack; the 4K line's edges are nearly all like this.
        int32_t col = x0 >> 8, base = col << 8;
        if ((uint32_t)col >= width) return;
        uint32_t *p = cells + col;
        uint64_t *w = bits + ((size_t)col >> 6);
        const uint64_t bit = (uint64_t)1 << (col & 63);
        for (int32_t r = s0; r < e; r++, p += stride, w += words) {
            int32_t xn = x0 + sx * (int32_t)h.q;
            int32_t cover = sign * (ONE - y), area = cover * ((x - base) + (xn - base));
            p[0] += ((uint32_t)cover << 9) - (uint32_t)area;
            p[1] += (uint32_t)area;
            *w |= bit;
            x = xn; y = 0;
            ddx_next(&h);
        }
        if (e > s1) return;
        int32_t cover = sign * (bottom - y), area = cover * ((x - base) + (x1 - base));
        p[0] += ((uint32_t)cover << 9) - (uint32_t)area;
        p[1] += (uint32_t)area;
        *w |= bit;
        return;
    }
    for (int32_t r = s0; r < e; r++, cells += stride, bits += words) {
        int32_t xn = x0 + sx * (int32_t)h.q;
        row_piece(width, cells, bits, x, y, xn, ONE, sign);
        x = xn; y = 0;
        ddx_next(&h);
    }
    if (e > s1) return;
    row_piece(width, cells, bits, x, y, x1, bottom, sign);
}

// The edge between two device points, clipped to the grid's clip: rows outside it are
// dropped, and the parts left or right of it run along its side, where they still carry
// their winding to the pixels on their right (as Raster's `Accumulator.addEdge`).
static void device_edge(crk_grid *g, double ax, double ay, double bx, double by) {
    double top = g->clip_top, bottom = g->clip_bottom;
    // Rows outside the clip, or outside the band the cells hold, first: in a band of a
    // long line nearly every edge is. (An edge at or above the band's top rounds to rows
    // above it, and fixed_line would walk none of it.)
    {
        double btop = g->origin_y + g->band_top, bbottom = btop + g->band_rows;
        double st = fmax(top, btop), sb = fmin(bottom, bbottom);
        if ((ay <= st && by <= st) || (ay >= sb && by >= sb)) return;
    }
    if (!(isfinite(ax) && isfinite(ay) && isfinite(bx) && isfinite(by)) || ay == by) return;
    // Rows: cut at the clip's top and bottom.
    if (ay < top || ay > bottom || by < top || by > bottom) {
        double dxdy = (bx - ax) / (by - ay);
        double lo = fmin(ax, bx), hi = fmax(ax, bx);
        double ya = fmin(fmax(ay, top), bottom), yb = fmin(fmax(by, top), bottom);
        double xa = ya == ay ? ax : ax + (ya - ay) * dxdy;
        double xb = yb == by ? bx : ax + (yb - ay) * dxdy;
        if (!(xa >= lo)) xa = lo; else if (xa > hi) xa = hi;   // NaN or overflow: an end's x
        if (!(xb >= lo)) xb = lo; else if (xb > hi) xb = hi;
        ax = xa; ay = ya; bx = xb; by = yb;
        if (ay == by) return;
    }
    double left = g->clip_left, right = g->clip_right;
    double ox = g->origin_x, oy = g->origin_y;
    double w = (double)g->width, h = (double)g->height;
    // As the path for shapes inside the clip: each coordinate rounded, less the origin.
    int32_t oxf = (int32_t)ox * ONE, oyf = (int32_t)oy * ONE;
#define FX(v) (to_fixed(fmin(fmax((v), ox), ox + w + 1)) - oxf)
#define FY(v) (to_fixed(fmin(fmax((v), oy), oy + h)) - oyf)
    if (fmin(ax, bx) >= left && fmax(ax, bx) <= right) {
        fixed_line(g, FX(ax), FY(ay), FX(bx), FY(by));
        return;
    }
    // Split where the edge crosses the clip's left and right sides.
    double dx = bx - ax;
    double t1 = 2, t2 = 2;
    if (dx != 0) {
        double tl = (left - ax) / dx, tr = (right - ax) / dx;
        if (tl > 0 && tl < 1) t1 = tl;
        if (tr > 0 && tr < 1) t2 = tr;
        if (t2 < t1) { double t = t1; t1 = t2; t2 = t; }
    }
    double ts[3] = { t1, t2, 1.0 };
    double t0 = 0, px = ax, py = ay;
    for (int k = 0; k < 3; k++) {
        double t = ts[k];
        if (!(t <= 1 && t > t0)) continue;
        double qx = t == 1 ? bx : ax + dx * t, qy = t == 1 ? by : ay + (by - ay) * t;
        double cx0 = fmin(fmax(px, left), right), cx1 = fmin(fmax(qx, left), right);
        fixed_line(g, FX(cx0), FY(py), FX(cx1), FY(qy));
        t0 = t; px = qx; py = qy;
    }
#undef FX
#undef FY
}

void crk_grid_polyline(crk_grid *g, const double *xy, ptrdiff_t n) {
    if (n < 2) return;
    if (g->inside) {
        // Every point inside the clip (and so the grid): rounded once each, no clipping.
        int32_t ox = (int32_t)g->origin_x * ONE, oy = (int32_t)g->origin_y * ONE;
        int32_t px = to_fixed(xy[2 * (n - 1)]) - ox, py = to_fixed(xy[2 * (n - 1) + 1]) - oy;
        for (ptrdiff_t i = 0; i < n; i++) {
            int32_t qx = to_fixed(xy[2 * i]) - ox, qy = to_fixed(xy[2 * i + 1]) - oy;
            fixed_line(g, px, py, qx, qy);
            px = qx; py = qy;
        }
        return;
    }
    double px = xy[2 * (n - 1)], py = xy[2 * (n - 1) + 1];
    for (ptrdiff_t i = 0; i < n; i++) {
        double qx = xy[2 * i], qy = xy[2 * i + 1];
        device_edge(g, px, py, qx, qy);
        px = qx; py = qy;
    }
}

// The rows of the edge from (px, py) to (qx, qy) (fixed point, py ≠ qy) that fixed_line
// walks: r0 … r1.
static inline void edge_rows(int32_t px, int32_t py, int32_t qx, int32_t qy, int32_t *r0, int32_t *r1) {
    int32_t y0 = py < qy ? py : qy, y1 = py < qy ? qy : py;
    *r0 = y0 >> 8; *r1 = (y1 - 1) >> 8;
}

void crk_grid_longest_vertical(const crk_grid *g, const double *xy, ptrdiff_t n, int32_t *first, int32_t *last) {
    if (n < 2) return;
    // Edges vertical before rounding (a shape's sides are; one that rounding alone makes
    // vertical is passed over, which only forgoes the shortcut), rounded as
    // crk_grid_polyline rounds a shape inside the clip. Most shapes have none: one pass of
    // comparisons.
    int32_t ox = (int32_t)g->origin_x * ONE, oy = (int32_t)g->origin_y * ONE;
    double px = xy[2 * (n - 1)], py = xy[2 * (n - 1) + 1];
    for (ptrdiff_t i = 0; i < n; i++) {
        double qx = xy[2 * i], qy = xy[2 * i + 1];
        if (px == qx && fabs(qy - py) > (double)(*last - *first + 2)) {
            int32_t fx = to_fixed(qx) - ox, r0, r1;
            edge_rows(fx, to_fixed(py) - oy, fx, to_fixed(qy) - oy, &r0, &r1);
            // The rows strictly between its end rows: whole-row pieces.
            if (r1 - r0 - 1 > *last - *first + 1) { *first = r0 + 1; *last = r1 - 1; }
        }
        px = qx; py = qy;
    }
}

void crk_grid_block_rows(const crk_grid *g, const double *xy, ptrdiff_t n, int32_t first, int32_t last,
                         uint8_t *blocked) {
    if (n < 2) return;
    int32_t ox = (int32_t)g->origin_x * ONE, oy = (int32_t)g->origin_y * ONE;
    int32_t px = to_fixed(xy[2 * (n - 1)]) - ox, py = to_fixed(xy[2 * (n - 1) + 1]) - oy;
    for (ptrdiff_t i = 0; i < n; i++) {
        int32_t qx = to_fixed(xy[2 * i]) - ox, qy = to_fixed(xy[2 * i + 1]) - oy;
        if (py != qy) {
            int32_t r0, r1;
            edge_rows(px, py, qx, qy, &r0, &r1);
            if (px == qx) {
                // A vertical edge blocks its end rows (partial pieces) only.
                if (r0 >= first && r0 <= last) blocked[r0 - first] = 1;
                if (r1 >= first && r1 <= last) blocked[r1 - first] = 1;
            } else if (r1 >= first && r0 <= last) {
                int32_t a = r0 > first ? r0 : first, b = r1 < last ? r1 : last;
                for (int32_t r = a; r <= b; r++) blocked[r - first] = 1;
            }
        }
        px = qx; py = qy;
    }
}

int32_t crk_longest_clear_run(const uint8_t *blocked, int32_t n, int32_t *start) {
    int32_t best = 0, run = 0;
    for (int32_t r = 0; r < n; r++) {
        run = blocked[r] ? 0 : run + 1;
        if (run > best) { best = run; *start = r + 1 - run; }
    }
    return best;
}

void crk_polyline_chunk_bounds(const double *xy, ptrdiff_t n, ptrdiff_t chunk, double *bounds) {
    for (ptrdiff_t i0 = 0, c = 0; i0 < n; i0 += chunk, c++) {
        ptrdiff_t i1 = i0 + chunk < n ? i0 + chunk : n;
        double ylo = INFINITY, yhi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
        for (ptrdiff_t i = i0 - 1; i < i1; i++) {
            const double *p = xy + 2 * (i < 0 ? n - 1 : i);
            if (p[1] < ylo) ylo = p[1];
            if (p[1] > yhi) yhi = p[1];
            if (p[0] < xlo) xlo = p[0];
            if (p[0] > xhi) xhi = p[0];
        }
        bounds[4 * c] = ylo; bounds[4 * c + 1] = yhi; bounds[4 * c + 2] = xlo; bounds[4 * c + 3] = xhi;
    }
}

void crk_grid_polyline_chunked(crk_grid *g, const double *xy, ptrdiff_t n, const double *bounds, ptrdiff_t chunk) {
    if (n < 2) return;
    // The rows the cells hold: the clip's and the band's.
    double btop = g->origin_y + g->band_top, bbottom = btop + g->band_rows;
    double top = fmax(g->clip_top, btop), bottom = fmin(g->clip_bottom, bbottom);
    // Where device_edge clamps nothing: inside the clip and the grid's box. A chunk wholly
    // there takes the rounding of shapes inside the clip (crk_grid_polyline), which is
    // device_edge's without its clamps.
    double left = fmax(g->clip_left, g->origin_x), right = fmin(g->clip_right, g->origin_x + g->width + 1);
    double gtop = fmax(g->clip_top, g->origin_y), gbottom = fmin(g->clip_bottom, g->origin_y + g->height);
    int32_t ox = (int32_t)g->origin_x * ONE, oy = (int32_t)g->origin_y * ONE;
    for (ptrdiff_t i0 = 0, c = 0; i0 < n; i0 += chunk, c++) {
        const double *b = bounds + 4 * c;
        // Every edge of the chunk above the clip's top or below its bottom: device_edge
        // would drop each.
        if (b[1] <= top || b[0] >= bottom) continue;
        ptrdiff_t i1 = i0 + chunk < n ? i0 + chunk : n, p = i0 == 0 ? n - 1 : i0 - 1;
        if (b[0] >= gtop && b[1] <= gbottom && b[2] >= left && b[3] <= right) {
            int32_t px = to_fixed(xy[2 * p]) - ox, py = to_fixed(xy[2 * p + 1]) - oy;
            for (ptrdiff_t i = i0; i < i1; i++) {
                int32_t qx = to_fixed(xy[2 * i]) - ox, qy = to_fixed(xy[2 * i + 1]) - oy;
                fixed_line(g, px, py, qx, qy);
                px = qx; py = qy;
            }
            continue;
        }
        double px = xy[2 * p], py = xy[2 * p + 1];
        for (ptrdiff_t i = i0; i < i1; i++) {
            double qx = xy[2 * i], qy = xy[2 * i + 1];
            device_edge(g, px, py, qx, qy);
            px = qx; py = qy;
        }
    }
}

static inline void emit(crk_span *spans, ptrdiff_t *count, int32_t x, int32_t len, uint8_t a) {
    if (a == 0) return;
    ptrdiff_t n = *count;
    if (n > 0 && spans[n - 1].alpha == a && spans[n - 1].x + spans[n - 1].length == x) {
        spans[n - 1].length += len;
        return;
    }
    spans[n].x = x; spans[n].length = len; spans[n].alpha = a;
    *count = n + 1;
}

// A coverage byte from a running sum: grid_alpha, or at full opacity (`full`, scale
// exactly 255) the same byte in integers (pixel.h: grid_alpha_full).
static inline __attribute__((always_inline)) uint8_t sweep_alpha(uint32_t sum, double scale, const int full) {
    return full ? grid_alpha_full((int32_t)sum) : grid_alpha((int32_t)sum, scale);
}

// The sweep, with `full` a constant in each of its two copies: most fills are opaque,
// and there the coverage byte is three integer operations instead of the double ones.
static inline __attribute__((always_inline)) ptrdiff_t sweep_row(crk_grid *g, int32_t row, double scale,
                                                                 int32_t clip_right, crk_span *spans, const int full) {
    ptrdiff_t count = 0;
    uint32_t sum = 0;   // the running sum: the coverage of the pixels from `next` on
    int32_t x0 = (int32_t)g->origin_x;
    int32_t next = x0;   // first column not yet emitted
    const int32_t words = g->words;   // a local: the cell and span stores might alias *g
    uint64_t *restrict bits = g->bits + (size_t)row * (size_t)words;
    uint32_t *restrict cells = (uint32_t *)g->cells + (size_t)row * ((size_t)g->width + 1);
    for (int32_t w = 0; w < words; w++) {
        uint64_t b = bits[w];
        if (!b) continue;
        bits[w] = 0;
        while (b) {
            int32_t col = (w << 6) | __builtin_ctzll(b);
            b &= b - 1;
            int32_t x = x0 + col;
            if (x > next && sum != 0) emit(spans, &count, next, x - next, sweep_alpha(sum, scale, full));
            sum += cells[col];
            emit(spans, &count, x, 1, sweep_alpha(sum, scale, full));
            // The right neighbour's cell: its own pieces, if its bit is set too (it then
            // adds nothing more), and the areas carried from this pixel.
            sum += cells[col + 1];
            cells[col] = 0; cells[col + 1] = 0;
            next = x + 1;
        }
    }
    if (next < clip_right && sum != 0) emit(spans, &count, next, clip_right - next, sweep_alpha(sum, scale, full));
    return count;
}

ptrdiff_t crk_grid_sweep_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, crk_span *spans) {
    REPLAY_RECORD(2, row, 0, 0, 0, 0, 0, 0);
    return scale == 255.0 ? sweep_row(g, row, scale, clip_right, spans, 1) : sweep_row(g, row, scale, clip_right, spans, 0);
}

// A row's spans composited in `paint` (crk_grid_fill_row's way with spans): 1 and the
// touched columns in `bounds`, or 0 when there are none.
static inline __attribute__((always_inline))
ptrdiff_t composite_spans(uint32_t *dst, crk_row_paint *paint, const crk_span *spans, ptrdiff_t count, int32_t *bounds) {
    if (count == 0) return 0;
    bounds[0] = spans[0].x;
    bounds[1] = spans[count - 1].x + spans[count - 1].length;
    if (paint->ahead) prefetch_row(dst + paint->ahead + bounds[0], bounds[1] - bounds[0]);
    if (paint->kind == 1) {
        crk_linear_spans(dst, spans, count, paint->lut, paint->n, paint->spread, paint->q0, paint->a);
        return 1;
    }
    int32_t pixels = 0, runs = 0, end = INT32_MIN;
    for (ptrdiff_t k = 0; k < count; k++) {
        solid_run(dst + spans[k].x, spans[k].length, spans[k].alpha, paint->color);
        pixels += spans[k].length;
        runs += spans[k].x != end;
        end = spans[k].x + spans[k].length;
    }
    paint->thin = thin_row(pixels, runs);
    return 1;
}

ptrdiff_t crk_grid_fill_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, uint32_t *dst,
                            crk_row_paint *paint, crk_span *spans, int32_t *bounds) {
    REPLAY_RECORD(1, row, 0, 0, 0, 0, 0, 0);
    if (paint->kind == 1) {
        // A linear gradient: swept and composited in one pass where the CPU has AVX-512.
        ptrdiff_t r = crk_grid_linear_row(g, row, scale, clip_right, dst, paint, bounds);
        if (r >= 0) return r;
    } else if (paint->thin) {
        // A solid colour on a thin shape's row (the row above had 3–7 pixels a run of
        // touched pixels: a 2–4 px stroke's crossings) in one pass too, which costs a
        // 16-lane block a crossing: there it is cheaper than sweeping each pixel to a span
        // (the dashboard's 2 px donut outlines 1.11×, 31 interleaved rounds). A fill's
        // rows are long runs between two edge pixels and a 1 px line's crossings are one
        // or two pixels, where the block costs more than the pixels it saves (a fill's
        // rows 0.80× when every solid row took it), so those stay on the sweep.
        ptrdiff_t r = crk_grid_solid_row(g, row, scale, clip_right, dst, paint, bounds);
        if (r >= 0) return r;
    }
    return composite_spans(dst, paint, spans, crk_grid_sweep_row(g, row, scale, clip_right, spans), bounds);
}

void crk_grid_fill_rows(crk_grid *g, int32_t top, double scale, int32_t clip_right, uint32_t *pixels, ptrdiff_t stride,
                        crk_row_paint *paint, const crk_row_gradient *gradient, crk_span *spans, ptrdiff_t *dirty) {
    const int32_t ahead = paint->ahead_rows, first = g->min_row, last = g->max_row;
    // Repeated rows (grid rows, one band): the first is swept, the rest take its spans.
    const int32_t rep = g->repeat_end > g->repeat_row + 1 ? g->repeat_row - g->band_top : INT32_MIN;
    const int32_t rep_end = g->repeat_end - g->band_top;
    ptrdiff_t rep_count = 0;
    int32_t bounds[2];
    for (int32_t r = first; r <= last; r++) {
        const ptrdiff_t y = (ptrdiff_t)top + r;
        paint->ahead = r + ahead <= last ? (ptrdiff_t)ahead * stride : 0;
        if (gradient) {
            // linearRowStart's operations one at a time, in its order (no fused
            // multiply-add on any target: the row's start would move by an ulp).
            double t = (double)y + 0.5;
            t = gradient->lb * t;
            t = t + gradient->lc;
            double q = gradient->la * 0.5;
            q = q + t;
            q = q + 1;
            paint->q0 = (float)q;
            if (gradient->vertical) paint->color = paint->lut[table_index_f(paint->q0, paint->spread, paint->n)];
        }
        ptrdiff_t drawn;
        if (r >= rep && r < rep_end) {
            // The run's first row is swept to spans (not in one pass: they are kept for the
            // rows below).
            if (r == rep) rep_count = crk_grid_sweep_row(g, r, scale, clip_right, spans);
            drawn = composite_spans(pixels + y * stride, paint, spans, rep_count, bounds);
        } else {
            drawn = crk_grid_fill_row(g, r, scale, clip_right, pixels + y * stride, paint, spans, bounds);
        }
        if (drawn == 0) continue;
        if (y < dirty[1]) dirty[1] = y;
        if (y > dirty[3]) dirty[3] = y;
        if (bounds[0] < dirty[0]) dirty[0] = bounds[0];
        if (bounds[1] > dirty[2]) dirty[2] = bounds[1];
    }
}
