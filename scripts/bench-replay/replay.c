// Replays a record of the fixed-point grid's work (scripts/raster-replay): every edge
// `fixed_line` walked and every row swept, as a build with CRK_REPLAY_DUMP wrote them
// while drawing a draw list, and times the two halves on their own with the TSC.
//
//   replay FILE [--passes N] [--cold]
//
// Prints, each the fastest of N passes (default 30):
//   walk   cycles an edge of fixed_line (the rows swept after each shape, untimed);
//   solid  cycles a row of crk_grid_fill_row with an opaque solid colour;
//   linear cycles a row of crk_grid_fill_row with a linear gradient;
// and a hash of every shape's cells, bits and touched rows, and of the canvas after each
// kind of row: two builds of the kernels that walk and composite alike print the same
// hashes. --cold clears a 2048 × 1200 canvas (the 1080p frame's clear) before every
// 11th shape, as a frame's clear leaves the pixels out of the cache.
//
// The kernels are this program's own copy: it includes fixedcells.c and links
// kernels.c and memory.c of the tree it is compiled against, so two trees (a change and
// the revision before) compile two replays and the script alternates them.
#include "fixedcells.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

typedef struct { int32_t kind, a, b, c, d, e, f, h; } record;

enum { W = 2048, H = 1200 };

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

// The paint of a shape's rows: an opaque blue (mode 1) or a linear gradient over a
// 256-entry table (mode 2). Field by field, the rest zero, so that a revision whose
// crk_row_paint has fewer fields compiles too.
static crk_row_paint fresh_paint(int mode, const uint32_t *lut) {
    crk_row_paint paint;
    memset(&paint, 0, sizeof paint);
    paint.kind = mode == 2; paint.color = 0xff2040c0u; paint.lut = lut; paint.n = 256; paint.q0 = 1; paint.a = 0.3f;
    paint.ahead_rows = 2;
    return paint;
}

