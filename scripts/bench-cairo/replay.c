/*
 * Cairo's side of the raster suite in scripts/bench: draws a ChartReel draw list
 * (written by `chartreel-rasterbench export`, format described in
 * Benchmarks/RasterBench/DrawList.swift) on a Cairo ARGB32 image surface, one thread.
 *
 *   replay LIST.txt [SECONDS] [OUT.png]
 *
 * The list is parsed into memory first; the timed loop clears the surface to the
 * background and draws each frame's operations, pass after pass, until SECONDS have
 * passed (at least one pass). Prints "fps F frames N seconds S threads 1", like the
 * Swift side. Cairo's defaults are kept: antialias DEFAULT, tolerance 0.1.
 *
 * Build: cc -O2 replay.c $(pkg-config --cflags --libs cairo) -lm
 */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OP_TRANSFORM, OP_FILL, OP_STROKE, OP_LAYER, OP_ENDLAYER };
enum { PAINT_SOLID, PAINT_LINEAR, PAINT_RADIAL };

typedef struct { char kind; double v[6]; } Element;

typedef struct {
    int op;
    double m[6];                       /* transform */
    int evenodd;                       /* fill */
    double width, miter, opacity, phase;
    int cap, join, ndash;
    double *dash;
    cairo_pattern_t *paint;
    Element *path;
    int npath;
} Op;

typedef struct { Op *ops; int count, cap; } Frame;

static Frame *frames;
static int nframes, capframes, width, height;
static double bg[4];

static void die(const char *msg) { fprintf(stderr, "replay: %s\n", msg); exit(2); }

static char *line, *cursor;
static size_t linecap;
static FILE *in;

static int next_line(void) {
    if (getline(&line, &linecap, in) < 0) return 0;
    cursor = line;
    return 1;
}
static char *word(void) {
    while (*cursor == ' ') cursor++;
    char *w = cursor;
    while (*cursor && *cursor != ' ' && *cursor != '\n') cursor++;
    if (*cursor) *cursor++ = 0;
    return w;
}
static double num(void) {
    char *w = word(), *end;
    double v = strtod(w, &end);
    if (end == w) die("bad number");
    return v;
}

static cairo_extend_t spread(const char *s) {
    if (!strcmp(s, "repeat")) return CAIRO_EXTEND_REPEAT;
    if (!strcmp(s, "reflect")) return CAIRO_EXTEND_REFLECT;
    return CAIRO_EXTEND_PAD;
}

static cairo_pattern_t *parse_paint(void) {
    if (!next_line() || strcmp(word(), "paint")) die("expected paint");
    const char *kind = word();
    cairo_pattern_t *p;
    int stops = 0;
    if (!strcmp(kind, "solid")) {
        double r = num(), g = num(), b = num(), a = num();
        return cairo_pattern_create_rgba(r, g, b, a);
    } else if (!strcmp(kind, "linear")) {
        double x0 = num(), y0 = num(), x1 = num(), y1 = num();
        p = cairo_pattern_create_linear(x0, y0, x1, y1);
    } else if (!strcmp(kind, "radial")) {
        double x0 = num(), y0 = num(), r0 = num(), x1 = num(), y1 = num(), r1 = num();
        p = cairo_pattern_create_radial(x0, y0, r0, x1, y1, r1);
    } else {
        die("unknown paint");
    }
    cairo_pattern_set_extend(p, spread(word()));
    stops = (int)num();
    for (int i = 0; i < stops; i++) {
        if (!next_line() || strcmp(word(), "stop")) die("expected stop");
        double o = num(), r = num(), g = num(), b = num(), a = num();
        cairo_pattern_add_color_stop_rgba(p, o, r, g, b, a);
    }
    return p;
}

static void parse_path(Op *op) {
    if (!next_line() || strcmp(word(), "path")) die("expected path");
    op->npath = (int)num();
    op->path = malloc(sizeof(Element) * (op->npath ? op->npath : 1));
    for (int i = 0; i < op->npath; i++) {
        if (!next_line()) die("short path");
        Element *e = &op->path[i];
        e->kind = word()[0];
        int n = e->kind == 'C' ? 6 : e->kind == 'Z' ? 0 : 2;
        for (int k = 0; k < n; k++) e->v[k] = num();
    }
}

static Op *new_op(int kind) {
    if (nframes == 0) die("operation before the first frame");
    Frame *f = &frames[nframes - 1];
    if (f->count == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        f->ops = realloc(f->ops, sizeof(Op) * f->cap);
    }
    Op *op = &f->ops[f->count++];
    memset(op, 0, sizeof *op);
    op->op = kind;
    return op;
}

