/* libFuzzer harness: the coverage-file reader (gisa_cov_read_json). Byte 0
 * picks the target (fuzz_target.h), the rest is the JSON text. Properties:
 * bad input changes nothing (the written coverage equals the empty one)
 * and says why; good input round-trips (write, read into a fresh coverage,
 * write again: the same text). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"

static gisa_cov *fresh(const gisa_isa *isa)
{
    gisa_cov *c;
    if (gisa_cov_new(isa, &c) != GISA_OK)
        abort();
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    data++;
    size--;
    gisa_cov *c = fresh(isa);
    char *before = gisa_cov_write_json(c);
    gisa_diags *d = gisa_diags_new();
    gisa_status st = gisa_cov_read_json(c, "fuzz.json", (const char *)data, size, d);
    char *after = gisa_cov_write_json(c);
    if (!before || !after)
        abort();
    if (st != GISA_OK) {
        if (strcmp(before, after) || gisa_diags_errors(d) == 0)
            abort(); /* an error must say why and change nothing */
    } else {
        gisa_cov *t = fresh(isa);
        if (gisa_cov_read_json(t, "again", after, strlen(after), d) != GISA_OK)
            abort();
        char *again = gisa_cov_write_json(t);
        if (!again || strcmp(after, again))
            abort();
        free(again);
        gisa_cov_free(t);
    }
    free(before);
    free(after);
    gisa_diags_free(d);
    gisa_cov_free(c);
    return 0;
}
