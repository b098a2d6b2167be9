#include "common/strmap.h"

#include <stdlib.h>
#include <string.h>

static inline uint64_t load8(const char *s)
{
    uint64_t x;
    memcpy(&x, s, 8);
    return x;
}

/* One multiplication per eight bytes (a multiplication per byte, as in
 * FNV, makes a chain the assembler's every look-up waits for); the last
 * 1 to 8 bytes are packed as strmap_pack does, with the length mixed in. */
uint32_t strmap_hash(const char *s, size_t n)
{
    if (n <= 8)
        return strmap_hash_packed(strmap_pack(s, n), n);
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ n;
    for (; n > 8; s += 8, n -= 8) {
        h = (h ^ load8(s)) * UINT64_C(0xFF51AFD7ED558CCD);
        h ^= h >> 32;
    }
    h = (h ^ strmap_pack(s, n)) * UINT64_C(0xFF51AFD7ED558CCD);
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
    m->slots[j] = (strmap_slot){key, n, n <= 8 ? strmap_pack(key, n) : 0, h, value};
    m->count++;
    return 0;
}

int strmap_get_long(const strmap *m, const char *key, size_t n)
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
