/* libFuzzer harness: the coverage-file reader, gisa_cov_read_json
 * (fuzz_roundtrip.h: bad input changes nothing and says why; good input
 * round-trips). */
#include "fuzz_roundtrip.h"

static void *make(const gisa_isa *isa)
{
    gisa_cov *c;
    if (gisa_cov_new(isa, &c) != GISA_OK)
        abort();
    return c;
}
static void drop(void *c) { gisa_cov_free(c); }
static gisa_status read_json(void *c, const char *name, const char *text, size_t len, gisa_diags *d)
{
    return gisa_cov_read_json(c, name, text, len, d);
}
static char *write_json(const void *c) { return gisa_cov_write_json(c); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const fuzz_reader r = {make, drop, read_json, write_json};
    return fuzz_roundtrip(&r, data, size);
}
