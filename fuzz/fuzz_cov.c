/* libFuzzer harness: the coverage-file reader (gisa_cov_read_json). Byte 0
 * picks the target (fuzz_target.h), the rest is the JSON text. Properties:
 * bad input changes nothing (the written coverage equals the empty one)
 * and says why; good input round-trips (write, read into a fresh coverage,
 * write again: the same text). The same text as a bins file
 * (gisa_cov_load_bins): refused with a diagnostic and no bin added, or
 * read, and then the coverage still writes and reads back. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"
#include "fuzz_target.h"

static gisa_cov *fresh(const gisa_isa *isa)
{
    gisa_cov *c;
    if (gisa_cov_new(isa, &c) != GISA_OK)
        abort();
    return c;
}

static void *new_cov(void *isa) { return fresh(isa); }
static char *write_cov(const void *c) { return api_cov_json(c); }
static gisa_status read_cov(void *c, const char *name, const char *text, size_t len, gisa_diags *d)
{
    return gisa_cov_read_json(c, name, text, len, d);
}
static void free_cov(void *c) { gisa_cov_free(c); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gisa_isa *isa = fuzz_take_target(&data, &size);
    if (!isa)
        return 0;
    const fuzz_reader r = {new_cov, write_cov, read_cov, free_cov, (void *)isa};
    gisa_cov *c = fresh(isa);
    gisa_diags *d = api_diags();
    char *after;
    fuzz_check_reader(&r, c, (const char *)data, size, d, &after);
    free(after);
    gisa_cov *b = fresh(isa);
    gisa_diags_clear(d);
    gisa_status st = gisa_cov_load_bins(b, "fuzz.bins", (const char *)data, size, d);
    char *json = api_cov_json(b);
    if (st != GISA_OK && (gisa_diags_errors(d) == 0 || strstr(json, "\"user_bins\": {}") == NULL))
        abort(); /* refused without saying why, or half added */
    if (st == GISA_OK) {
        gisa_cov *back = fresh(isa);
        if (gisa_cov_read_json(back, "b.json", json, strlen(json), d) != GISA_OK)
            abort();
        gisa_cov_free(back);
    }
    free(json);
    gisa_cov_free(b);
    gisa_diags_free(d);
    gisa_cov_free(c);
    return 0;
}
