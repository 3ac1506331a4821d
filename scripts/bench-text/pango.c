// The text benchmark's C baseline: Pango shaping and Cairo drawing the same labels as
// `chartreel-textbench run` (scripts/bench, section "text").
//
//   pango LABELS.txt SECONDS
//
// LABELS.txt: the canvas size on the first line ("canvas W H"), then one label a line:
// "x y size text" (baseline-left origin, size in pixels per em, the font DejaVu Sans
// with Pango's own fallback for what it lacks). Every label becomes a PangoLayout once,
// before timing (shaped once, as ChartReel shapes a label once); each frame clears an
// ARGB32 image surface to white and shows every layout. Drawing runs on one thread for
// at least SECONDS (at least 3 frames) and prints "fps N".
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct { double x, y; PangoLayout *layout; double baseline; } Label;

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: pango LABELS.txt SECONDS\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    int w = 0, h = 0;
    if (fscanf(f, "canvas %d %d\n", &w, &h) != 2) { fprintf(stderr, "bad header\n"); return 1; }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(surface);
    Label *labels = NULL;
    int n = 0, cap = 0;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        double x, y, size;
        int used = 0;
        if (sscanf(line, "%lf %lf %lf %n", &x, &y, &size, &used) != 3) continue;
        char *text = line + used;
        text[strcspn(text, "\n")] = 0;
        if (n == cap) { cap = cap ? 2 * cap : 64; labels = realloc(labels, cap * sizeof *labels); }
        PangoLayout *layout = pango_cairo_create_layout(cr);
        PangoFontDescription *desc = pango_font_description_from_string("DejaVu Sans");
        pango_font_description_set_absolute_size(desc, size * PANGO_SCALE);
        pango_layout_set_font_description(layout, desc);
        pango_font_description_free(desc);
        pango_layout_set_text(layout, text, -1);
        labels[n].x = x; labels[n].y = y; labels[n].layout = layout;
        labels[n].baseline = (double)pango_layout_get_baseline(layout) / PANGO_SCALE;
        n++;
    }
    fclose(f);
    double seconds = atof(argv[2]);
    int frames = 0;
    double start = now(), elapsed = 0;
    do {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
        for (int i = 0; i < n; i++) {
            cairo_move_to(cr, labels[i].x, labels[i].y - labels[i].baseline);
            pango_cairo_show_layout(cr, labels[i].layout);
        }
        cairo_surface_flush(surface);
        frames++;
        elapsed = now() - start;
    } while (elapsed < seconds || frames < 3);
    printf("fps %.3f frames %d labels %d\n", frames / elapsed, frames, n);
    if (getenv("PANGO_BENCH_PNG")) cairo_surface_write_to_png(surface, getenv("PANGO_BENCH_PNG"));
    for (int i = 0; i < n; i++) g_object_unref(labels[i].layout);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    free(labels);
    return 0;
}
