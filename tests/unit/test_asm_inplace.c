/* The assembler parses a line where it lies in the source when the line
 * ends in a newline with ASM_PAD bytes after it (the lexer reads numbers a
 * word at a time), and a NUL-padded copy otherwise (the last lines, lines
 * with comments or NULs). A line that starts with a name or '@' and has no
 * '/' close ahead is first parsed before its end is known (the parser finds
 * the newline). All must give the same words and the same diagnostics.
 * Property test: lines from the model's generated instructions and
 * hand-written awkward ones, each cut at every position (so that the line
 * ends inside every construct of the lexer), assembled
 *   - alone (a copy),
 *   - followed by a newline and a comment line of digits and letters (in
 *     place: what the lexer may read past the line must not matter),
 *   - followed by a newline and an instruction line without '/' (the
 *     parser finds the end: it must stop at the newline; the words are
 *     those of the line alone and the next line's word).
 */
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "testgen.h"
#include "testlib.h"

/* what follows the line in place: more than ASM_PAD bytes after its newline */
static const char tail[] = "\n//0123456789 abcdef ABCDEF _.|-$x\n";
/* a valid line, more than ASM_PAD bytes, no '/': its word is next_word */
static const char then_line[] = "\n@!P1 FFMA.RZ R1, -|R2|, c[0x1][0x10], R3 $sched=1 $req=2\n";
static gisa_word next_word;

/* The outcome of assembling text: status, words and formatted diagnostics;
 * plus_next: the text ends in then_line, whose word (when there is one) is
 * left out. */
static char *outcome(const gisa_isa *isa, const char *text, size_t len, int plus_next)
{
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(isa, "t.s", text, len, NULL, &w, &n, d);
    if (plus_next && st == GISA_OK && (n == 0 || memcmp(&w[n - 1], &next_word, sizeof next_word)))
        st = (gisa_status)-100; /* the next line's word is missing: differs from any outcome alone */
    n -= plus_next && st == GISA_OK;
    size_t cap = 256 + 40 * n, used = 0;
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        char *s = api_diag_text(gisa_diags_get(d, i), 1);
        cap += s ? strlen(s) + 1 : 0;
        free(s);
    }
    char *out = malloc(cap);
    if (!out)
        abort();
    used += (size_t)snprintf(out, cap, "status %d, %zu words\n", (int)st, n);
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(out + used, cap - used, "%016llx%016llx\n", (unsigned long long)w[i].w[1],
                                 (unsigned long long)w[i].w[0]);
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        char *s = api_diag_text(gisa_diags_get(d, i), 1);
        used += (size_t)snprintf(out + used, cap - used, "%s\n", s ? s : "?");
        free(s);
    }
    free(w);
    gisa_diags_free(d);
    return out;
}

static long compared, differ;

/* Every cut of the line, alone and followed by the tail. */
static void check_line(const gisa_isa *isa, const char *line)
{
    size_t n = strlen(line);
    char *buf = malloc(n + sizeof tail + sizeof then_line);
    if (!buf)
        abort();
    for (size_t cut = 1; cut <= n; cut++) {
        memcpy(buf, line, cut);
        char *alone = outcome(isa, buf, cut, 0);
        memcpy(buf + cut, tail, sizeof tail - 1);
        char *in_place = outcome(isa, buf, cut + sizeof tail - 1, 0);
        memcpy(buf + cut, then_line, sizeof then_line - 1);
        char *found_end = outcome(isa, buf, cut + sizeof then_line - 1, 1);
        compared++;
        if (strcmp(alone, in_place) || strcmp(alone, found_end)) {
            if (differ++ < 5)
                fprintf(stderr, "line '%.*s':\n--- copied\n%s--- in place\n%s--- end found by the parser\n%s", (int)cut, line,
                        alone, in_place, found_end);
        }
        free(alone);
        free(in_place);
        free(found_end);
    }
    free(buf);
}

static const char *const awkward[] = {
    "@!P3 FADD.FTZ.RZ R1, -|R2|, c[0x2][0x10] $sched=3 $req=7 $wsb=1",
    "  FFMA R0 , R1 ,-R2 , RZ   ",
    "DADD R[2:3], R[4:5], -1.5e-3",
    "HADD2 R1, R2.H1_H0, -1, 0.5",
    "MOV R1, R[UR2+0x10]",
    "IADD.X R1, ~R2, ~c[0x1][0x4], P3",
    "FADD R1, R2, |R3",
    "FADD R1, R2, R3 junk",
    "FADD R1, R2, c[0x1",
    "FADD R1, R2, c[0x1][",
    "FADD R1, R2, 0f3F80000",
    "FADD R1, R2, R3 $sched",
    "FADD R1, R2, R3 $sched=",
    "FADD R1, R2, R3 $unknown=1",
    "FADD.RX R1, R2, R3",
    "FADD R1, R2, R3, R4, R5",
    "@ FADD R1, R2, R3",
    "FADD R1, R2, R3 ; FMUL R4, R5, R6",
    "FADD R1, R2, R3\r",
    "\tFADD\tR1,\tR2,\tR3",
    "R2P PR, R1.B1, 0x7f",
    "ISETP.GE.U32.AND P0, PT, R1, 0x10, !P2",
};

int main(void)
{
    const gisa_isa *isa = test_isa();
    CHECK(sizeof tail - 2 > ASM_PAD);
    CHECK(sizeof then_line - 2 > ASM_PAD);
    CHECK(api_asm_one(isa, then_line + 1, &next_word, NULL) == GISA_OK);
    for (size_t i = 0; i < sizeof awkward / sizeof *awkward; i++)
        check_line(isa, awkward[i]);
    /* a few generated instructions per opcode, as the disassembler prints them */
    tg_rng r = {0x1A9CE};
    for (int oi = 0; oi < isa->nopcodes; oi++) {
        const isa_opcode *op = &isa->opcodes[oi];
        for (int fi = 0; fi < op->nforms && op->nfields <= TG_MAXF; fi++) {
            tg_word g;
            tg_generate(op, &op->forms[fi], &r, 7, &g);
            char text[512];
            if (g.mask_ok && g.exception < 0 && gisa_disassemble(isa, g.w, text, sizeof text, NULL) == GISA_OK)
                check_line(isa, text);
        }
    }
    CHECKF(differ == 0, "%ld of %ld cut lines assemble differently in place", differ, compared);
    printf("%ld cut lines compared\n", compared);
    return test_summary();
}
