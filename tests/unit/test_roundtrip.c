/* Property test generated from the instruction MODEL, not from a hand list:
 * for every opcode and every syntax form, random valid words (testgen.h)
 * must disassemble (GISA_OK), re-assemble to the same 128 bits, and print
 * the same canonical text again. Words that an __Exception forbids must be
 * rejected by the disassembler. Every opcode, form and encodable modifier
 * choice must be covered by at least one valid word. */
#include <stdlib.h>
#include <string.h>

#include "testgen.h"
#include "testlib.h"

#define WORDS_PER_FORM 400
#define MAX_REPORT 40 /* detailed failure lines printed, per kind */

typedef struct counts {
    long valid, exception, fail_dis, fail_asm, fail_bits, fail_text, fail_exc_accepted;
} counts;

static int reported;

static const gisa_isa *cur_isa;

static void report(const char *what, const isa_opcode *op, gisa_word w, const char *t1, const char *t2)
{
    char hex[33];
    if (reported++ >= MAX_REPORT)
        return;
    tg_hex(cur_isa, w, hex);
    fprintf(stderr, "  %s: %s word %s\n    dis:  %s\n    then: %s\n", what, op->name, hex, t1, t2 ? t2 : "");
}

/* One generated word through dis -> asm -> dis. Returns 1 when it round-trips. */
static int roundtrip(const gisa_isa *isa, const isa_opcode *op, gisa_word w, counts *c)
{
    char t1[512], t2[512];
    gisa_status s = gisa_disassemble(isa, w, t1, sizeof t1, NULL);
    if (s != GISA_OK) {
        c->fail_dis++;
        report("valid word rejected by the disassembler", op, w, t1, NULL);
        return 0;
    }
    gisa_diags *d = api_diags();
    gisa_word back;
    s = api_asm_one(isa, t1, &back, d);
    if (s != GISA_OK) {
        char *m = gisa_diags_count(d) ? api_diag_text(gisa_diags_get(d, 0), 0) : NULL;
        c->fail_asm++;
        report("canonical text does not assemble", op, w, t1, m ? m : "?");
        free(m);
        gisa_diags_free(d);
        return 0;
    }
    gisa_diags_free(d);
    if (!tg_word_eq(back, w)) {
        char hex[33];
        tg_hex(isa, back, hex);
        c->fail_bits++;
        report("re-assembled bits differ", op, w, t1, hex);
        return 0;
    }
    gisa_disassemble(isa, back, t2, sizeof t2, NULL);
    if (strcmp(t1, t2)) {
        c->fail_text++;
        report("text not canonical", op, w, t1, t2);
        return 0;
    }
    return 1;
}

