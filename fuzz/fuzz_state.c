/* libFuzzer harness: the state-JSON reader (fuzz_roundtrip.h: bad input
 * changes nothing and says why; good input round-trips). */
#include "fuzz_roundtrip.h"

static void *make(const gisa_isa *isa)
{
    gisa_sim *s;
    if (gisa_sim_new(isa, 16, 2, &s) != GISA_OK)
        abort();
    return s;
}
static void drop(void *s) { gisa_sim_free(s); }
static gisa_status read_json(void *s, const char *name, const char *text, size_t len, gisa_diags *d)
{
    return gisa_sim_state_read_json(s, name, text, len, d);
}
static char *write_json(const void *s) { return gisa_sim_state_write_json(s); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const fuzz_reader r = {make, drop, read_json, write_json};
    return fuzz_roundtrip(&r, data, size);
}
