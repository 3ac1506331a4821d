// RGB to yuv420p (BT.709, limited range) for the video encoders: the scalar formula and an
// AVX2 path, both giving exactly the bytes of Raster's reference (Pixmap+YUV.swift).
//
// Every output is the exact rational value of its definition rounded half up, computed
// in integers: BT.709's coefficients are decimals, so each sample is an integer numerator
// over a constant denominator (the derivation is in Pixmap+YUV.swift). The AVX2 path
// divides by those constants with a multiply by M = ceil(2^k / d) and a shift by k,
// which equals the floor of the quotient for every numerator x with x·(M·d − 2^k) < 2^k
// (then x·M / 2^k = x/d + a part too small to reach the next integer). The constants
// below meet that for every numerator the formulas can produce (checked in comments);
// RasterTests compare this file with the reference on every RGB triple for luma and on
// random frames of every size parity for chroma.
#include "crasterkernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CRK_YUV_X86 1
#include <immintrin.h>
#endif

// Luma: Y = 16 + floor((73·n + 425000) / 850000), n = 2126 R + 7152 G + 722 B.
// Numerators reach 73·2550000 + 425000 = 186,575,000; M·d − 2^48 = 489,344, and
// 489,344 · 186,575,000 < 2^48.
#define Y_DIV 850000u
#define Y_MAGIC 331147032u
#define Y_SHIFT 48
// Chroma over the weighted sums S (weights 1 2 1 on two rows, 8 in all):
// Cb = floor((14·(9278 SB − 2126 SR − 7152 SG) + 257·1182945) / 2365890), numerators
// ≤ 568,996,545, M·d − 2^53 = 45,358;
// Cr = floor((14·(7874 SR − 7152 SG − 722 SB) + 257·1003935) / 2007870), numerators
// ≤ 482,892,735, M·d − 2^52 = 1,750,814. Both products stay below 2^k.
#define CB_BIAS (257 * 1182945)
#define CB_DIV 2365890u
#define CB_MAGIC 3807108215u
#define CB_SHIFT 53
#define CR_BIAS (257 * 1003935)
#define CR_DIV 2007870u
#define CR_MAGIC 2242973713u
#define CR_SHIFT 52

static inline uint8_t luma1(uint32_t p) {
    uint32_t n = 2126u * (p & 255u) + 7152u * ((p >> 8) & 255u) + 722u * ((p >> 16) & 255u);
    return (uint8_t)(16u + (73u * n + 425000u) / Y_DIV);
}

// Chroma sample i of the row pair (a, b): columns 2i−1, 2i, 2i+1 weighted 1, 2, 1 on both
// rows, columns outside the row clamped to its ends.
static inline void chroma1(const uint32_t *a, const uint32_t *b, ptrdiff_t width, ptrdiff_t i,
                           uint8_t *u, uint8_t *v) {
    ptrdiff_t c = 2 * i, l = c > 0 ? c - 1 : 0, r = c + 1 < width ? c + 1 : c;
    const uint32_t px[8] = { a[l], a[c], a[c], a[r], b[l], b[c], b[c], b[r] };
    int32_t sr = 0, sg = 0, sb = 0;
    for (int k = 0; k < 8; k++) {
        sr += (int32_t)(px[k] & 255u); sg += (int32_t)((px[k] >> 8) & 255u); sb += (int32_t)((px[k] >> 16) & 255u);
    }
    int32_t nb = 9278 * sb - 2126 * sr - 7152 * sg, nr = 7874 * sr - 7152 * sg - 722 * sb;
    *u = (uint8_t)((uint32_t)(14 * nb + CB_BIAS) / CB_DIV);
    *v = (uint8_t)((uint32_t)(14 * nr + CR_BIAS) / CR_DIV);
}

#if CRK_YUV_X86
#define AVX2 __attribute__((target("avx2")))

// floor(x / d) for eight unsigned 32-bit numerators, by the magic multiply above.
AVX2 static inline __m256i div_magic(__m256i x, uint32_t magic, int shift) {
    __m256i m = _mm256_set1_epi32((int)magic);
    __m128i s = _mm_cvtsi32_si128(shift);
    __m256i even = _mm256_srl_epi64(_mm256_mul_epu32(x, m), s);
    __m256i odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), m), s);
    return _mm256_or_si256(even, _mm256_slli_epi64(odd, 32));
}

// The low byte of each 32-bit lane, eight bytes in order.
AVX2 static inline void store8(uint8_t *dst, __m256i q) {
    const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                          0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(q, pick), _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));
    _mm_storel_epi64((__m128i *)dst, _mm256_castsi256_si128(b));
}

// One row of luma.
AVX2 static void luma_row_avx2(const uint32_t *src, ptrdiff_t width, uint8_t *y) {
    const __m256i lo = _mm256_set1_epi32(0x00FF00FF);
    const __m256i crb = _mm256_set1_epi32((722 << 16) | 2126);   // R in the low half, B in the high
    const __m256i cg = _mm256_set1_epi32(7152);                  // G in the low half, A ignored
    const __m256i k73 = _mm256_set1_epi32(73), bias = _mm256_set1_epi32(425000), sixteen = _mm256_set1_epi32(16);
    ptrdiff_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(src + x));
        __m256i n = _mm256_add_epi32(_mm256_madd_epi16(_mm256_and_si256(p, lo), crb),
                                     _mm256_madd_epi16(_mm256_and_si256(_mm256_srli_epi32(p, 8), lo), cg));
        __m256i num = _mm256_add_epi32(_mm256_mullo_epi32(n, k73), bias);
        store8(y + x, _mm256_add_epi32(div_magic(num, Y_MAGIC, Y_SHIFT), sixteen));
    }
    for (; x < width; x++) y[x] = luma1(src[x]);
}

