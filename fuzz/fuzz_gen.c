/* libFuzzer harness: the generator's option strings. Byte 0 picks the
 * target (fuzz_target.h), byte 1 the seed; the rest is lines "name=value"
 * handed to gisa_gen_set. Properties: a refused option says why and
 * changes nothing (the header comment of a program, which spells every
 * option's value, is the same after it as before); whatever options were
 * accepted, a generated program assembles
 * without a diagnostic to its words and runs from its state (with as many
 * warps as it has), and without it, without a fault (with --illegal-rate:
 * with the fault its second header line announces); a refused generation
 * says why. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"

#define COUNT 24

/* The text of a program of `count` instructions, or NULL with the reason in d */
static char *program(gisa_gen *g, uint64_t seed, size_t count, gisa_diags *d)
{
    if (gisa_gen_generate(g, seed, count, d) != GISA_OK) {
        if (gisa_diags_errors(d) == 0)
            abort(); /* a refusal must say why */
        return NULL;
    }
    size_t len;
    const char *t = api_gen_text(g, &len);
    char *copy = malloc(len + 1);
    if (!copy)
        abort();
    memcpy(copy, t, len + 1);
    return copy;
}

static void check_program(const gisa_isa *isa, gisa_gen *g)
{
    size_t n, len, nas;
    const gisa_word *w = api_gen_words(g, &n);
    const char *text = api_gen_text(g, &len);
    gisa_word *as = NULL;
    gisa_diags *d = api_diags();
    if (gisa_assemble(isa, "gen.s", text, len, NULL, &as, &nas, d) != GISA_OK || gisa_diags_count(d) || nas != n ||
        memcmp(as, w, n * sizeof *w))
        abort();
    gisa_free(as);
    /* the warps of the state (--warps), and the fault --illegal-rate announces */
    const char *st = api_gen_state(g, &len), *fault = strstr(text, "\n// expected fault: pc ");
    unsigned warps = 0;
    for (const char *p = st; (p = strstr(p, "\"active\"")) != NULL; p++)
        warps++;
    size_t fault_pc = fault ? (size_t)strtoull(fault + strlen("\n// expected fault: pc "), NULL, 10) : (size_t)-1;
    for (int with_state = 0; with_state < 2; with_state++) {
        gisa_sim *sim;
        if (gisa_sim_new(isa, gisa_gen_regs(g), warps ? warps : 1, &sim) != GISA_OK)
            abort();
        gisa_sim_set_threads(sim, 1);
        gisa_sim_load(sim, w, n);
        if (with_state && api_state_read(sim, "gen.json", st, len, d) != GISA_OK)
            abort();
        gisa_sim_fault f;
        gisa_status rs = gisa_sim_run(sim, &f);
        if (fault ? rs != GISA_ERR_SIM || f.pc != fault_pc : rs != GISA_OK)
            abort();
        gisa_sim_free(sim);
    }
    gisa_diags_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    uint64_t seed = data[1];
    gisa_gen *g;
    if (gisa_gen_new(isa, &g) != GISA_OK)
        abort();
    gisa_diags *d = api_diags();
    char *text = malloc(size - 1);
    if (!text)
        abort();
    memcpy(text, data + 2, size - 2);
    text[size - 2] = 0;
    char *line = text, *before = program(g, seed, 0, d);
    int lines = 0;
    while (line && lines++ < 16) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = 0;
            gisa_diags_clear(d);
            if (gisa_gen_set(g, line, eq + 1, d) == GISA_OK) {
                free(before);
                before = program(g, seed, 0, d);
            } else {
                char *after = program(g, seed, 0, d);
                if (gisa_diags_errors(d) == 0 || (before == NULL) != (after == NULL) ||
                    (before && strcmp(before, after)))
                    abort(); /* a refused option must say why and change nothing */
                free(after);
            }
        }
        line = next;
    }
    free(before);
    gisa_diags_clear(d);
    before = program(g, seed, COUNT, d);
    if (before)
        check_program(isa, g);
    free(before);
    free(text);
    gisa_diags_free(d);
    gisa_gen_free(g);
    return 0;
}