/* Every opcode and form of one target's model. */
static void run_target(const gisa_isa *isa)
{
    tg_rng r = {0x5EED0001};
    counts total = {0};
    long generator_bugs = 0, uncovered = 0, exception_only = 0;
    cur_isa = isa;
    for (int oi = 0; oi < isa->nopcodes; oi++) {
        const isa_opcode *op = &isa->opcodes[oi];
        counts c = {0};
        CHECKF(op->nfields <= TG_MAXF, "%s has %d fields", op->name, op->nfields);
        CHECKF(op->nforms >= 1, "%s has no syntax form", op->name);
        for (int fi = 0; fi < op->nforms; fi++) {
            const syntax_form *F = &op->forms[fi];
            /* coverage: [slot][choice] tried / valid */
            int tried[TG_MAXMODS][64] = {{0}}, valid[TG_MAXMODS][64] = {{0}};
            long form_valid = 0, form_exc = 0;
            for (int i = 0; i < WORDS_PER_FORM; i++) {
                tg_word g;
                tg_generate(op, F, &r, i, &g);
                if (!g.mask_ok) {
                    generator_bugs++;
                    CHECKF(g.mask_ok, "%s form %d: generated word violates the form's mask/match", op->name, fi);
                    continue;
                }
                CHECKF(api_decode_opcode(isa, g.w) == (size_t)oi, "%s: decode_opcode gives %zu", op->name,
                       api_decode_opcode(isa, g.w));
                for (int j = 0; j < F->nmods && j < TG_MAXMODS; j++)
                    if (g.pick[j] >= 0 && g.pick[j] < 64)
                        tried[j][g.pick[j]]++;
                if (g.exception >= 0) {
                    /* an __Exception makes the encoding illegal: it must not print as valid */
                    char t[512];
                    c.exception++;
                    form_exc++;
                    if (gisa_disassemble(isa, g.w, t, sizeof t, NULL) == GISA_OK) {
                        c.fail_exc_accepted++;
                        report("word forbidden by an __Exception disassembles as valid", op, g.w, t, NULL);
                    }
                    continue;
                }
                if (roundtrip(isa, op, g.w, &c)) {
                    c.valid++;
                    form_valid++;
                    for (int j = 0; j < F->nmods && j < TG_MAXMODS; j++)
                        if (g.pick[j] >= 0 && g.pick[j] < 64)
                            valid[j][g.pick[j]]++;
                }
            }
            if (!form_valid && form_exc == WORDS_PER_FORM) {
                exception_only++; /* e.g. MOV_I with MOV.64: every word is an EncodingError */
                printf("note: %s form '%s': all %d words are forbidden by __Exception\n", op->name, F->text, WORDS_PER_FORM);
                continue;
            }
            for (int j = 0; j < F->nmods && j < TG_MAXMODS; j++) {
                const mod_slot *m = &F->mods[j];
                if (m->field < 0)
                    continue; /* not encodable: nothing to generate */
                for (int k = 0; k < m->nchoices && k < 64; k++) {
                    CHECKF(tried[j][k] > 0, "%s form %d: choice .%s of .%s never generated", op->name, fi,
                           m->choices[k].spell, m->name);
                    if (tried[j][k] && !valid[j][k]) {
                        uncovered++;
                        fprintf(stderr, "  %s form %d: choice .%s of .%s: %d tried, none round-tripped\n", op->name, fi,
                                m->choices[k].spell, m->name, tried[j][k]);
                    }
                }
            }
        }
        long bad = c.fail_dis + c.fail_asm + c.fail_bits + c.fail_text + c.fail_exc_accepted;
        CHECKF(bad == 0, "%s: %ld valid, %ld exception; failures: dis %ld, asm %ld, bits %ld, text %ld, exception accepted %ld",
               op->name, c.valid, c.exception, c.fail_dis, c.fail_asm, c.fail_bits, c.fail_text, c.fail_exc_accepted);
        CHECKF(c.valid > 0 || bad, "%s: no valid word generated", op->name);
        total.valid += c.valid;
        total.exception += c.exception;
        total.fail_dis += c.fail_dis;
        total.fail_asm += c.fail_asm;
        total.fail_bits += c.fail_bits;
        total.fail_text += c.fail_text;
        total.fail_exc_accepted += c.fail_exc_accepted;
    }
    CHECKF(uncovered == 0, "%ld modifier choices without a round-tripping word", uncovered);
    CHECK(generator_bugs == 0);
    printf("round-trip %s: %d opcodes, %ld valid words round-tripped, %ld skipped by __Exception (%ld forms exception-only); "
           "failures: dis %ld, asm %ld, bits %ld, text %ld, exception accepted %ld\n",
           isa->target_name, isa->nopcodes, total.valid, total.exception, exception_only, total.fail_dis, total.fail_asm,
           total.fail_bits, total.fail_text, total.fail_exc_accepted);
}

int main(void)
{
    /* every target; test_loader pins how many opcodes each has */
    for (size_t t = 0; t < gisa_target_count(); t++)
        run_target(test_isa_target(gisa_target_name(t)));
    return test_summary();
}
