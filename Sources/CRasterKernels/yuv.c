// RGB to yuv420p (BT.709, limited range) for the video encoders: the scalar formula, an
// AVX2 path and an AVX-512 path, all giving exactly the bytes of Raster's reference
// (Pixmap+YUV.swift).
//
// Every output is the exact rational value of its definition rounded half up, computed
// in integers: BT.709's coefficients are decimals, so each sample is an integer numerator
// over a constant denominator (the derivation is in Pixmap+YUV.swift). The scalar path
// divides; the wide paths fold each divide, with its factor and bias, into one 32×32→64-bit
// multiply and a 64-bit add whose high bits are the quotient (constants below, and how
// they were found in the AVX-512 notes). The constants give the exact quotient for every
// numerator the formulas can produce; `crk_yuv_check_constants` checks that, and
// RasterTests compare this file with the reference on every RGB triple for luma and on
// random frames of every size parity for chroma, at every level the CPU has.
#include "crasterkernels.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CRK_YUV_X86 1
#include <immintrin.h>
#endif

// Luma: Y = 16 + floor((73·n + 425000) / 850000), n = 2126 R + 7152 G + 722 B.
#define Y_DIV 850000u
// Chroma over the weighted sums S (weights 1 2 1 on two rows, 8 in all):
// Cb = floor((14·(9278 SB − 2126 SR − 7152 SG) + 257·1182945) / 2365890),
// Cr = floor((14·(7874 SR − 7152 SG − 722 SB) + 257·1003935) / 2007870).
#define CB_BIAS (257 * 1182945)
#define CB_DIV 2365890u
#define CR_BIAS (257 * 1003935)
#define CR_DIV 2007870u

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

// The divides folded into one multiply-add each (the AVX-512 notes below say how these
// were found; `crk_yuv_check_constants` checks every input again):
// Y = ⌊(n·Y5_M + Y5_B) / 2^39⌋ = 16 + ⌊(73n + 425000) / 850000⌋ for n ∈ [0, 2550000].
#define Y5_M 47214323
#define Y5_B 9070970861064LL
#define Y5_K 39
// Cb = ⌊(x·CB5_M + CB5_B) / 2^44⌋ = ⌊(14x + 257·1182945) / 2365890⌋ for |x| ≤ 18,927,120;
// Cr likewise with ⌊(14x + 257·1003935) / 2007870⌋ for |x| ≤ 16,062,960.
#define CB5_M 104100615
#define CB5_B 2260595904046080LL
#define CR5_M 122662625
#define CR5_B 2260595899815863LL
#define C5_K 44
#define Y5_RANGE 2550000
#define CB5_RANGE 18927120
#define CR5_RANGE 16062960

#if CRK_YUV_X86
#define AVX2 __attribute__((target("avx2")))

// ⌊(x·m + b) / 2^k⌋ for eight signed 32-bit x, 32 ≤ k, the results below 2^32: the
// AVX2 form of muladd_high below (one signed multiply and one add per pair of lanes, the
// high halves taken in place).
AVX2 static inline __m256i muladd_high8(__m256i x, int32_t m, int64_t b, int k) {
    const __m256i vm = _mm256_set1_epi32(m), vb = _mm256_set1_epi64x(b);
    __m256i even = _mm256_add_epi64(_mm256_mul_epi32(x, vm), vb);
    __m256i odd = _mm256_add_epi64(_mm256_mul_epi32(_mm256_shuffle_epi32(x, _MM_SHUFFLE(3, 3, 1, 1)), vm), vb);
    __m256i hi = _mm256_blend_epi32(_mm256_shuffle_epi32(even, _MM_SHUFFLE(3, 3, 1, 1)), odd, 0xAA);
    return _mm256_srli_epi32(hi, k - 32);
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
    ptrdiff_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(src + x));
        __m256i n = _mm256_add_epi32(_mm256_madd_epi16(_mm256_and_si256(p, lo), crb),
                                     _mm256_madd_epi16(_mm256_and_si256(_mm256_srli_epi32(p, 8), lo), cg));
        store8(y + x, muladd_high8(n, Y5_M, Y5_B, Y5_K));
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

