/* Open-addressing hash map from strings to int (arena-owned keys are the
 * caller's business: the map stores the pointers it is given). */
#ifndef GISA_COMMON_STRMAP_H
#define GISA_COMMON_STRMAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct strmap_slot {
    const char *key;
    size_t keylen;
    uint32_t hash;
    int value;
} strmap_slot;

typedef struct strmap {
    strmap_slot *slots;
    size_t cap, count;
} strmap;

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
/* Returns the value or -1 when absent. */
int strmap_get(const strmap *m, const char *key, size_t n);
#endif
