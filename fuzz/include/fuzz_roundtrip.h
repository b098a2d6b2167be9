/* Shared by the harnesses of the JSON readers (state, coverage): byte 0
 * picks the target (fuzz_target.h), the rest is the text. Properties: bad
 * input changes nothing (the object writes as it did before) and says why;
 * good input round-trips (write, read into a fresh object, write again:
 * the same text). Header-only, like fuzz_target.h. */
#ifndef GISA_FUZZ_ROUNDTRIP_H
#define GISA_FUZZ_ROUNDTRIP_H
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"

typedef struct fuzz_reader {
    void *(*make)(const gisa_isa *isa); /* a fresh object; aborts when it cannot */
    void (*drop)(void *obj);
    gisa_status (*read)(void *obj, const char *name, const char *text, size_t len, gisa_diags *d);
    char *(*write)(const void *obj); /* malloc'd */
} fuzz_reader;

static inline int fuzz_roundtrip(const fuzz_reader *r, const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    data++;
    size--;
    void *obj = r->make(isa);
    char *before = r->write(obj);
    gisa_diags *d = gisa_diags_new();
    gisa_status st = r->read(obj, "fuzz.json", (const char *)data, size, d);
    char *after = r->write(obj);
    if (!before || !after)
        abort();
    if (st != GISA_OK) {
        if (strcmp(before, after) || gisa_diags_errors(d) == 0)
            abort(); /* an error must say why and change nothing */
    } else {
        void *again_obj = r->make(isa);
        if (r->read(again_obj, "again", after, strlen(after), d) != GISA_OK)
            abort();
        char *again = r->write(again_obj);
        if (!again || strcmp(after, again))
            abort();
        free(again);
        r->drop(again_obj);
    }
    free(before);
    free(after);
    gisa_diags_free(d);
    r->drop(obj);
    return 0;
}
#endif