// Samples i0 ..< i1 of one row pair of chroma (u and v point at sample 0): eight at a
// time while all their pixels are inside the row; sample 0 (its left pixel clamped) and
// the tail by the scalar formula.
AVX2 static void chroma_row_avx2(const uint32_t *a, const uint32_t *b, ptrdiff_t width, ptrdiff_t i0, ptrdiff_t i1,
                                 uint8_t *u, uint8_t *v) {
    const __m256i cbrb = _mm256_set1_epi32((int)((9278u << 16) | (uint16_t)-2126));
    const __m256i cbga = _mm256_set1_epi32((uint16_t)-7152);
    const __m256i crrb = _mm256_set1_epi32((int)(((uint32_t)(uint16_t)-722 << 16) | 7874u));
    const __m256i crga = cbga;
    if (i0 == 0 && i1 > 0) chroma1(a, b, width, 0, u, v);
    ptrdiff_t i = i0 > 1 ? i0 : 1;
    for (; i + 8 <= i1 && 2 * i + 16 <= width; i += 8) {
        __m256i rb0, ga0, rb1, ga1;
        row_sums(a, 2 * i, &rb0, &ga0);
        row_sums(b, 2 * i, &rb1, &ga1);
        __m256i rb = _mm256_add_epi32(rb0, rb1), ga = _mm256_add_epi32(ga0, ga1);
        __m256i nb = _mm256_add_epi32(_mm256_madd_epi16(rb, cbrb), _mm256_madd_epi16(ga, cbga));
        __m256i nr = _mm256_add_epi32(_mm256_madd_epi16(rb, crrb), _mm256_madd_epi16(ga, crga));
        store8(u + i, muladd_high8(nb, CB5_M, CB5_B, C5_K));
        store8(v + i, muladd_high8(nr, CR5_M, CR5_B, C5_K));
    }
    for (; i < i1; i++) chroma1(a, b, width, i, u + i, v + i);
}

// MARK: AVX-512 (F, BW, VL, DQ): sixteen samples per instruction, and fewer instructions.
//
// The same samples as above by a shorter instruction stream (docs/benchmarks.md, #20,
// seventh session; the AVX2 path took its folded divides in the eighth, when it used a
// 32-bit multiply by 73 or 14 and two magic multiplies with four shifts per vector):
// - Each divide is one signed 32×32→64-bit multiply and one 64-bit add per lane,
//   ⌊(x·M + B) / 2^k⌋, with the factor 73 (luma) or 14 (chroma), the rounding bias and
//   luma's +16 folded into M and B. The constants (Y5_M … C5_K, above) are not derived
//   but searched: for each k, the B that keep ⌊(x·M + B)/2^k⌋ equal to the exact formula
//   for one x form an interval, and the constants are those whose intervals over every x
//   of the range intersect (luma x = n ∈ [0, 2550000], chroma x = the weighted
//   differences, |x| ≤ 18,927,120 and 16,062,960). `crk_yuv_check_constants` checks every x again;
//   YUVTests call it.
// - The high 32 bits of the 64-bit sums are taken in place: the odd lanes' already sit in
//   the odd 32-bit lanes, the even lanes' are moved up by a shuffle, a masked blend joins
//   them, and one 32-bit shift by k − 32 ends the divide.
// - Chroma adds each pixel's two rows first (≤ 510 per channel), then takes columns
//   2i−1, 2i, 2i+1 of those sums: the even and the odd pixels by one two-source permute
//   each, and the left neighbours 2i−1 as the odd pixels moved up one lane with the last
//   of the previous sixteen coming in at the bottom (valignd), instead of a second pair of
//   loads one pixel to the left.
// - vpmovdb narrows sixteen 32-bit results to bytes in one instruction.
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))