// The even (which = 0) or odd (1) pixels of sixteen: a holds pixels 0–7, b 8–15.
AVX2 static inline __m256i evens(__m256i a, __m256i b) {
    __m256 s = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), _MM_SHUFFLE(3, 1, 2, 0));
}
AVX2 static inline __m256i odds(__m256i a, __m256i b) {
    __m256 s = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 3, 1));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), _MM_SHUFFLE(3, 1, 2, 0));
}

// The 1 2 1 weighted sum of one row at chroma samples i…i+7 (pixels 2i−1 … 2i+15), as
// R | B << 16 and G | A << 16 halves (each at most 4·255, so the halves never carry).
AVX2 static inline void row_sums(const uint32_t *row, ptrdiff_t c, __m256i *rb, __m256i *ga) {
    const __m256i lo = _mm256_set1_epi32(0x00FF00FF);
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(row + c)), a1 = _mm256_loadu_si256((const __m256i *)(row + c + 8));
    __m256i b0 = _mm256_loadu_si256((const __m256i *)(row + c - 1)), b1 = _mm256_loadu_si256((const __m256i *)(row + c + 7));
    __m256i left = evens(b0, b1), mid = evens(a0, a1), right = odds(a0, a1);
    __m256i lrb = _mm256_and_si256(left, lo), mrb = _mm256_and_si256(mid, lo), rrb = _mm256_and_si256(right, lo);
    __m256i lga = _mm256_and_si256(_mm256_srli_epi32(left, 8), lo), mga = _mm256_and_si256(_mm256_srli_epi32(mid, 8), lo);
    __m256i rga = _mm256_and_si256(_mm256_srli_epi32(right, 8), lo);
    *rb = _mm256_add_epi32(_mm256_add_epi32(lrb, rrb), _mm256_add_epi32(mrb, mrb));
    *ga = _mm256_add_epi32(_mm256_add_epi32(lga, rga), _mm256_add_epi32(mga, mga));
}

// One row pair of chroma: samples 1 … while all their pixels are inside the row, eight
// at a time; sample 0 (its left pixel clamped) and the tail by the scalar formula.
AVX2 static void chroma_row_avx2(const uint32_t *a, const uint32_t *b, ptrdiff_t width, ptrdiff_t cw,
                                 uint8_t *u, uint8_t *v) {
    const __m256i cbrb = _mm256_set1_epi32((int)((9278u << 16) | (uint16_t)-2126));
    const __m256i cbga = _mm256_set1_epi32((uint16_t)-7152);
    const __m256i crrb = _mm256_set1_epi32((int)(((uint32_t)(uint16_t)-722 << 16) | 7874u));
    const __m256i crga = cbga;
    const __m256i k14 = _mm256_set1_epi32(14);
    const __m256i cbBias = _mm256_set1_epi32(CB_BIAS), crBias = _mm256_set1_epi32(CR_BIAS);
    chroma1(a, b, width, 0, u, v);
    ptrdiff_t i = 1;
    for (; i < cw && 2 * i + 16 <= width; i += 8) {
        __m256i rb0, ga0, rb1, ga1;
        row_sums(a, 2 * i, &rb0, &ga0);
        row_sums(b, 2 * i, &rb1, &ga1);
        __m256i rb = _mm256_add_epi32(rb0, rb1), ga = _mm256_add_epi32(ga0, ga1);
        __m256i nb = _mm256_add_epi32(_mm256_madd_epi16(rb, cbrb), _mm256_madd_epi16(ga, cbga));
        __m256i nr = _mm256_add_epi32(_mm256_madd_epi16(rb, crrb), _mm256_madd_epi16(ga, crga));
        store8(u + i, div_magic(_mm256_add_epi32(_mm256_mullo_epi32(nb, k14), cbBias), CB_MAGIC, CB_SHIFT));
        store8(v + i, div_magic(_mm256_add_epi32(_mm256_mullo_epi32(nr, k14), crBias), CR_MAGIC, CR_SHIFT));
    }
    for (; i < cw; i++) chroma1(a, b, width, i, u + i, v + i);
}
#endif

void crk_yuv420p(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *y, uint8_t *u, uint8_t *v) {
    ptrdiff_t cw = (width + 1) / 2, ch = (height + 1) / 2;
#if CRK_YUV_X86
    if (crk_wide() >= 1) {
        // Row pair by row pair, luma then chroma, so the chroma pass reads the two rows
        // while they are still in the first-level cache (a 1080p frame is 8 MB: two passes
        // over the whole frame read it twice from memory).
        for (ptrdiff_t j = 0; j < ch; j++) {
            const uint32_t *a = src + 2 * j * width, *b = 2 * j + 1 < height ? a + width : a;
            luma_row_avx2(a, width, y + 2 * j * width);
            if (b != a) luma_row_avx2(b, width, y + (2 * j + 1) * width);
            chroma_row_avx2(a, b, width, cw, u + j * cw, v + j * cw);
        }
        return;
    }
#endif
    for (ptrdiff_t i = 0; i < width * height; i++) y[i] = luma1(src[i]);
    for (ptrdiff_t j = 0; j < ch; j++) {
        const uint32_t *a = src + 2 * j * width, *b = 2 * j + 1 < height ? a + width : a;
        for (ptrdiff_t i = 0; i < cw; i++) chroma1(a, b, width, i, u + j * cw + i, v + j * cw + i);
    }
}