// One pass over the records. mode 0: walk timed; 1, 2: rows timed with a solid colour or
// a linear gradient. Returns the timed cycles; *hash takes the cells (mode 0) after
// each shape's walk.
static unsigned long long pass(const record *r, long n, int mode, int cold, int32_t *cells, uint64_t *bits,
                               uint32_t *canvas, crk_span *spans, uint64_t *hash, long *count) {
    static uint32_t lut[258];
    if (!lut[0]) for (int i = 0; i < 258; i++) {
        uint32_t t = i > 255 ? 255 : (uint32_t)i;
        lut[i] = 0xff000000u | t << 16 | (255 - t) << 8 | 0x80;
    }
    crk_grid g = {0};
    g.cells = cells; g.bits = bits;
    crk_row_paint paint = fresh_paint(mode, lut);
    int32_t bounds[2];
    unsigned long long total = 0, t0 = 0;
    long shapes = 0;
    int walking = 0;
    *count = 0;
    for (long i = 0; i < n; i++) {
        const record *q = r + i;
        if (q->kind == 0) {
            if (!walking) {
                walking = 1;
                if (cold && shapes % 11 == 0) memset(canvas, 0xff, (size_t)W * H * 4);
                shapes++;
                g.width = q->e; g.words = (q->e + 63) >> 6; g.band_top = q->f; g.band_rows = q->h;
                g.height = 1 << 20; g.min_row = INT32_MAX; g.max_row = -1;
                paint = fresh_paint(mode, lut);   // as Raster makes one a shape
                t0 = __rdtsc();
            }
            fixed_line(&g, q->a, q->b, q->c, q->d);
            if (mode == 0) (*count)++;
            continue;
        }
        // A row: kind 1 (crk_grid_fill_row) or 2 (crk_grid_sweep_row, unless it is the
        // sweep inside the fill of the row just recorded).
        if (q->kind == 2 && i > 0 && r[i - 1].kind == 1 && r[i - 1].a == q->a) continue;
        if (walking) {
            walking = 0;
            if (mode == 0) {
                total += __rdtsc() - t0;
                if (hash && g.min_row <= g.max_row) {
                    size_t rows = (size_t)(g.max_row - g.min_row + 1);
                    *hash = fnv(*hash, &g.min_row, sizeof g.min_row);
                    *hash = fnv(*hash, &g.max_row, sizeof g.max_row);
                    *hash = fnv(*hash, cells + (size_t)g.min_row * (g.width + 1), rows * (g.width + 1) * 4);
                    *hash = fnv(*hash, bits + (size_t)g.min_row * g.words, rows * g.words * 8);
                }
            }
        }
        int32_t row = q->a;
        if (row < 0 || row >= g.band_rows) continue;
        if (mode == 0) {
            crk_grid_sweep_row(&g, row, 255.0, g.width, spans);
            continue;
        }
        uint32_t *dst = canvas + (size_t)((row + g.band_top) % (H - 4)) * W;
        paint.ahead = row + 2 <= g.max_row ? 2 * W : 0;
        paint.q0 = 1 + 0.01f * (float)row;
        unsigned long long u = __rdtsc();
        crk_grid_fill_row(&g, row, 255.0, g.width < W ? g.width : W, dst, &paint, spans, bounds);
        total += __rdtsc() - u;
        (*count)++;
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: replay FILE [--passes N] [--cold]\n"); return 2; }
    int passes = 30, cold = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--passes") && i + 1 < argc) passes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cold")) cold = 1;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f) / (long)sizeof(record);
    fseek(f, 0, SEEK_SET);
    record *r = malloc((size_t)n * sizeof(record));
    if (!r || fread(r, sizeof(record), (size_t)n, f) != (size_t)n) { fprintf(stderr, "replay: cannot read %s\n", argv[1]); return 1; }
    fclose(f);
    // A record cut off by the dump's limit ends in the middle of a shape: drop the edges
    // after the last row (a shape's rows whose records were cut off are cleared below).
    while (n > 0 && r[n - 1].kind == 0) n--;
    int32_t maxw = 0, maxrows = 0;
    for (long i = 0; i < n; i++) if (r[i].kind == 0) {
        if (r[i].e > maxw) maxw = r[i].e;
        if (r[i].h > maxrows) maxrows = r[i].h;
    }
    size_t ncells = (size_t)(maxw + 1) * (size_t)maxrows + 64, nwords = (size_t)((maxw + 63) / 64) * (size_t)maxrows + 8;
    int32_t *cells = calloc(ncells, 4);
    uint64_t *bits = calloc(nwords, 8);
    uint32_t *canvas = malloc((size_t)W * H * 4);
    crk_span *spans = malloc(sizeof(crk_span) * (size_t)(maxw + 2 > W + 2 ? maxw + 2 : W + 2));
    if (!cells || !bits || !canvas || !spans) { fprintf(stderr, "replay: out of memory\n"); return 1; }
    const char *names[3] = {"walk", "solid", "linear"}, *units[3] = {"edge", "row", "row"};
    uint64_t hashes[3];
    for (int mode = 0; mode < 3; mode++) {
        memset(canvas, 0xff, (size_t)W * H * 4);
        uint64_t h = 0xcbf29ce484222325ull;
        long count = 0;
        unsigned long long best = ~0ull;
        for (int p = 0; p < passes; p++) {
            memset(cells, 0, ncells * 4);
            memset(bits, 0, nwords * 8);
            unsigned long long t = pass(r, n, mode, cold, cells, bits, canvas, spans, p == 0 && mode == 0 ? &h : NULL, &count);
            if (t < best) best = t;
            if (p == 0 && mode > 0) h = fnv(h, canvas, (size_t)W * H * 4);
        }
        hashes[mode] = h;
        printf("%-6s %8ld %ss  %7.1f cycles %s %s (fastest of %d passes)\n", names[mode], count, units[mode],
               count ? (double)best / (double)count : 0.0, mode == 0 ? "an" : "a", units[mode], passes);
    }
    printf("hash   cells %016llx  solid %016llx  linear %016llx\n", (unsigned long long)hashes[0],
           (unsigned long long)hashes[1], (unsigned long long)hashes[2]);
    return 0;
}
