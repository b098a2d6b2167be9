/* Shared by the harnesses: the first input byte picks one of the targets
 * compiled into the library, so that a target added to isa/ is fuzzed
 * without touching any harness. Header-only because each fuzz/<h>.c is
 * built as its own program. */
#ifndef GISA_FUZZ_TARGET_H
#define GISA_FUZZ_TARGET_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tests/unit/apihelp.h"
#include "gisa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_TARGETS 16

/* Index of the target byte `b` selects. */
static inline size_t fuzz_target_index(uint8_t b)
{
    size_t n = gisa_target_count();
    if (n == 0 || n > FUZZ_MAX_TARGETS)
        abort(); /* the build embeds at least one target; raise the bound if not */
    return b % n;
}

/* The embedded ISA of the target `b` selects, loaded once per process: the
 * embedded descriptions must always load. */
static inline const gisa_isa *fuzz_target_isa(uint8_t b)
{
    static gisa_isa *isas[FUZZ_MAX_TARGETS];
    size_t t = fuzz_target_index(b);
    if (!isas[t] && api_load_embedded(gisa_target_name(t), &isas[t], NULL) != GISA_OK)
        abort();
    return isas[t];
}

/* The ISA that the input's first byte picks, with that byte taken off the
 * input; NULL for an empty input. */
static inline const gisa_isa *fuzz_take_target(const uint8_t **data, size_t *size)
{
    if (*size < 1)
        return NULL;
    const gisa_isa *isa = fuzz_target_isa(**data);
    ++*data;
    --*size;
    return isa;
}

/* True when every error diagnostic is placed inside the text: its line
 * exists and its column is at most one past the end of that line (errors
 * such as "expected an operand" point just after the last character).
 * Diagnostics without a line (line 0) are allowed when `allow_unplaced`. */
/* The lines of one text, found on first use, so that checking many
 * diagnostics of a large text (an 8 MiB description made by @N{..}) is not
 * quadratic: fuzz_lines L = {text, len}; ... fuzz_lines_free(&L). */
typedef struct fuzz_lines {
    const char *text;
    size_t len;
    size_t *start; /* [n]: offsets of the line starts */
    size_t n, cap;
} fuzz_lines;

static inline void fuzz_lines_free(fuzz_lines *L)
{
    free(L->start);
    L->start = NULL;
    L->n = L->cap = 0;
}

static inline void fuzz_lines_index(fuzz_lines *L)
{
    for (size_t b = 0;;) {
        if (L->n == L->cap) {
            size_t *grown = realloc(L->start, (L->cap = L->cap ? 2 * L->cap : 1024) * sizeof *L->start);
            if (!grown)
                abort();
            L->start = grown;
        }
        L->start[L->n++] = b;
        const char *nl = b < L->len ? memchr(L->text + b, '\n', L->len - b) : NULL;
        if (!nl)
            return;
        b = (size_t)(nl - L->text) + 1;
    }
}

static inline int fuzz_diag_placed_in(const gisa_diag *g, fuzz_lines *L, int allow_unplaced)
{
    if (g->severity != GISA_ERROR)
        return 1;
    if (g->line <= 0)
        return allow_unplaced;
    if (!L->start)
        fuzz_lines_index(L);
    if ((size_t)g->line > L->n)
        return 0; /* no such line */
    size_t b = L->start[g->line - 1];
    const char *nl = b < L->len ? memchr(L->text + b, '\n', L->len - b) : NULL;
    size_t e = nl ? (size_t)(nl - L->text) : L->len;
    return g->col >= 1 && (size_t)g->col <= e - b + 1;
}

/* The same for one diagnostic of a text */
static inline int fuzz_diag_placed(const gisa_diag *g, const char *text, size_t len, int allow_unplaced)
{
    fuzz_lines L = {text, len, NULL, 0, 0};
    int placed = fuzz_diag_placed_in(g, &L, allow_unplaced);
    fuzz_lines_free(&L);
    return placed;
}

static inline int fuzz_diags_placed(const gisa_diags *d, const char *text, size_t len, int allow_unplaced)
{
    for (size_t i = 0; i < gisa_diags_count(d); i++)
        if (!fuzz_diag_placed(gisa_diags_get(d, i), text, len, allow_unplaced))
            return 0;
    return 1;
}
#endif
