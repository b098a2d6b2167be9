#include "common/arena.h"

#include <stdlib.h>
#include <string.h>

struct arena_block {
    arena_block *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
};

void arena_init(arena *a) { memset(a, 0, sizeof *a); }

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
}

void *arena_alloc(arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    arena_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->failed = 1;
            return NULL;
        }
        a->held += sizeof *b + cap; /* for a budget (the loader's max_memory) */
        b->cap = cap;
        b->used = 0;
        /* a block of one large item goes behind the head, whose free tail
         * the small items after it still fill (arrays that double would
         * otherwise waste up to 64 KiB a step) */
        if (a->head && size > 65536) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void *arena_grow(arena *a, void *old, size_t old_count, size_t new_cap, size_t item)
{
    void *p = arena_alloc(a, new_cap * item);
    if (p && old && old_count)
        memcpy(p, old, old_count * item);
    return p;
}

void *arena_append(arena *a, void *arr, size_t n, size_t item)
{
    if (n & (n - 1)) /* not a power of two: the last growth left room */
        return arr;
    return arena_grow(a, arr, n, n ? 2 * n : 1, item);
}
