/* Robustness of the disassembler on arbitrary words (>= 1,000,000 per
 * target, 128 or 64 bits): it never crashes, always writes a NUL-terminated
 * string (also when the buffer is too small, with GISA_ERR_TRUNCATED exactly
 * when the text was cut), returns GISA_OK or
 * GISA_ERR_INPUT with text ".invalid 0x<the word in hex>", and every word it prints as valid
 * re-assembles to exactly the same bits (no encoding is printed that the
 * assembler cannot read back, e.g. a decoration the syntax does not allow).
 * A valid text is no longer than its form's bound (disasm/plan.h), and a
 * buffer of exactly its size (printing with checks for room) receives the
 * same text as a large one (printing without). gisa_disassemble(every
 * other word) gives the same text and status, and the text's length. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "disasm/plan.h"
#include "testgen.h"
#include "testlib.h"

#define NWORDS 1000000L
#define MAX_REPORT 25

static long reported;
static const gisa_isa *isa;

static void report(const char *what, gisa_word w, const char *text, const char *more)
{
    char hex[33];
    if (reported++ >= MAX_REPORT)
        return;
    tg_hex(isa, w, hex);
    fprintf(stderr, "  %s: %s\n    dis: %s\n    %s\n", what, hex, text, more ? more : "");
}

static void run_target(void)
{
    tg_rng r = {0xC0FFEE123456789u};
    long valid = 0, invalid = 0, bad_status = 0, bad_text = 0, bad_nul = 0, bad_asm = 0, bad_bits = 0, bad_decode = 0;
    long bad_bound = 0;
    long per_kind_valid[4] = {0};
    /* the valid words' opcode histogram, to show the mix reaches many opcodes */
    long *hits = calloc((size_t)isa->nopcodes, sizeof *hits);
    clock_t t0 = clock();
    for (long i = 0; i < NWORDS; i++) {
        gisa_word w;
        /* half fully random (kind 0); a quarter split between a real optype/stype
         * with random rest (1) and random bits in a real opcode's fields (2); a
         * quarter generated valid words with scrambled fields (3) */
        int kind = i % 4 < 2 ? 0 : i % 4 == 3 ? 3 : (i / 4) % 2 ? 1 : 2;
        w.w[0] = tg_next(&r);
        w.w[1] = isa->word_bits == 64 ? 0 : tg_next(&r);
        const isa_opcode *op = &isa->opcodes[tg_below(&r, (uint64_t)isa->nopcodes)];
        if (kind == 1) {
            /* a real opcode's fixed bits (optype/stype...), everything else random */
            for (int k = 0; k < 2; k++)
                w.w[k] = (w.w[k] & ~op->mask.w[k]) | op->match.w[k];
        } else if (kind == 2) {
            /* a real opcode's fixed bits; random bits only where its fields are */
            for (int k = 0; k < 2; k++)
                w.w[k] = (w.w[k] & op->covered.w[k] & ~op->mask.w[k]) | op->match.w[k];
        } else if (kind == 3) {
            /* a real opcode: fixed bits, and a random value in each of its fields only */
            tg_word g;
            const syntax_form *F = &op->forms[tg_below(&r, (uint64_t)op->nforms)];
            tg_generate(op, F, &r, 1000, &g);
            w = g.w;
            for (int f = 0; f < op->nfields; f++) /* then scramble some field to any bits */
                if (!op->fields[f].fixed && tg_below(&r, 6) == 0)
                    word_set(&w, op->fields[f].off, op->fields[f].width, tg_next(&r));
        }
        char buf[512];
        memset(buf, 0x55, sizeof buf);
        size_t cap = i % 97 == 0 ? 1 + (size_t)tg_below(&r, 40) : sizeof buf - 8; /* sometimes a tiny buffer */
        size_t told = (size_t)-1; /* gisa_disassemble's length, checked against the text */
        gisa_status s = i & 1 ? gisa_disassemble(isa, w, buf, cap, &told) : gisa_disassemble(isa, w, buf, cap, NULL);
        size_t len = strnlen(buf, cap);
        if (len >= cap || buf[cap] != 0x55) { /* no NUL within cap, or a write past cap */
            bad_nul++;
            report("not NUL-terminated within the buffer (or overflow)", w, "", NULL);
            continue;
        }
        if (i & 1 && told != len) {
            bad_status++;
            report("gisa_disassemble's length is not the text's", w, buf, NULL);
            continue;
        }
        if (s != GISA_OK && s != GISA_ERR_INPUT && s != GISA_ERR_TRUNCATED) {
            bad_status++;
            report("unexpected status", w, buf, gisa_status_str(s));
            continue;
        }
        if (cap < sizeof buf - 8) { /* cut exactly when the whole text does not fit */
            char whole[512];
            gisa_disassemble(isa, w, whole, sizeof whole, NULL);
            if ((s == GISA_ERR_TRUNCATED) != (strlen(whole) >= cap) || strncmp(whole, buf, strlen(buf))) {
                bad_status++;
                report("GISA_ERR_TRUNCATED not exactly when the text is cut", w, buf, gisa_status_str(s));
                continue;
            }
            s = gisa_disassemble(isa, w, whole, sizeof whole, NULL); /* the word's own status */
        }
        size_t oi = api_decode_opcode(isa, w);
        if (oi >= (size_t)isa->nopcodes && s == GISA_OK) {
            bad_decode++;
            report("valid text but gisa_decode_opcode finds no opcode", w, buf, NULL);
        }
        if (cap < sizeof buf - 8)
            continue; /* a truncated text is not checked further */
        if (s == GISA_ERR_INPUT) {
            char hex[33], want[48];
            invalid++;
            tg_hex(isa, w, hex);
            snprintf(want, sizeof want, ".invalid 0x%s", hex);
            if (strncmp(buf, want, strlen(want))) {
                bad_text++;
                report("invalid word printed without '.invalid 0x<word>'", w, buf, NULL);
            }
            continue;
        }
        valid++;
        per_kind_valid[kind]++;
        gisa_inst inst;
        char exact[512];
        size_t n = strlen(buf);
        if (gisa_decode(isa, w, &inst) || n > isa->dis->op[inst.opcode].forms[inst.form].bound) {
            bad_bound++;
            report("valid text longer than its form's bound", w, buf, NULL);
        } else if (gisa_disassemble(isa, w, exact, n + 1, NULL) != GISA_OK || strcmp(exact, buf)) {
            bad_bound++;
            report("a buffer of the text's size receives another text", w, buf, exact);
        }
        if (oi < (size_t)isa->nopcodes)
            hits[oi]++;
        gisa_word back;
        gisa_diags *d = api_diags();
        if (api_asm_one(isa, buf, &back, d) != GISA_OK) {
            char *m = gisa_diags_count(d) ? api_diag_text(gisa_diags_get(d, 0), 0) : NULL;
            bad_asm++;
            report("printed as valid but does not assemble", w, buf, m);
            free(m);
        } else if (!tg_word_eq(back, w)) {
            char hex[33];
            tg_hex(isa, back, hex);
            bad_bits++;
            report("printed as valid but re-assembles to other bits", w, buf, hex);
        }
        gisa_diags_free(d);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    int reached = 0;
    for (int k = 0; k < isa->nopcodes; k++)
        reached += hits[k] > 0;
    printf("random words (%s): %ld total, %ld valid (fully random %ld, real optype/stype %ld, random fields %ld, generated+scrambled %ld), "
           "%ld invalid, %d opcodes reached, %.1f s\n",
           isa->target_name, NWORDS, valid, per_kind_valid[0], per_kind_valid[1], per_kind_valid[2], per_kind_valid[3], invalid, reached, secs);
    printf("failures: status %ld, .invalid text %ld, NUL %ld, bound %ld, does not assemble %ld, other bits %ld\n", bad_status,
           bad_text, bad_nul, bad_bound, bad_asm, bad_bits);
    CHECK(bad_status == 0);
    CHECK(bad_text == 0);
    CHECK(bad_nul == 0);
    CHECK(bad_decode == 0);
    CHECK(bad_bound == 0);
    CHECKF(bad_asm == 0, "%ld valid-printed words do not assemble", bad_asm);
    CHECKF(bad_bits == 0, "%ld valid-printed words re-assemble to other bits", bad_bits);
    CHECKF(reached == isa->nopcodes, "only %d of %d opcodes reached", reached, isa->nopcodes);
    CHECKF(secs < 60, "took %.1f s (limit 60 s in a Release build)", secs);
    free(hits);
}

int main(void)
{
    for (size_t t = 0; t < gisa_target_count(); t++) {
        isa = test_isa_target(gisa_target_name(t));
        run_target();
    }
    return test_summary();
}
