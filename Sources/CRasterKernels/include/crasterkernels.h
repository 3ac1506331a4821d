// Wide span kernels for Raster, chosen at run time (see kernels.c and the Raster module
// notes in Canvas.swift).
//
// Each kernel computes exactly the bytes of its scalar reference in Raster (Blit.swift,
// Shader.swift): the same integer arithmetic per channel and the same Double operations
// in the same order (no fused multiply-add), only more pixels at a time. They are called
// only when `crk_wide()` is non-zero, which needs a CPU with AVX2 (cpuid, and the OS
// saving the YMM registers) and no `CHARTREEL_SIMD=off` in the environment.
#ifndef CRASTERKERNELS_H
#define CRASTERKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// The kernel set in use: 0 the scalar Swift reference, 1 AVX2, 2 AVX-512. Decided once,
/// from the CPU and `CHARTREEL_SIMD` (`off` forces 0, `avx2` at most 1).
int crk_wide(void);
/// What the CPU supports (0, 1 or 2), whatever the environment says.
int crk_cpu_level(void);
/// The level for a `CHARTREEL_SIMD` value (NULL when unset) on a CPU of level `cpu`:
/// "off", "0" and "scalar" give 0, "avx2" at most 1, anything else `cpu`.
int crk_choose_level(const char *simd, int cpu);
/// Forgets the decision: the next `crk_wide()` reads the CPU and the environment again.
void crk_reset_wide(void);
/// Forces the level (clamped to what the CPU supports); for tests that run both paths.
void crk_set_wide(int level);

/// Source-over of `len` premultiplied pixels `src`, scaled by `cov` (0…255), onto `dst`:
/// Raster's `overSpan`.
void crk_over_span(uint32_t *dst, const uint32_t *src, ptrdiff_t len, uint32_t cov);

/// Source-over of one premultiplied colour at coverage `cov` onto `len` pixels:
/// Raster's `blitSolid`.
void crk_solid_span(uint32_t *dst, ptrdiff_t len, uint32_t cov, uint32_t color);

/// `len` pixels set to `color`: Raster's opaque span (`blitSolid` at full coverage of an
/// opaque colour), through libc's `wmemset`, whose wide variants glibc picks for the CPU.
void crk_fill_span(uint32_t *dst, ptrdiff_t len, uint32_t color);

/// Source-over of one premultiplied colour through `len` coverage bytes: pixel i takes
/// the colour scaled by `mask[i]` (0…255) over `dst[i]`: Raster's `maskSolidSpan`.
void crk_mask_solid(uint32_t *dst, const uint8_t *mask, ptrdiff_t len, uint32_t color);

/// `crk_mask_solid` on each row r < `rows` of a block: columns ranges[2r] ..< ranges[2r+1]
/// of `dst + r·stride` through the same columns of `mask + r·mask_stride`, with the
/// destination rows prefetched a few rows ahead.
void crk_mask_solid_rows(uint32_t *dst, ptrdiff_t stride, const uint8_t *mask, ptrdiff_t mask_stride,
                         const int32_t *ranges, ptrdiff_t rows, uint32_t color);

/// Prefetches (for writing) the `len` pixels at `p`: a row the caller will composite soon.
void crk_prefetch_row(const uint32_t *p, ptrdiff_t len);

/// `crk_over_span` at full coverage on each row of a block, as `crk_mask_solid_rows`.
void crk_over_rows(uint32_t *dst, ptrdiff_t stride, const uint32_t *src, ptrdiff_t src_stride,
                   const int32_t *ranges, ptrdiff_t rows);

/// BT.709 limited-range yuv420p planes of `width`×`height` pixels `src` (R, G, B and an
/// ignored byte, little-endian words, rows packed): luma into `y` (`width`·`height`
/// bytes), chroma into `u` and `v` (`(width+1)/2`·`(height+1)/2` bytes each), each
/// chroma sample weighing its block's two rows and columns 2i−1, 2i, 2i+1 by 1, 2, 1
/// (H.264's default left siting), clamped at the edges. Raster's `yuv420pReference`
/// (Pixmap+YUV.swift), byte for byte; AVX-512 or AVX2 as `crk_wide()` allows, else scalar C.
void crk_yuv420p(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *y, uint8_t *u, uint8_t *v);

/// `crk_yuv420p` of a frame whose pixels are all `background` (opaque) except in known
/// places: row pair j converts chroma samples parts[2k] ..< parts[2k + 1] for k from
/// row_parts[2j] to row_parts[2j + 1] (ascending, disjoint, within the row's ⌈width/2⌉
/// samples), with the luma of the columns they are sited on (2·i0 ..< 2·i1), and writes
/// the background's samples everywhere else without reading the pixels there. The bytes
/// equal `crk_yuv420p`'s whenever every pixel that an unconverted sample depends on
/// (columns 2i − 1 … 2i + 1 of the pair's rows) is `background`.
void crk_yuv420p_parts(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *y, uint8_t *u, uint8_t *v,
                       const int32_t *parts, const int32_t *row_parts, uint32_t background);

