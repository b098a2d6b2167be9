/* Open-addressing hash map from strings to int (arena-owned keys are the
 * caller's business: the map stores the pointers it is given). */
#ifndef GISA_COMMON_STRMAP_H
#define GISA_COMMON_STRMAP_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct strmap_slot {
    const char *key;
    size_t keylen;
    uint64_t packed; /* keys of up to 8 bytes: strmap_pack(), compared instead of the text */
    uint32_t hash;
    int value;
} strmap_slot;

typedef struct strmap {
    strmap_slot *slots;
    size_t cap, count;
} strmap;

static inline uint64_t strmap_load4(const char *s)
{
    uint32_t x;
    memcpy(&x, s, 4);
    return x;
}

/* A key of at most 8 bytes as one word, reading only its bytes: keys of
 * 4 to 8 bytes are two overlapping 4-byte words, keys of 1 to 3 bytes
 * their first, middle and last byte (no loop over a random length), so
 * that distinct keys of one length give distinct words. */
static inline uint64_t strmap_pack(const char *s, size_t n)
{
    if (n >= 4)
        return strmap_load4(s) | strmap_load4(s + n - 4) << 32;
    if (!n)
        return 0;
    return (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 | (uint64_t)(unsigned char)s[n - 1] << 16;
}

/* The hash of a key of at most 8 bytes from its packed word. */
static inline uint32_t strmap_hash_packed(uint64_t x, size_t n)
{
    uint64_t h = (UINT64_C(0x9E3779B97F4A7C15) ^ n ^ x) * UINT64_C(0xFF51AFD7ED558CCD);
    return (uint32_t)(h ^ h >> 32);
}

uint32_t strmap_hash(const char *s, size_t n);
/* a[0..n) == b[0..n): inline, for the short keys of hot look-ups (a call
 * to memcmp costs more than comparing a few bytes) */
static inline int strmap_same(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}
void strmap_init(strmap *m);
void strmap_free(strmap *m);
/* Returns 0 on success, -1 on allocation failure. Replaces existing keys. */
int strmap_put(strmap *m, const char *key, size_t n, int value);
int strmap_get_long(const strmap *m, const char *key, size_t n);
/* Returns the value or -1 when absent. Inline for the short keys of the
 * assembler's hot look-ups (mnemonics, modifiers): one word compared. */
static inline int strmap_get(const strmap *m, const char *key, size_t n)
{
    if (n > 8 || !m->cap)
        return strmap_get_long(m, key, n);
    uint64_t x = strmap_pack(key, n);
    for (size_t j = strmap_hash_packed(x, n) & (m->cap - 1); m->slots[j].key; j = (j + 1) & (m->cap - 1))
        if (m->slots[j].packed == x && m->slots[j].keylen == n)
            return m->slots[j].value;
    return -1;
}
#endif