// ⌊(x·m + b) / 2^k⌋ for sixteen signed 32-bit x, 32 ≤ k, the results below 2^32.
AVX512 static inline __m512i muladd_high(__m512i x, int32_t m, int64_t b, int k) {
    const __m512i vm = _mm512_set1_epi32(m), vb = _mm512_set1_epi64(b);
    __m512i even = _mm512_add_epi64(_mm512_mul_epi32(x, vm), vb);
    __m512i odd = _mm512_add_epi64(_mm512_mul_epi32(_mm512_shuffle_epi32(x, _MM_PERM_DDBB), vm), vb);
    __m512i hi = _mm512_mask_blend_epi32((__mmask16)0xAAAA, _mm512_shuffle_epi32(even, _MM_PERM_DDBB), odd);
    return _mm512_srli_epi32(hi, (unsigned)(k - 32));
}

// Green and alpha of each pixel into its 16-bit halves (bytes 1 and 3 of every word; the
// compiler may emit this as a 16-bit shift).
AVX512 static inline __m512i green_alpha(__m512i p) {
    const __m512i pick = _mm512_broadcast_i32x4(_mm_setr_epi8(1, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11, -1, 13, -1, 15, -1));
    return _mm512_shuffle_epi8(p, pick);
}

// Luma of sixteen pixels.
AVX512 static inline __m128i luma16(__m512i p) {
    const __m512i lo = _mm512_set1_epi32(0x00FF00FF);
    const __m512i crb = _mm512_set1_epi32((722 << 16) | 2126), cg = _mm512_set1_epi32(7152);
    __m512i n = _mm512_add_epi32(_mm512_madd_epi16(_mm512_and_si512(p, lo), crb), _mm512_madd_epi16(green_alpha(p), cg));
    return _mm512_cvtepi32_epi8(muladd_high(n, Y5_M, Y5_B, Y5_K));
}

AVX512 static void luma_row_avx512(const uint32_t *src, ptrdiff_t width, uint8_t *y) {
    ptrdiff_t x = 0;
    for (; x + 16 <= width; x += 16) _mm_storeu_si128((__m128i *)(y + x), luma16(_mm512_loadu_si512(src + x)));
    if (x < width) {
        // The last 1–15 pixels through a masked load and store.
        __mmask16 m = (__mmask16)((1u << (width - x)) - 1);
        _mm_mask_storeu_epi8(y + x, m, luma16(_mm512_maskz_loadu_epi32(m, src + x)));
    }
}

// The two rows' sum of sixteen pixels, as R | B << 16 and G | A << 16 halves.
AVX512 static inline void pair_sums(const uint32_t *a, const uint32_t *b, ptrdiff_t x, __m512i *rb, __m512i *ga) {
    const __m512i lo = _mm512_set1_epi32(0x00FF00FF);
    __m512i pa = _mm512_loadu_si512(a + x), pb = _mm512_loadu_si512(b + x);
    *rb = _mm512_add_epi32(_mm512_and_si512(pa, lo), _mm512_and_si512(pb, lo));
    *ga = _mm512_add_epi32(green_alpha(pa), green_alpha(pb));
}

