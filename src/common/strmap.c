#include "common/strmap.h"

#include <stdlib.h>
#include <string.h>

static inline uint64_t load(const char *s, size_t n) /* n = 4 or 8 bytes */
{
    uint64_t x = 0;
    memcpy(&x, s, n);
    return x;
}

/* One multiplication per eight bytes (a multiplication per byte, as in
 * FNV, makes a chain the assembler's every look-up waits for). Keys of 4
 * to 8 bytes are read as two overlapping 4-byte words: with the length
 * mixed in, distinct keys still give distinct words. */
uint32_t strmap_hash(const char *s, size_t n)
{
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ n;
    for (; n > 8; s += 8, n -= 8) {
        h = (h ^ load(s, 8)) * UINT64_C(0xFF51AFD7ED558CCD);
        h ^= h >> 32;
    }
    uint64_t x = 0;
    if (n >= 4)
        x = load(s, 4) | load(s + n - 4, 4) << 32;
    else
        for (size_t i = 0; i < n; i++)
            x |= (uint64_t)(unsigned char)s[i] << (8 * i);
    h = (h ^ x) * UINT64_C(0xFF51AFD7ED558CCD);
    return (uint32_t)(h ^ h >> 32);
}

void strmap_init(strmap *m) { memset(m, 0, sizeof *m); }
void strmap_free(strmap *m)
{
    free(m->slots);
    strmap_init(m);
}

static int strmap_rehash(strmap *m, size_t cap)
{
    strmap_slot *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key)
            continue;
        size_t j = m->slots[i].hash & (cap - 1);
        while (s[j].key)
            j = (j + 1) & (cap - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->cap = cap;
    return 0;
}

int strmap_put(strmap *m, const char *key, size_t n, int value)
{
    if ((m->count + 1) * 2 > m->cap && strmap_rehash(m, m->cap ? m->cap * 2 : 64))
        return -1;
    uint32_t h = strmap_hash(key, n);
    size_t j = h & (m->cap - 1);
    while (m->slots[j].key) {
        if (m->slots[j].hash == h && m->slots[j].keylen == n && !memcmp(m->slots[j].key, key, n)) {
            m->slots[j].value = value;
            return 0;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->slots[j] = (strmap_slot){key, n, h, value};
    m->count++;
    return 0;
}

int strmap_get(const strmap *m, const char *key, size_t n)
{
    if (!m->cap)
        return -1;
    uint32_t h = strmap_hash(key, n);
    size_t j = h & (m->cap - 1);
    while (m->slots[j].key) {
        if (m->slots[j].hash == h && m->slots[j].keylen == n && strmap_same(m->slots[j].key, key, n))
            return m->slots[j].value;
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}
