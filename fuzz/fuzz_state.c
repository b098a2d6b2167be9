/* libFuzzer harness: the state-JSON reader. Byte 0 picks the target
 * (fuzz_target.h), the rest is the JSON text. Properties: bad input changes
 * nothing (the written state equals the initial one); good input round-trips
 * (write, read into a fresh simulator, write again: the same text). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"

static gisa_sim *fresh(const gisa_isa *isa)
{
    gisa_sim *s;
    if (gisa_sim_new(isa, 16, 2, &s) != GISA_OK)
        abort();
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    data++;
    size--;
    gisa_sim *s = fresh(isa);
    char *before = gisa_sim_state_write_json(s);
    gisa_diags *d = gisa_diags_new();
    gisa_status st = gisa_sim_state_read_json(s, "fuzz.json", (const char *)data, size, d);
    char *after = gisa_sim_state_write_json(s);
    if (!before || !after)
        abort();
    if (st != GISA_OK) {
        if (strcmp(before, after) || gisa_diags_errors(d) == 0)
            abort(); /* an error must say why and change nothing */
    } else {
        gisa_sim *t = fresh(isa);
        if (gisa_sim_state_read_json(t, "again", after, strlen(after), d) != GISA_OK)
            abort();
        char *again = gisa_sim_state_write_json(t);
        if (!again || strcmp(after, again))
            abort();
        free(again);
        gisa_sim_free(t);
    }
    free(before);
    free(after);
    gisa_diags_free(d);
    gisa_sim_free(s);
    return 0;
}
