/* The property every harness of a saved-object reader checks (state files,
 * coverage files): a read that fails says why and changes nothing; a read
 * that succeeds gives an object whose text reads back, into a fresh object,
 * to the same text. Header-only: each harness is its own program. */
#ifndef GISA_FUZZ_READER_H
#define GISA_FUZZ_READER_H
#include <stdlib.h>
#include <string.h>

#include "gisa.h"

typedef struct fuzz_reader {
    void *(*fresh)(void *ctx);                /* a new, empty object (aborts on failure) */
    char *(*write)(const void *obj);          /* its text, malloc'd */
    gisa_status (*read)(void *obj, const char *name, const char *text, size_t len, gisa_diags *d);
    void (*release)(void *obj);
    void *ctx;
} fuzz_reader;

/* Reads text into obj and checks the property; returns the read's status
 * and, in *after, obj's text after it (free it). */
static inline gisa_status fuzz_check_reader(const fuzz_reader *r, void *obj, const char *text, size_t len,
                                            gisa_diags *d, char **after)
{
    char *before = r->write(obj);
    gisa_status st = r->read(obj, "fuzz.json", text, len, d);
    *after = r->write(obj);
    if (!before || !*after)
        abort();
    if (st != GISA_OK) {
        if (strcmp(before, *after) || gisa_diags_errors(d) == 0)
            abort(); /* an error must say why and change nothing */
    } else {
        void *t = r->fresh(r->ctx);
        if (r->read(t, "again", *after, strlen(*after), d) != GISA_OK)
            abort();
        char *again = r->write(t);
        if (!again || strcmp(*after, again))
            abort();
        free(again);
        r->release(t);
    }
    free(before);
    return st;
}
#endif