/// Checks the AVX-512 conversion's multiply-add constants against the exact divisions on
/// every value their inputs can take (yuv.c): 0 when all agree, else 1 (luma), 2 (Cb) or
/// 3 (Cr). Always 0 where there is no x86 path.
int crk_yuv_check_constants(void);

/// Asks Linux to back the 2 MB-aligned part of `n` bytes at `p` with transparent huge
/// pages (`madvise(MADV_HUGEPAGE)`; Debian's default THP mode honours only such advice).
/// Pages already touched stay as they are, so call it before the first write. A frame
/// then takes one page fault per 2 MB instead of per 4 KB, and its rows one TLB entry per
/// 2 MB. Not a kernel: no effect on any byte; a no-op elsewhere and where refused.
void crk_advise_huge(void *p, size_t n);

/// One span of a row: `length` pixels from column `x` at coverage `alpha`; Raster's `Span`.
typedef struct {
    int32_t x;
    int32_t length;
    uint8_t alpha;
} crk_span;

/// Source-over of a linear gradient on a row's spans: pixel x takes
/// `lut[tableIndex(shifted: q0 + a·x)]`, in Float (spread 0 pad, 1 repeat, 2 reflect;
/// `n` the table's power-of-two size; `q0` the table position plus one at the row's
/// start), scaled by its span's alpha: Raster's `blitLinear` on each span.
void crk_linear_spans(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut, int n, int spread,
                      float q0, float a);

/// Source-over of a concentric radial gradient on a row's spans: pixel x takes
/// `lut[tableIndex(shifted: sqrt(dx·dx + dy·dy)·k + q0)]` with dx = dx0 + ux·x,
/// dy = dy0 + uy·x, all in Float, scaled by its span's alpha: Raster's
/// `shadeConcentric` followed by `overSpan` on each span.
void crk_radial_spans(uint32_t *row, const crk_span *spans, ptrdiff_t count, const uint32_t *lut, int n, int spread,
                      float dx0, float dy0, float ux, float uy, float k, float q0);

/// A dense grid of fixed-point cells over a shape's box (fixedcells.c): per pixel one
/// 32-bit sum whose running sum along the row is the coverage (`cells`, row-major,
/// `width` + 1 cells a row) and a bit per pixel (`bits`, `words` 64-bit words per row);
/// all zero between shapes. The box is `width` × `height` pixels; the cells and bits hold
/// the rows of one band of it, `band_top ..< band_top + band_rows` (their row 0 is the
/// box's row `band_top`), and edges deposit only there.
/// `origin_x`, `origin_y` are the box's top-left device pixel; the clip bounds (device
/// pixels) cut the edges; `min_row`, `max_row` are the band's rows touched so far.
/// `inside` (non-zero) promises every point lies inside the clip: no edge is cut.
/// `repeat_row` ..< `repeat_end` (grid rows, empty when equal), when not empty, are rows
/// that only vertical edges cross, each from top to bottom (`crk_grid_block_rows`), so
/// their cells are all alike: vertical edges deposit in the first of them only, and
/// `crk_grid_fill_rows` composites that row's spans on all of them.
typedef struct {
    int32_t *cells;
    uint64_t *bits;
    int32_t width, height, words;
    int32_t min_row, max_row;
    int32_t inside;
    double origin_x, origin_y;
    double clip_left, clip_top, clip_right, clip_bottom;
    int32_t band_top, band_rows;
    int32_t repeat_row, repeat_end;
} crk_grid;

/// The longest run of grid rows a vertical edge of the closed polygon of `n` points
/// (`xy`, device pixels, every point inside the grid's box; one x after rounding to
/// 1/256 px) crosses from top to bottom, its end rows left out: replaces `*first` …
/// `*last` when longer.
void crk_grid_longest_vertical(const crk_grid *g, const double *xy, ptrdiff_t n, int32_t *first, int32_t *last);

/// Marks in `blocked` (one byte a row from `first` to `last`) the rows of that run that an
/// edge of the polygon does not cross at one x from top to bottom: every row a
/// non-vertical edge touches, and a vertical edge's end rows. Between marked rows, every
/// row's cells are alike.
void crk_grid_block_rows(const crk_grid *g, const double *xy, ptrdiff_t n, int32_t first, int32_t last,
                         uint8_t *blocked);

/// The longest run of zero bytes in `blocked[0 ..< n]`: its length, its start in `*start`.
int32_t crk_longest_clear_run(const uint8_t *blocked, int32_t n, int32_t *start);

