// The SHA-256 compression function (FIPS 180-4 §6.2.2) on the CPU's SHA instructions.
// x86-64: the SHA extensions (sha256rnds2, sha256msg1, sha256msg2) with SSSE3/SSE4.1 shuffles;
// ARMv8: the SHA2 instructions (sha256h, sha256h2, sha256su0, sha256su1). Each is compiled for
// its instructions with a target attribute and called only when the CPU reports them.
#include "CSHA256.h"

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static int x86_has_sha(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}

__attribute__((target("sha,sse4.1,ssse3")))
static void compress_x86(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions keep the state as ABEF and CDGH.
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    while (blocks--) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i w[4];
        for (int group = 0; group < 16; group++) {
            if (group < 4) w[group] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), byte_swap);
            __m128i wk = _mm_add_epi32(w[group & 3], _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            if (group >= 3 && group < 15) {
                // W[4(g+1)…] from W[4(g-3)…] (already through msg1), W[4g-3…4g] and W[4g…]
                __m128i next = _mm_add_epi32(w[(group + 1) & 3], _mm_alignr_epi8(w[group & 3], w[(group + 3) & 3], 4));
                w[(group + 1) & 3] = _mm_sha256msg2_epu32(next, w[group & 3]);
            }
            wk = _mm_shuffle_epi32(wk, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);
            if (group >= 1 && group < 13) w[(group + 3) & 3] = _mm_sha256msg1_epu32(w[(group + 3) & 3], w[group & 3]);
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
        data += 64;
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}
#endif

#if defined(__aarch64__)
#include <arm_neon.h>
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6)
#endif
#endif

static int arm_has_sha2(void) {
#if defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
#else
    return 0;
#endif
}

__attribute__((target("sha2")))
static void compress_arm(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32x4_t abcd = vld1q_u32(&state[0]);
    uint32x4_t efgh = vld1q_u32(&state[4]);
    while (blocks--) {
        const uint32x4_t abcd_before = abcd, efgh_before = efgh;
        uint32x4_t w[4];
        for (int i = 0; i < 4; i++) w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * i)));
        for (int group = 0; group < 16; group++) {
            uint32x4_t wk = vaddq_u32(w[group & 3], vld1q_u32(&round_constants[4 * group]));
            if (group < 12) {
                w[group & 3] = vsha256su1q_u32(vsha256su0q_u32(w[group & 3], w[(group + 1) & 3]), w[(group + 2) & 3],
                                               w[(group + 3) & 3]);
            }
            uint32x4_t abcd_in = abcd;
            abcd = vsha256hq_u32(abcd, efgh, wk);
            efgh = vsha256h2q_u32(efgh, abcd_in, wk);
        }
        abcd = vaddq_u32(abcd, abcd_before);
        efgh = vaddq_u32(efgh, efgh_before);
        data += 64;
    }
    vst1q_u32(&state[0], abcd);
    vst1q_u32(&state[4], efgh);
}
#endif

static int detected = -1;

int shipyard_sha256_hardware(void) {
    int found = __atomic_load_n(&detected, __ATOMIC_RELAXED);
    if (found >= 0) return found;
    found = 0;
#if defined(__x86_64__)
    if (x86_has_sha()) found = 1;
#elif defined(__aarch64__)
    if (arm_has_sha2()) found = 2;
#endif
    __atomic_store_n(&detected, found, __ATOMIC_RELAXED);
    return found;
}

void shipyard_sha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
#if defined(__x86_64__)
    compress_x86(state, data, blocks);
#elif defined(__aarch64__)
    compress_arm(state, data, blocks);
#else
    (void)state; (void)data; (void)blocks;
#endif
}
