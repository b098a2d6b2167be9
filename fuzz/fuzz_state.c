/* libFuzzer harness: the state-JSON reader and writer. Byte 0 picks the
 * target (fuzz_target.h), the rest is the JSON text. The simulator has as
 * many warps as the file's "warps" array (at most 8), else 2.
 * Properties: bad input changes nothing and says why; good input
 * round-trips (write, read into a fresh simulator, write again: the same
 * text), and so does the state written with registers as floats (the
 * --values form picked by the input's length): floats read back to the same
 * bits. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"
#include "fuzz_target.h"

static gisa_sim *fresh(const gisa_isa *isa, unsigned warps)
{
    gisa_sim *s;
    if (gisa_sim_new(isa, 16, warps, &s) != GISA_OK)
        abort();
    return s;
}

/* fuzz_reader's view of a simulator's state */
typedef struct shape {
    const gisa_isa *isa;
    unsigned warps;
} shape;
static void *new_sim(void *ctx) { return fresh(((shape *)ctx)->isa, ((shape *)ctx)->warps); }
static char *write_sim(const void *s) { return api_state_json(s); }
static gisa_status read_sim(void *s, const char *name, const char *text, size_t len, gisa_diags *d)
{
    return api_state_read(s, name, text, len, d);
}
static void free_sim(void *s) { gisa_sim_free(s); }

typedef struct text {
    char *s;
    size_t n;
} text;

static gisa_status append(void *user, const char *data, size_t n)
{
    text *t = user;
    char *p = realloc(t->s, t->n + n + 1);
    if (!p)
        abort();
    memcpy(p + t->n, data, n);
    t->s = p;
    t->n += n;
    p[t->n] = 0;
    return GISA_OK;
}

/* Written with `values`, read into a fresh simulator: the same hex text. */
static void check_floats(const gisa_isa *isa, const gisa_sim *s, const char *hex, gisa_state_values values)
{
    text t = {NULL, 0};
    if (gisa_sim_state_write(s, values, append, &t) != GISA_OK || !t.s)
        abort();
    gisa_sim *u = fresh(isa, gisa_sim_warps(s));
    gisa_diags *d = api_diags();
    if (api_state_read(u, "floats", t.s, t.n, d) != GISA_OK)
        abort();
    char *again = api_state_json(u);
    if (!again || strcmp(hex, again))
        abort();
    free(again);
    free(t.s);
    gisa_diags_free(d);
    gisa_sim_free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gisa_isa *isa = fuzz_take_target(&data, &size);
    if (!isa)
        return 0;
    gisa_diags *d = api_diags();
    gisa_state *st = NULL;
    unsigned warps = 2;
    if (gisa_state_parse("fuzz.json", (const char *)data, size, &st, d) == GISA_OK) {
        if (gisa_state_warps(st) > 8) {
            gisa_state_free(st);
            gisa_diags_free(d);
            return 0;
        }
        warps = gisa_state_warps(st) ? gisa_state_warps(st) : 2;
    } else if (gisa_diags_errors(d) == 0) {
        abort(); /* an error must say why */
    }
    gisa_state_free(st);
    shape sh = {isa, warps};
    const fuzz_reader r = {new_sim, write_sim, read_sim, free_sim, &sh};
    gisa_sim *s = fresh(isa, warps);
    char *after;
    if (fuzz_check_reader(&r, s, (const char *)data, size, d, &after) == GISA_OK)
        check_floats(isa, s, after, (gisa_state_values)(size % 5));
    free(after);
    gisa_diags_free(d);
    gisa_sim_free(s);
    return 0;
}