/// Adds the closed polygon of `n` points (`xy`: x, y pairs, device pixels) to the grid.
void crk_grid_polyline(crk_grid *g, const double *xy, ptrdiff_t n);

/// Sweeps row `row` of the grid (non-zero rule) into `spans`, clearing it, and returns how
/// many it wrote (at most width + 1). `scale` is 255 × opacity; the last span may run to
/// `clip_right` (device column).
ptrdiff_t crk_grid_sweep_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, crk_span *spans);

/// The extent of each chunk of a closed polyline's edges, for `crk_grid_polyline_chunked`:
/// chunk c holds the edges ending at points c·chunk ..< min(n, (c + 1)·chunk) (edge i
/// runs from point i − 1, the last point for i = 0), and `bounds[4c ..< 4c + 4]` take the
/// least and greatest y, then x, of their ends (NaN ignored: such an edge draws
/// nothing). `bounds` holds 4·⌈n/chunk⌉ Doubles.
void crk_polyline_chunk_bounds(const double *xy, ptrdiff_t n, ptrdiff_t chunk, double *bounds);

/// `crk_grid_polyline` skipping the chunks (`crk_polyline_chunk_bounds`) that lie wholly
/// above or below the rows of the clip and of the grid's band, and rounding the points of a chunk wholly inside
/// the clip and the grid without clipping its edges: the same cells. A shape drawn in
/// bands walks every edge once per band; a long line's chunks fall in one band or two.
void crk_grid_polyline_chunked(crk_grid *g, const double *xy, ptrdiff_t n, const double *bounds, ptrdiff_t chunk);

/// What `crk_grid_fill_row` composites: `kind` 0, the premultiplied solid `color`;
/// `kind` 1, a linear gradient on this row (`crk_linear_spans`' arguments). `ahead`: the
/// distance in pixels from this row to a row that will be drawn soon (0: none); its
/// pixels under this row's columns are prefetched, since rows a stride apart are not
/// streams the hardware prefetcher follows.
typedef struct {
    int32_t kind;
    uint32_t color;
    const uint32_t *lut;
    int32_t n, spread;
    float q0, a;
    ptrdiff_t ahead;        // pixels from this row to the row `ahead_rows` below, 0: none
    int32_t ahead_rows;
    int32_t thin;           // set by crk_grid_fill_row: the row drawn was a thin shape's (0 to start)
} crk_row_paint;

/// `crk_grid_sweep_row` into `spans` (room for the grid's width + 2), composited straight
/// onto `dst` (the device row, indexed by device column), source-over: each span's pixels
/// get the bytes Raster's `blitSolidWide` (solid) or `crk_linear_spans` (linear) gives
/// them, without the spans going back to Swift. Returns 1 and the touched columns
/// [bounds[0], bounds[1]) when any pixel had coverage, else 0 (bounds untouched). With
/// AVX-512, a linear gradient's rows, and a solid colour's where `paint->thin` says the
/// row above was a thin shape's, are swept and composited in one pass (same bytes);
/// `paint->thin` is updated for the next row.
ptrdiff_t crk_grid_fill_row(crk_grid *g, int32_t row, double scale, int32_t clip_right, uint32_t *dst,
                            crk_row_paint *paint, crk_span *spans, int32_t *bounds);

/// A linear gradient's rows for `crk_grid_fill_rows`: row y starts at table position
/// q0 = (float)(la·0.5 + (lb·(y + 0.5) + lc) + 1), Raster's `Shader.Params.linearRowStart`
/// (la, lb, lc its a, b, c), in the same double operations. `vertical` (a == 0): each
/// row is one colour, `lut[tableIndex(shifted: q0)]`, drawn as a solid (`kind` 0).
typedef struct {
    double la, lb, lc;
    int32_t vertical;
} crk_row_gradient;

/// `crk_grid_fill_row` on each of the grid's touched rows (min_row … max_row): grid row r
/// is device row top + r of `pixels` (`stride` pixels a row); the row `paint->ahead_rows`
/// below is prefetched while there is one, a gradient's rows (when `gradient` is not
/// NULL) get their start and, when vertical, their colour, and the drawn box grows into
/// `dirty` (x0, y0, x1, y1: columns x0 ..< x1, rows y0 ... y1). Raster's row loop of
/// grid fills, in C: in Swift it was 3.5 % of the dashboard's frame (perf).
void crk_grid_fill_rows(crk_grid *g, int32_t top, double scale, int32_t clip_right, uint32_t *pixels, ptrdiff_t stride,
                        crk_row_paint *paint, const crk_row_gradient *gradient, crk_span *spans, ptrdiff_t *dirty);

#endif
