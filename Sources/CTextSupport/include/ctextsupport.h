// C helpers for Text whose libraries' C APIs do not import into Swift as written:
// FriBidi's paragraph types are macros built from bit masks, and ICU renames every
// entry point with its version (ubrk_open is a macro for ubrk_open_72), which Swift's
// importer cannot follow. Each function is a thin pass-through.
#ifndef CTEXTSUPPORT_H
#define CTEXTSUPPORT_H

#include <stdint.h>

/// Resolves the bidi embedding level of each of the `length` code points of one
/// paragraph (UAX #9 through FriBidi) into `levels`. `base` is 0 to take the paragraph
/// direction from its first strong character (left-to-right when it has none), 1 for
/// left-to-right and 2 for right-to-left. Returns the resolved paragraph direction
/// (0 left-to-right, 1 right-to-left), or -1 when FriBidi fails (out of memory).
int ctext_bidi_levels(const uint32_t *text, int32_t length, int base, uint8_t *levels);

/// Writes the UTF-16 offsets at which a line may break (UAX #14 through ICU's line
/// break iterator, with ICU's dictionaries for Thai and other scripts written without
/// spaces) into `out`, at most `capacity` of them, in increasing order; the end of the
/// text counts as a break. `locale` may be NULL. Returns how many were found, or -1
/// when ICU fails (its data is missing).
int32_t ctext_line_breaks(const uint16_t *text, int32_t length, const char *locale, int32_t *out, int32_t capacity);

#endif
