/* Bump allocator: the ISA model lives in one arena and is freed at once. */
#ifndef GISA_COMMON_ARENA_H
#define GISA_COMMON_ARENA_H
#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
    size_t held;  /* bytes of the blocks malloc'd so far */
    size_t limit; /* a budget for held (0: none), checked by the callers: arena_over */
    int failed;   /* set once an allocation failed; callers check at the end */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size);           /* zeroed, 16-aligned */
/* Whether the arena holds more than its budget. Allocations never fail for
 * it: the builders check between their steps (a line, an optype), where
 * stopping leaves nothing half-made, so a budget is exceeded by one step
 * at most. */
static inline int arena_over(const arena *a) { return a->limit && a->held > a->limit; }
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);
/* Grows an arena-owned array: returns a copy with room for new_cap items. */
void *arena_grow(arena *a, void *old, size_t old_count, size_t new_cap, size_t item);
/* Makes room for item n of an array built by appending one at a time (n
 * items so far): grows it at powers of two, since the arena frees nothing
 * and growing by one would take quadratic memory. Returns the array, maybe
 * moved, or NULL. */
void *arena_append(arena *a, void *arr, size_t n, size_t item);
#endif