// Samples i0 ..< i1 of one row pair of chroma, as chroma_row_avx2: in sixteens while
// their pixels are inside the row; sample 0 (its left pixel clamped) and the tail by the
// scalar formula.
AVX512 static void chroma_row_avx512(const uint32_t *a, const uint32_t *b, ptrdiff_t width, ptrdiff_t i0, ptrdiff_t i1,
                                     uint8_t *u, uint8_t *v) {
    const __m512i evenIdx = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i oddIdx = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const __m512i cbrb = _mm512_set1_epi32((int)((9278u << 16) | (uint16_t)-2126));
    const __m512i cga = _mm512_set1_epi32((uint16_t)-7152);
    const __m512i crrb = _mm512_set1_epi32((int)(((uint32_t)(uint16_t)-722 << 16) | 7874u));
    if (i0 == 0 && i1 > 0) chroma1(a, b, width, 0, u, v);
    ptrdiff_t i = i0 > 1 ? i0 : 1;
    if (i + 16 <= i1 && 2 * i + 32 <= width) {
        // Pixel 2i − 1, the left neighbour of sample i, in the top lane.
        const uint32_t m = 0x00FF00FFu;
        const uint32_t pa = a[2 * i - 1], pb = b[2 * i - 1];
        __m512i prevRB = _mm512_set1_epi32((int)((pa & m) + (pb & m)));
        __m512i prevGA = _mm512_set1_epi32((int)(((pa >> 8) & m) + ((pb >> 8) & m)));
        for (; i + 16 <= i1 && 2 * i + 32 <= width; i += 16) {
            __m512i rb0, ga0, rb1, ga1;
            pair_sums(a, b, 2 * i, &rb0, &ga0);
            pair_sums(a, b, 2 * i + 16, &rb1, &ga1);
            __m512i midRB = _mm512_permutex2var_epi32(rb0, evenIdx, rb1), rightRB = _mm512_permutex2var_epi32(rb0, oddIdx, rb1);
            __m512i midGA = _mm512_permutex2var_epi32(ga0, evenIdx, ga1), rightGA = _mm512_permutex2var_epi32(ga0, oddIdx, ga1);
            __m512i leftRB = _mm512_alignr_epi32(rightRB, prevRB, 15), leftGA = _mm512_alignr_epi32(rightGA, prevGA, 15);
            prevRB = rightRB;
            prevGA = rightGA;
            __m512i rb = _mm512_add_epi32(_mm512_add_epi32(leftRB, rightRB), _mm512_add_epi32(midRB, midRB));
            __m512i ga = _mm512_add_epi32(_mm512_add_epi32(leftGA, rightGA), _mm512_add_epi32(midGA, midGA));
            __m512i nb = _mm512_add_epi32(_mm512_madd_epi16(rb, cbrb), _mm512_madd_epi16(ga, cga));
            __m512i nr = _mm512_add_epi32(_mm512_madd_epi16(rb, crrb), _mm512_madd_epi16(ga, cga));
            _mm_storeu_si128((__m128i *)(u + i), _mm512_cvtepi32_epi8(muladd_high(nb, CB5_M, CB5_B, C5_K)));
            _mm_storeu_si128((__m128i *)(v + i), _mm512_cvtepi32_epi8(muladd_high(nr, CR5_M, CR5_B, C5_K)));
        }
    }
    for (; i < i1; i++) chroma1(a, b, width, i, u + i, v + i);
}
#endif

static void luma_row_scalar(const uint32_t *src, ptrdiff_t width, uint8_t *y) {
    for (ptrdiff_t x = 0; x < width; x++) y[x] = luma1(src[x]);
}

static void chroma_row_scalar(const uint32_t *a, const uint32_t *b, ptrdiff_t width, ptrdiff_t i0, ptrdiff_t i1,
                              uint8_t *u, uint8_t *v) {
    for (ptrdiff_t i = i0; i < i1; i++) chroma1(a, b, width, i, u + i, v + i);
}

typedef void (*luma_fn)(const uint32_t *, ptrdiff_t, uint8_t *);
typedef void (*chroma_fn)(const uint32_t *, const uint32_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, uint8_t *, uint8_t *);

// The row functions of the level in use.
static void row_functions(luma_fn *luma, chroma_fn *chroma) {
    *luma = luma_row_scalar; *chroma = chroma_row_scalar;
#if CRK_YUV_X86
    if (crk_wide() >= 2) { *luma = luma_row_avx512; *chroma = chroma_row_avx512; }
    else if (crk_wide() >= 1) { *luma = luma_row_avx2; *chroma = chroma_row_avx2; }
#endif
}

// Chroma samples i0 ..< i1 of row pair j, and the luma of the pixels they are sited on
// (columns 2·i0 ..< 2·i1, within the row) on both rows: the samples need no other
// output, and every output is a function of the pixels alone, so a frame converted in
// parts gives the bytes of one converted whole.
static inline void convert_part(luma_fn luma, chroma_fn chroma, const uint32_t *src, ptrdiff_t width, ptrdiff_t height,
                                ptrdiff_t j, ptrdiff_t i0, ptrdiff_t i1, uint8_t *y, uint8_t *u, uint8_t *v) {
    ptrdiff_t cw = (width + 1) / 2, x0 = 2 * i0, x1 = 2 * i1 < width ? 2 * i1 : width;
    const uint32_t *a = src + 2 * j * width, *b = 2 * j + 1 < height ? a + width : a;
    luma(a + x0, x1 - x0, y + 2 * j * width + x0);
    if (b != a) luma(b + x0, x1 - x0, y + (2 * j + 1) * width + x0);
    chroma(a, b, width, i0, i1, u + j * cw, v + j * cw);
}

