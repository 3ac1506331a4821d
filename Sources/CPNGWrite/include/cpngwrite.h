// A small C wrapper over libpng's full write API, for frame output.
//
// Why C: libpng's simplified API (used by Raster's PNGCodec) has no control over zlib's
// level, strategy or the row filters, and the full API reports errors by longjmp out of
// a callback, which must never cross Swift frames. Here setjmp, every libpng call and
// the longjmp target all live in one C function, so an error becomes a return code.
#ifndef CPNGWRITE_H
#define CPNGWRITE_H

#include <stddef.h>
#include <stdint.h>

/// Row filters, as libpng's PNG_FILTER_* bits (any combination lets libpng choose per row).
enum {
    CPNGW_FILTER_NONE = 0x08,
    CPNGW_FILTER_SUB = 0x10,
    CPNGW_FILTER_UP = 0x20,
    CPNGW_FILTER_AVG = 0x40,
    CPNGW_FILTER_PAETH = 0x80
};

/// How to compress: a zlib level (0-9), a zlib strategy (0 default, 1 filtered,
/// 2 Huffman only, 3 RLE) and the PNG_FILTER_* bits libpng may choose from.
typedef struct {
    int level;
    int strategy;
    int filters;
} cpngw_settings;

/// Encodes `height` rows of 8-bit pixels, 4 bytes per pixel in memory (R, G, B, A with
/// straight alpha), `stride` bytes apart, as a PNG in memory. With `drop_alpha` nonzero
/// the fourth byte is skipped and an RGB PNG is written (for frames known to be opaque).
///
/// On success returns 0 and sets `*out` to a malloc'ed buffer of `*out_size` bytes that
/// the caller frees with `cpngw_free`. On failure returns nonzero, leaves `*out` NULL and
/// writes libpng's message into `error` (NUL-terminated, at most `error_size` bytes).
int cpngw_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                 int drop_alpha, cpngw_settings settings,
                 uint8_t **out, size_t *out_size, char *error, size_t error_size);

/// Frees a buffer returned by `cpngw_encode`.
void cpngw_free(void *buffer);

#endif
