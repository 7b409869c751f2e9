// The block check is the lookup method of Keiser and Lemire, "Validating UTF-8 In Less Than
// One Instruction Per Byte" (2021): each byte is classified by three 16-entry tables (the high
// and low nibble of the byte before it, its own high nibble), whose AND has a bit set for every
// rule the pair breaks; a byte that must be the third or fourth byte of a sequence is found
// from the bytes two and three back with saturating subtractions.
#include "CUTF8Blocks.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

#define CUTF8_AVX2 __attribute__((target("avx2")))

// What a pair (byte before, byte) can break; one bit each, two shared where the tables keep
// them apart.
enum {
    TOO_SHORT = 1 << 0,       // a lead byte not followed by a continuation byte
    TOO_LONG = 1 << 1,        // an ASCII byte followed by a continuation byte
    OVERLONG_3 = 1 << 2,      // E0 80–9F
    TOO_LARGE = 1 << 3,       // F4 90–BF, F5–FF 90–BF
    SURROGATE = 1 << 4,       // ED A0–BF
    OVERLONG_2 = 1 << 5,      // C0–C1 followed by a continuation byte
    TOO_LARGE_1000 = 1 << 6,  // F5–FF 80–8F
    OVERLONG_4 = 1 << 6,      // F0 80–8F
    TWO_CONTS = 1 << 7,       // two continuation bytes: an error unless the second must be one
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS,
};

#define B(x) ((char)(uint8_t)(x))
#define TABLE(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                                                      \
    _mm256_setr_epi8(B(a), B(b), B(c), B(d), B(e), B(f), B(g), B(h), B(i), B(j), B(k), B(l), B(m), B(n), B(o), B(p), \
                     B(a), B(b), B(c), B(d), B(e), B(f), B(g), B(h), B(i), B(j), B(k), B(l), B(m), B(n), B(o), B(p))

CUTF8_AVX2 static inline __m256i cutf8_high_nibbles(__m256i x) {
    return _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(0x0F));
}

// Bit 7 of a lane is set where the 32 bytes at `p` break a rule; other bits are set for the
// other rules.
CUTF8_AVX2 static inline __m256i cutf8_block_errors(const uint8_t *p) {
    const __m256i input = _mm256_loadu_si256((const __m256i *)p);
    const __m256i prev1 = _mm256_loadu_si256((const __m256i *)(p - 1));
    const __m256i prev2 = _mm256_loadu_si256((const __m256i *)(p - 2));
    const __m256i prev3 = _mm256_loadu_si256((const __m256i *)(p - 3));

    const __m256i byte1High = _mm256_shuffle_epi8(
        TABLE(TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,  // 0_______
              TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,                                      // 10______
              TOO_SHORT | OVERLONG_2,                                                          // 1100____
              TOO_SHORT,                                                                       // 1101____
              TOO_SHORT | OVERLONG_3 | SURROGATE,                                              // 1110____
              TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4),                            // 1111____
        cutf8_high_nibbles(prev1));
    const __m256i byte1Low = _mm256_shuffle_epi8(
        TABLE(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,  // ____0000
              CARRY | OVERLONG_2,                            // ____0001
              CARRY, CARRY,                                  // ____001_
              CARRY | TOO_LARGE,                             // ____0100
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____0101
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____0110
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____0111
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____1000
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____1001
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____1010
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____1011
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____1100
              CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,  // ____1101
              CARRY | TOO_LARGE | TOO_LARGE_1000,            // ____1110
              CARRY | TOO_LARGE | TOO_LARGE_1000),           // ____1111
        _mm256_and_si256(prev1, _mm256_set1_epi8(0x0F)));
    const __m256i byte2High = _mm256_shuffle_epi8(
        TABLE(TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,  // 0_______
              TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,          // 1000____
              TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,                           // 1001____
              TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,                            // 1010____
              TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,                            // 1011____
              TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT),                                          // 11______
        cutf8_high_nibbles(input));
    const __m256i special = _mm256_and_si256(_mm256_and_si256(byte1High, byte1Low), byte2High);

    // A byte two after E0–FF or three after F0–FF must be a continuation byte: bit 7 of these
    // saturated differences, which TWO_CONTS (bit 7) must then match exactly.
    const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    const __m256i required = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(required, special);
}

CUTF8_AVX2 static size_t cutf8_valid_blocks_avx2(const uint8_t *base, size_t start, size_t count) {
    size_t i = start;
    while (i + 32 <= count) {
        const __m256i input = _mm256_loadu_si256((const __m256i *)(base + i));
        const __m256i before = _mm256_loadu_si256((const __m256i *)(base + i - 3));
        // ASCII from three bytes before the block to its end: nothing to check.
        if (_mm256_movemask_epi8(_mm256_or_si256(input, before)) == 0) {
            i += 32;
            continue;
        }
        if (!_mm256_testz_si256(cutf8_block_errors(base + i), _mm256_set1_epi8((char)0xFF))) break;
        i += 32;
    }
    // A byte is judged here together with the byte after it, so the last three bytes before
    // `i` are left to the caller's check as well.
    return i > start ? i - 3 : start;
}

int cutf8_blocks_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

size_t cutf8_valid_blocks(const uint8_t *base, size_t start, size_t count) {
    // The CPU model is filled in by the runtime's constructor; this reads it.
    if (start < 3 || !__builtin_cpu_supports("avx2")) return start;
    return cutf8_valid_blocks_avx2(base, start, count);
}

#else

int cutf8_blocks_available(void) { return 0; }

size_t cutf8_valid_blocks(const uint8_t *base, size_t start, size_t count) {
    (void)base;
    (void)count;
    return start;
}

#endif
