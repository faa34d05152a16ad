// zlib's stream initializers are macros, which Swift cannot call; these functions call them.
#ifndef STOCKTAKE_CZLIB_SHIM_H
#define STOCKTAKE_CZLIB_SHIM_H

#include <zlib.h>

/// Prepares `stream` to inflate raw deflate data (no zlib or gzip header), as ZIP entries hold it.
static inline int stocktake_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

/// Prepares `stream` to deflate into raw deflate data (no zlib or gzip header) at `level`. stocktake writes with an
/// encoder of its own (`DeflateEncoder`); the tests use zlib's to build the workbooks they read.
static inline int stocktake_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

#if defined(__x86_64__)
#include <immintrin.h>

/// The CRC-32 of `length` bytes (a multiple of 16, at least 64) continued from `crc` (0 to start), as zlib's `crc32`
/// gives it, with carry-less multiplication: four 128-bit lanes are folded 64 bytes at a time, then into one, and
/// reduced to 32 bits by Barrett's method. The constants are x^k mod P for the CRC-32 polynomial P (bit-reflected):
/// x^(4*128+32), x^(4*128-32) for the four lanes; x^(128+32), x^(128-32) for one; x^64; P and floor(x^64 / P).
__attribute__((target("pclmul,sse4.1")))
static inline unsigned int stocktake_crc32_folded(unsigned int crc, const unsigned char *bytes, unsigned long length) {
    const __m128i fourLanes = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i oneLane = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    const __m128i sixtyFour = _mm_set_epi64x(0, 0x163cd6124LL);
    const __m128i polynomial = _mm_set_epi64x(0x1f7011641LL, 0x1db710641LL);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i lane0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)~crc));
    __m128i lane1 = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i lane2 = _mm_loadu_si128((const __m128i *)(bytes + 32));
    __m128i lane3 = _mm_loadu_si128((const __m128i *)(bytes + 48));
    bytes += 64;
    length -= 64;
#define STOCKTAKE_FOLD(lane, key, next) \
    _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(lane, key, 0x00), _mm_clmulepi64_si128(lane, key, 0x11)), next)
    while (length >= 64) {
        lane0 = STOCKTAKE_FOLD(lane0, fourLanes, _mm_loadu_si128((const __m128i *)bytes));
        lane1 = STOCKTAKE_FOLD(lane1, fourLanes, _mm_loadu_si128((const __m128i *)(bytes + 16)));
        lane2 = STOCKTAKE_FOLD(lane2, fourLanes, _mm_loadu_si128((const __m128i *)(bytes + 32)));
        lane3 = STOCKTAKE_FOLD(lane3, fourLanes, _mm_loadu_si128((const __m128i *)(bytes + 48)));
        bytes += 64;
        length -= 64;
    }
    __m128i folded = STOCKTAKE_FOLD(lane0, oneLane, lane1);
    folded = STOCKTAKE_FOLD(folded, oneLane, lane2);
    folded = STOCKTAKE_FOLD(folded, oneLane, lane3);
    while (length >= 16) {
        folded = STOCKTAKE_FOLD(folded, oneLane, _mm_loadu_si128((const __m128i *)bytes));
        bytes += 16;
        length -= 16;
    }
#undef STOCKTAKE_FOLD
    // 128 bits to 64, then to 32.
    folded = _mm_xor_si128(_mm_clmulepi64_si128(folded, oneLane, 0x10), _mm_srli_si128(folded, 8));
    folded = _mm_xor_si128(
        _mm_clmulepi64_si128(_mm_and_si128(folded, low32), sixtyFour, 0x00), _mm_srli_si128(folded, 4));
    // Barrett reduction: the quotient by P from floor(x^64 / P), then the remainder.
    __m128i quotient = _mm_clmulepi64_si128(_mm_and_si128(folded, low32), polynomial, 0x10);
    __m128i product = _mm_clmulepi64_si128(_mm_and_si128(quotient, low32), polynomial, 0x00);
    return ~(unsigned int)_mm_extract_epi32(_mm_xor_si128(folded, product), 1);
}
#endif

/// The CRC-32 of `length` bytes continued from `crc` (0 to start), exactly zlib's `crc32`: folded with carry-less
/// multiplication where the processor has it (about ten times faster than zlib's tables), by zlib otherwise and for
/// the last bytes.
static inline unsigned int stocktake_crc32(unsigned int crc, const unsigned char *bytes, unsigned long length) {
#if defined(__x86_64__)
    if (length >= 64 && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")) {
        unsigned long folded = length & ~15UL;
        crc = stocktake_crc32_folded(crc, bytes, folded);
        bytes += folded;
        length -= folded;
    }
#endif
    while (length > 0) {
        unsigned int count = length > (1UL << 30) ? (1U << 30) : (unsigned int)length;
        crc = (unsigned int)crc32(crc, bytes, count);
        bytes += count;
        length -= count;
    }
    return crc;
}

#endif
