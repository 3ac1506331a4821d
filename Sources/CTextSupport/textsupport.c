#include "ctextsupport.h"
#include <stdlib.h>
#include <fribidi.h>
#include <unicode/ubrk.h>

int ctext_bidi_levels(const uint32_t *text, int32_t length, int base, uint8_t *levels) {
    if (length <= 0) return 0;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    FriBidiLevel *out = malloc(sizeof(FriBidiLevel) * (size_t)length);
    int result = -1;
    if (types && brackets && out) {
        fribidi_get_bidi_types((const FriBidiChar *)text, length, types);
        fribidi_get_bracket_types((const FriBidiChar *)text, length, types, brackets);
        FriBidiParType dir = base == 1 ? FRIBIDI_PAR_LTR : base == 2 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON;
        FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, brackets, length, &dir, out);
        if (max != 0) {
            for (int32_t i = 0; i < length; i++) levels[i] = (uint8_t)out[i];
            result = FRIBIDI_IS_RTL(dir) ? 1 : 0;
        }
    }
    free(types); free(brackets); free(out);
    return result;
}

int32_t ctext_line_breaks(const uint16_t *text, int32_t length, const char *locale, int32_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(UBRK_LINE, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status) || !it) return -1;
    int32_t n = 0;
    for (int32_t b = ubrk_following(it, 0); b != UBRK_DONE && n < capacity; b = ubrk_next(it)) out[n++] = b;
    ubrk_close(it);
    return n;
}