static void parse(const char *path) {
    in = fopen(path, "r");
    if (!in) die("cannot open the draw list");
    if (!next_line() || strcmp(word(), "canvas")) die("expected canvas");
    width = (int)num(); height = (int)num();
    for (int k = 0; k < 4; k++) bg[k] = num() / 255.0;
    while (next_line()) {
        const char *w = word();
        if (!strcmp(w, "frame")) {
            if (nframes == capframes) {
                capframes = capframes ? 2 * capframes : 16;
                frames = realloc(frames, sizeof(Frame) * capframes);
            }
            memset(&frames[nframes++], 0, sizeof(Frame));
        } else if (!strcmp(w, "transform")) {
            Op *op = new_op(OP_TRANSFORM);
            for (int k = 0; k < 6; k++) op->m[k] = num();
        } else if (!strcmp(w, "fill")) {
            Op *op = new_op(OP_FILL);
            op->evenodd = !strcmp(word(), "evenodd");
            op->opacity = num();
            word();
            op->paint = parse_paint();
            parse_path(op);
        } else if (!strcmp(w, "stroke")) {
            Op *op = new_op(OP_STROKE);
            op->width = num();
            const char *cap = word(), *join = word();
            op->cap = !strcmp(cap, "round") ? CAIRO_LINE_CAP_ROUND : !strcmp(cap, "square") ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT;
            op->join = !strcmp(join, "round") ? CAIRO_LINE_JOIN_ROUND : !strcmp(join, "bevel") ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER;
            op->miter = num();
            op->opacity = num();
            word();
            op->ndash = (int)num();
            op->phase = num();
            op->dash = malloc(sizeof(double) * (op->ndash ? op->ndash : 1));
            for (int k = 0; k < op->ndash; k++) op->dash[k] = num();
            op->paint = parse_paint();
            parse_path(op);
        } else if (!strcmp(w, "layer")) {
            new_op(OP_LAYER)->opacity = num();
        } else if (!strcmp(w, "endlayer")) {
            new_op(OP_ENDLAYER);
        } else {
            die("unknown line");
        }
    }
    fclose(in);
}

static void build_path(cairo_t *cr, const Op *op) {
    cairo_new_path(cr);
    for (int i = 0; i < op->npath; i++) {
        const Element *e = &op->path[i];
        switch (e->kind) {
        case 'M': cairo_move_to(cr, e->v[0], e->v[1]); break;
        case 'L': cairo_line_to(cr, e->v[0], e->v[1]); break;
        case 'C': cairo_curve_to(cr, e->v[0], e->v[1], e->v[2], e->v[3], e->v[4], e->v[5]); break;
        case 'Z': cairo_close_path(cr); break;
        }
    }
}

/* Opacity below 1 scales coverage, as ChartReel's fill(opacity:) does: a group with the
   one shape painted with that alpha (ChartReel folds it into coverage without a layer). */
static void draw_frame(cairo_t *cr, const Frame *f) {
    cairo_identity_matrix(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_rgba(cr, bg[0], bg[1], bg[2], bg[3]);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    for (int i = 0; i < f->count; i++) {
        const Op *op = &f->ops[i];
        switch (op->op) {
        case OP_TRANSFORM: {
            cairo_matrix_t m;
            cairo_matrix_init(&m, op->m[0], op->m[1], op->m[2], op->m[3], op->m[4], op->m[5]);
            cairo_set_matrix(cr, &m);
            break;
        }
        case OP_FILL:
        case OP_STROKE:
            build_path(cr, op);
            cairo_set_source(cr, op->paint);
            if (op->op == OP_FILL) {
                cairo_set_fill_rule(cr, op->evenodd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
            } else {
                cairo_set_line_width(cr, op->width);
                cairo_set_line_cap(cr, op->cap);
                cairo_set_line_join(cr, op->join);
                cairo_set_miter_limit(cr, op->miter);
                cairo_set_dash(cr, op->dash, op->ndash, op->phase);
            }
            if (op->opacity < 1) {
                cairo_push_group(cr);
                if (op->op == OP_FILL) cairo_fill(cr); else cairo_stroke(cr);
                cairo_pop_group_to_source(cr);
                cairo_paint_with_alpha(cr, op->opacity);
            } else if (op->op == OP_FILL) {
                cairo_fill(cr);
            } else {
                cairo_stroke(cr);
            }
            break;
        case OP_LAYER:
            cairo_push_group(cr);
            break;
        case OP_ENDLAYER: {
            /* The layer's opacity is on its opening op, found by walking back. */
            int depth = 0;
            double opacity = 1;
            for (int j = i - 1; j >= 0; j--) {
                if (f->ops[j].op == OP_ENDLAYER) depth++;
                else if (f->ops[j].op == OP_LAYER && depth-- == 0) { opacity = f->ops[j].opacity; break; }
            }
            cairo_pop_group_to_source(cr);
            cairo_paint_with_alpha(cr, opacity);
            break;
        }
        }
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the process: unlike the wall clock, it does not count time spent waiting
   for a core on a loaded machine (scripts/bench --cpu-time). */
static double cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 2) die("usage: replay LIST.txt [SECONDS] [OUT.png]");
    double seconds = argc > 2 ? atof(argv[2]) : 2;
    parse(argv[1]);
    if (nframes == 0) die("no frames");
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(s);
    long drawn = 0;
    double start = now(), cpu0 = cpu(), elapsed;
    for (;;) {
        draw_frame(cr, &frames[drawn % nframes]);
        drawn++;
        elapsed = now() - start;
        if (drawn >= nframes && elapsed >= seconds) break;
    }
    cairo_surface_flush(s);
    printf("fps %.2f frames %ld seconds %.3f threads 1 cpu %.3f\n", drawn / elapsed, drawn, elapsed, cpu() - cpu0);
    if (argc > 3) {
        draw_frame(cr, &frames[nframes - 1]);
        cairo_surface_write_to_png(s, argv[3]);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return 0;
}
