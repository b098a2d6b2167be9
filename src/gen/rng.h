/* The generator's own random numbers: xoshiro256** seeded through
 * splitmix64, integer arithmetic only, so that a seed gives the same
 * program on every machine and C library (no rand(), no floating point). */
#ifndef GISA_GEN_RNG_H
#define GISA_GEN_RNG_H
#include <stdint.h>

typedef struct gen_rng {
    uint64_t s[4];
} gen_rng;

#define GEN_PPM 1000000u /* rates are parts per million */

static inline uint64_t gen_splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* `stream` separates independent sequences of one seed (program, state). */
static inline void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03));
    for (int i = 0; i < 4; i++)
        r->s[i] = gen_splitmix(&x);
}

static inline uint64_t gen_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t gen_next(gen_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = gen_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = gen_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n) without bias (Lemire's multiply-and-reject: a
 * division only on the rare draws that may need rejecting); n = 0 gives 0. */
static inline uint64_t gen_below(gen_rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    unsigned __int128 m = (unsigned __int128)gen_next(r) * n;
    if ((uint64_t)m < n) {
        uint64_t limit = -n % n; /* 2^64 mod n */
        while ((uint64_t)m < limit)
            m = (unsigned __int128)gen_next(r) * n;
    }
    return (uint64_t)(m >> 64);
}

/* True with probability ppm / 1e6. */
static inline int gen_chance(gen_rng *r, uint32_t ppm)
{
    return ppm >= GEN_PPM ? 1 : ppm == 0 ? 0 : gen_below(r, GEN_PPM) < ppm;
}
#endif