void crk_yuv420p(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *y, uint8_t *u, uint8_t *v) {
    ptrdiff_t cw = (width + 1) / 2, ch = (height + 1) / 2;
    luma_fn luma; chroma_fn chroma;
    row_functions(&luma, &chroma);
    // Row pair by row pair, luma then chroma, so the chroma pass reads the two rows while
    // they are still in the first-level cache (a 1080p frame is 8 MB: two passes over the
    // whole frame read it twice from memory).
    for (ptrdiff_t j = 0; j < ch; j++) convert_part(luma, chroma, src, width, height, j, 0, cw, y, u, v);
}

void crk_yuv420p_parts(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *y, uint8_t *u, uint8_t *v,
                       const int32_t *parts, const int32_t *row_parts, uint32_t background) {
    ptrdiff_t cw = (width + 1) / 2, ch = (height + 1) / 2;
    luma_fn luma; chroma_fn chroma;
    row_functions(&luma, &chroma);
    // The background's samples, by the same formulas as every other pixel's.
    const uint32_t bg[2] = { background, background };
    uint8_t by = luma1(background), bu, bv;
    chroma1(bg, bg, 2, 0, &bu, &bv);
    for (ptrdiff_t j = 0; j < ch; j++) {
        uint8_t *ya = y + 2 * j * width, *yb = 2 * j + 1 < height ? ya + width : NULL;
        uint8_t *uj = u + j * cw, *vj = v + j * cw;
        ptrdiff_t done = 0;   // chroma samples written so far
        for (int32_t k = row_parts[2 * j]; k < row_parts[2 * j + 1]; k++) {
            ptrdiff_t i0 = parts[2 * k], i1 = parts[2 * k + 1];
            if (i0 > done) {
                ptrdiff_t x0 = 2 * done, x1 = 2 * i0 < width ? 2 * i0 : width;
                memset(ya + x0, by, (size_t)(x1 - x0));
                if (yb) memset(yb + x0, by, (size_t)(x1 - x0));
                memset(uj + done, bu, (size_t)(i0 - done));
                memset(vj + done, bv, (size_t)(i0 - done));
            }
            convert_part(luma, chroma, src, width, height, j, i0, i1, y, u, v);
            done = i1;
        }
        if (done < cw) {
            ptrdiff_t x0 = 2 * done;
            memset(ya + x0, by, (size_t)(width - x0));
            if (yb) memset(yb + x0, by, (size_t)(width - x0));
            memset(uj + done, bu, (size_t)(cw - done));
            memset(vj + done, bv, (size_t)(cw - done));
        }
    }
}

#if CRK_YUV_X86
// ⌊(x·m + b) / 2^k⌋ against ⌊(a·x + c) / d⌋ for every x in [lo, hi]; the first x where they
// differ, or hi + 1.
static int64_t first_mismatch(int64_t lo, int64_t hi, int64_t m, int64_t b, int k, int64_t a, int64_t c, int64_t d) {
    for (int64_t x = lo; x <= hi; x++) {
        int64_t num = a * x + c, want = num >= 0 ? num / d : -((-num + d - 1) / d);
        int64_t sum = x * m + b;
        if (sum < 0 || (sum >> k) != want || (sum >> k) >= ((int64_t)1 << 32)) return x;
    }
    return hi + 1;
}
#endif

int crk_yuv_check_constants(void) {
#if CRK_YUV_X86
    if (first_mismatch(0, Y5_RANGE, Y5_M, Y5_B, Y5_K, 73, 425000 + 16 * 850000, 850000) <= Y5_RANGE) return 1;
    if (first_mismatch(-CB5_RANGE, CB5_RANGE, CB5_M, CB5_B, C5_K, 14, CB_BIAS, CB_DIV) <= CB5_RANGE) return 2;
    if (first_mismatch(-CR5_RANGE, CR5_RANGE, CR5_M, CR5_B, C5_K, 14, CR_BIAS, CR_DIV) <= CR5_RANGE) return 3;
#endif
    return 0;
}
