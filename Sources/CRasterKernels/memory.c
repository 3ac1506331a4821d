// Transparent huge pages for frame-sized buffers (see crasterkernels.h).
#define _GNU_SOURCE
#include "crasterkernels.h"

#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void crk_advise_huge(void *p, size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + n) & ~(huge - 1);
    if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);   // advice: failure changes nothing
#else
    (void)p; (void)n;
#endif
}
