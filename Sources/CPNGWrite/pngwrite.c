#include "cpngwrite.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// The growing output buffer and the error text; reached through libpng's io and error
// pointers, so it lives in memory that setjmp/longjmp leave intact.
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int out_of_memory;
    char *error;
    size_t error_size;
} sink;

static void on_error(png_structp png, png_const_charp message) {
    sink *s = (sink *)png_get_error_ptr(png);
    if (s->error_size > 0) {
        strncpy(s->error, message ? message : "libpng error", s->error_size - 1);
        s->error[s->error_size - 1] = 0;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png; (void)message;  // warnings do not stop a write; nothing to report
}

static void on_write(png_structp png, png_bytep bytes, size_t length) {
    sink *s = (sink *)png_get_io_ptr(png);
    if (s->size + length > s->capacity) {
        size_t want = s->capacity ? s->capacity : 4096;
        while (want < s->size + length) want *= 2;
        uint8_t *grown = (uint8_t *)realloc(s->data, want);
        if (!grown) {
            s->out_of_memory = 1;
            png_error(png, "out of memory for the PNG output");
        }
        s->data = grown;
        s->capacity = want;
    }
    memcpy(s->data + s->size, bytes, length);
    s->size += length;
}

static void on_flush(png_structp png) { (void)png; }

int cpngw_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                 int drop_alpha, cpngw_settings settings,
                 uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if (error_size > 0) error[0] = 0;
    sink s = { NULL, 0, 0, 0, error, error_size };
    // A first guess: charts are mostly flat colour and compress 20-50x.
    s.capacity = (size_t)width * height / 8 + 1024;
    s.data = (uint8_t *)malloc(s.capacity);
    if (!s.data) {
        if (error_size > 0) { strncpy(error, "out of memory", error_size - 1); error[error_size - 1] = 0; }
        return 1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    if (!png) { free(s.data); return 1; }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); free(s.data); return 1; }

    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(s.data);
        return 1;
    }
    png_set_write_fn(png, &s, on_write, on_flush);
    png_set_IHDR(png, info, width, height, 8,
                 drop_alpha ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, settings.level);
    png_set_compression_strategy(png, settings.strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
    // Larger IDAT chunks: fewer chunk headers and deflate calls than the 8 KiB default.
    png_set_compression_buffer_size(png, 1 << 17);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    if (drop_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);  // on write: strip the 4th byte
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = s.data;
    *out_size = s.size;
    return 0;
}

void cpngw_free(void *buffer) { free(buffer); }
