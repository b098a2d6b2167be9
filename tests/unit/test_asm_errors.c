/* Assembler diagnostics: each bad line gives one error in the format
 * `<input>:1:COL: error: MESSAGE`, the caret (col/length) under the
 * offending text, and a message that names the actual problem (a misaligned
 * constant must not be reported as "cannot be a constant-memory operand").
 * Also: several errors in one text, the diagnostics limit, comments, ';'
 * separated statements and the $sched/$req/$wsb controls. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

typedef struct err_case {
    const char *src;
    int col, len;          /* expected caret; 0 = not checked */
    const char *needle[4]; /* every one must occur in the message */
    const char *why;
} err_case;

/* Regressions guarded here (all fixed): on mnemonics whose forms have
 * optional operand groups (IADD, IMAD, FSETP, DSETP, HSET2, ...) a
 * misaligned c[][], an inexact F64Imm or an out-of-range F16/SImm32 literal
 * got a "SrcB cannot be ..." message of another candidate opcode (the last
 * group of cases); HADD2.RP repeated "can be written)" once per candidate
 * (check_case rejects a repeated message); |-R2| encoded as -|R2| (main). */
static const err_case cases[] = {
    {"FADD R0, R1, P0", 14, 2, {"<input>:1:14: error: FADD: SrcB cannot be a predicate; expected ", "R, UR", "c[][]", "a float immediate"}, "kind list"},
    {"FFMA.RX R0, R1, R2, R3", 5, 3, {"<input>:1:5: error: unknown modifier .RX for FFMA; did you mean .R"}, "suggestion"},
    {"LEA R0, R1, R2, 40", 17, 2, {"<input>:1:17: error: UImm5 out of range: 40 (0..31)"}, "UImm5 range"},
    {"FAD R0, R1, R2", 1, 3, {"<input>:1:1: error: unknown instruction 'FAD'; did you mean FADD?"}, "mnemonic typo"},
    {"HADD2.BF16_V2.FTZ R0, R1, R2", 1, 0, {"error: HADD2", "BF16_V2", ".FTZ"}, "__Exception"},
    {"HMUL2.BF16_V2.SAT R0, R1, R2", 1, 0, {"error: HMUL2", "BF16_V2", ".SAT"}, "__Exception"},
    {"MOV.64 R[0:1], 0x1", 1, 0, {"error: MOV", ".64"}, "MOV.64 with an immediate"},
    {"HFMA2.SAT.RELU R0, R1, R2, R3", 1, 0, {"error: HFMA2", ".SAT and .RELU are mutually exclusive"}, "ruling"},
    {"HADD2.RP R0, R1, R2", 6, 3, {"error: HADD2: .RP cannot be encoded", "no encoding field for .rnd", "only the default .RN"}, "HALU rnd"},
    {"HADD2.F32 R0, R1, R2", 6, 4, {"error: HADD2: .F32 cannot be encoded", "no encoding field"}, "HADD2 .F32"},
    {"DADD R[1:2], R[2:3], R[4:5]", 6, 6, {"<input>:1:6: error: invalid register pair R[1:2]", "even"}, "odd pair"},
    {"DADD R3, R[2:3], R[4:5]", 6, 2, {"<input>:1:6: error: DADD: Rd is a 64-bit pair and needs an even register"}, "odd shorthand"},
    {"DADD R[254:255], R[2:3], R[4:5]", 6, 10, {"invalid register pair"}, "pair with RZ"},
    {"FADD R0, R1, c[0x0][0x2]", 14, 11, {"<input>:1:14: error: ", "constant offset 0x2", "4-byte aligned"}, "misaligned cmem"},
    {"DADD R[0:1], R[2:3], c[0x0][0x4]", 22, 11, {"constant offset 0x4", "8-byte aligned"}, "64-bit cmem alignment"},
    {"FADD R0, R1, c[0x40][0x4]", 14, 12, {"constant bank out of range: 0x40"}, "cmem bank"},
    {"DADD R[0:1], R[2:3], 0.1", 22, 3, {"DADD: 0.1 is not exact in F64Imm", "low 32 bits must be 0"}, "F64Imm low bits"},
    {"HADD2 R0, R1, 70000, 1", 15, 5, {"F16 immediate out of range: 70000"}, "F16 range"},
    {"IADD.X R0, P0, R2, -R4", 20, 1, {"<input>:1:20: error: IADD: with .X the operand is complemented: write '~"}, "CvtINegX"},
    {"IADD R0, R2, ~R4", 14, 1, {"'~' (bitwise not) is only valid with .X"}, "CvtINegX"},
    {"FADD R0, R1, R2 $wsb=1", 17, 4, {"FADD does not take $wsb"}, "$wsb only where the syntax has it"},
    {"DADD R[0:1], R[2:3], R[4:5] $sched=32", 29, 6, {"$sched out of range: 32 (0..31)"}, "$sched is 5 bits"},
    {"FADD R0, R1, R2 $foo=1", 17, 4, {"unknown scheduling control"}, "control name"},
    {"FADD R0, R1", 0, 0, {"too few operands"}, "arity"},
    {"FADD R0, R1, R2, R3", 18, 2, {"too many operands"}, "arity"},
    {"FADD R0, R1, R255", 14, 4, {"register R255 out of range"}, "register range"},
    {"FADD R0, R1, -R2.H0_H0", 0, 0, {"takes no .H0_H0 suffix"}, "suffix"},
    {"FSET.LE.AND R0, R4, R6", 0, 0, {"too few operands: expected pp"}, "pp is required"},
    {"IMAD.U32 R0, P0, R2, 0x114514, R4, ;", 36, 1, {"expected an operand"}, "trailing comma"},
    {"FFMA R0, R1, 0f405A7EFA, c[0x0][0x100]", 26, 13, {"SrcC cannot be a constant-memory operand"}, "no RIC form"},
    {"@P9 FADD R0, R1, R2", 1, 0, {"expected a predicate"}, "guard"},
    {"FADD.RZ.RZ R0, R1, R2", 8, 3, {"conflicts"}, "duplicate modifier"},
    {"IMAD.HI R0, R1, R2, R3", 1, 7, {"IMAD requires .X"}, "IMAD: only .LO and .HI.X (rulings)"},
    {"IMAD.X R0, R1, R2, R3", 1, 6, {"IMAD requires .HI"}, "IMAD: only .LO and .HI.X (rulings)"},
    {"LEA.SX32 R0, R1, R2, 0x1", 1, 8, {"LEA requires .HI"}, "LEA forms"},
    {"ISETP.LT.AND.EX P0, R1, R2, PT", 13, 3, {"unknown modifier .EX for ISETP"}, "syntax spelling .X, not .EX"},
    {"SHF.L.C R0, R1, R2, R3", 6, 2, {"unknown modifier .C for SHF"}, "syntax spelling .CLAMP, not .C"},
    {"IDP2A.S16.S8 R0, R1, R2, R3", 1, 5, {"unknown instruction 'IDP2A'; did you mean IDP.2A?"}, "syntax spelling IDP.2A"},
    {"IMAD_WIDE R[0:1], R2, R3, R[4:5]", 1, 9, {"did you mean IMAD.WIDE?"}, "syntax spelling IMAD.WIDE"},
    {"IDP.4A.S8 R0, R1, R2, R3", 1, 9, {"IDP.4A requires .bfmt"}, "required modifier"},
    {"I2I R0, R1", 1, 3, {"I2I requires .dtype: one of .S8, .U8, .S16, .U16"}, "required modifier"},
    {"MOV.32 R[0:1], R2", 8, 6, {"a register pair is not allowed here"}, "pair in a 32-bit operand"},
    {"R2UR UR63, R0", 6, 4, {"register UR63 out of range (UR0..UR62 or URZ)"}, "UR range"},
    /* the same checks on forms with optional operand groups ({pv,} {, pp}) */
    {"FSETP.LT.AND P0, R1, c[0x0][0x2]", 22, 11, {"constant offset 0x2 is not 4-byte aligned"}, "misaligned cmem"},
    {"DSETP.LT P0, R[2:3], 0.1", 22, 3, {"0.1 is not exact in F64Imm"}, "F64Imm low bits"},
    {"HSET2.EQ.AND R0, R1, 70000, 1", 22, 5, {"F16 immediate out of range: 70000"}, "F16 range"},
    {"IMAD R0, R1, R2, 0x100000000", 18, 11, {"SImm32 out of range"}, "SImm32 range"},
    {"FADD R0, R1, 3.5e38", 14, 6, {"out of range: 3.5e38"}, "finite F32 literal that rounds to inf"},
    {"HADD2.BF16_V2 R0, R1, 0.1, 3.4e38", 28, 6, {"BF16 immediate out of range: 3.4e38"}, "BF16 range"},
    {"IADD R0, R1, 0x100000000", 14, 11, {"SImm32 out of range"}, "SImm32 range"},
    {"IADD R0, R1, -0x80000001", 14, 11, {"SImm32 out of range"}, "SImm32 range"},
    {"FADD R0, R1, UR63", 14, 4, {"UR63 out of range"}, "UR range (URZ is 63)"},
    {"FSEL R0, R1, R2, P7", 18, 2, {"register P7 out of range (P0..P6 or PT)"}, "predicate range"},
    {"LOP3 R0, R1, R2, R3, 0x100, PT", 22, 5, {"UImm8 out of range: 0x100 (0..255)"}, "UImm8 range"},
    {"GETGPR R0, R[UR2+0x100]", 12, 12, {"SImm9 out of range: 256 (-256..255)"}, "SImm9 range"},
};

static void check_case(const gisa_isa *isa, const err_case *c)
{
    gisa_diags *d = api_diags();
    gisa_word w;
    gisa_status s = api_asm_one(isa, c->src, &w, d);
    CHECKF(s == GISA_ERR_INPUT, "%s: assembled (status %d), expected an error (%s)", c->src, (int)s, c->why);
    CHECKF(gisa_diags_errors(d) == 1, "%s: %zu errors", c->src, gisa_diags_errors(d));
    if (!gisa_diags_count(d)) {
        gisa_diags_free(d);
        return;
    }
    const gisa_diag *g = gisa_diags_get(d, 0);
    char *m = api_diag_text(g, 0);
    for (int k = 0; k < 4 && c->needle[k]; k++)
        CHECKF(strstr(m, c->needle[k]) != NULL, "%s (%s):\n    message: %s\n    missing: %s", c->src, c->why, m, c->needle[k]);
    CHECKF(!strncmp(m, "<input>:1:", 10), "%s: format: %s", c->src, m);
    if (c->col)
        CHECKF(g->col == c->col, "%s: caret column %d, expected %d (%s)", c->src, g->col, c->col, m);
    if (c->len)
        CHECKF(g->length == c->len, "%s: caret length %d, expected %d (%s)", c->src, g->length, c->len, m);
    /* a message must not repeat itself (it did: "... can be written) can be written)") */
    const char *dup = strstr(m, ") can be written");
    CHECKF(!dup || !strstr(dup + 1, ") can be written"), "%s: garbled message: %s", c->src, m);
    /* with the source: the line and a caret under column col */
    char *full = api_diag_text(g, 1);
    char caret[256];
    int n = 0;
    for (int i = 1; i < g->col && n < 200; i++)
        caret[n++] = ' ';
    caret[n++] = '^';
    for (int i = 1; i < g->length && n < 250; i++)
        caret[n++] = '~';
    caret[n] = 0;
    const char *nl = strchr(full, '\n');
    CHECKF(nl && !strncmp(nl + 1, c->src, strlen(c->src)) && !strcmp(strrchr(full, '\n') + 1, caret),
           "%s: source/caret lines wrong:\n%s", c->src, full);
    free(full);
    free(m);
    gisa_diags_free(d);
}

static gisa_status assemble(const gisa_isa *isa, const char *text, gisa_word **w, size_t *n, gisa_diags *d)
{
    return gisa_assemble(isa, "t.s", text, strlen(text), NULL, w, n, d);
}

static uint64_t bits(gisa_word w, int off, int width)
{
    uint64_t v = off >= 64 ? w.w[1] >> (off - 64) : w.w[0] >> off;
    return v & ((UINT64_C(1) << width) - 1);
}

int main(void)
{
    const gisa_isa *isa = test_isa();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_case(isa, &cases[i]);

    /* positive controls for the error cases above */
    static const char *const ok[] = {"DADD R[0:1], R[2:3], c[0x0][0x8]", "DADD R[0:1], R[2:3], 0.5",
                                     "HADD2 R0, R1, 65504, 1", "FADD R0, R1, c[0x3f][0xfffc]", "IADD.X R0, R2, ~R4",
                                     "HADD2.RN R0, R1, R2", "LEA R0, R1, R2, 31", "FADD R0, R1, R254"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        gisa_diags *d = api_diags();
        gisa_word w;
        CHECKF(api_asm_one(isa, ok[i], &w, d) == GISA_OK, "%s should assemble", ok[i]);
        test_dump_diags(d);
        gisa_diags_free(d);
    }

    /* |-R2| is |R2| (abs of a negation), never -|R2| (negation of an abs) */
    {
        gisa_word a, b, c;
        gisa_diags *d = api_diags();
        int ok = api_asm_one(isa, "FADD R0, R1, |-R2|", &a, d) == GISA_OK;
        CHECK(api_asm_one(isa, "FADD R0, R1, -|R2|", &b, d) == GISA_OK);
        CHECK(api_asm_one(isa, "FADD R0, R1, |R2|", &c, d) == GISA_OK);
        CHECKF(!ok || (a.w[0] == c.w[0] && a.w[1] == c.w[1]),
               "'FADD R0, R1, |-R2|' assembles to %016llx%016llx = -|R2| (%s); expected an error or |R2|",
               (unsigned long long)a.w[1], (unsigned long long)a.w[0], a.w[1] == b.w[1] && a.w[0] == b.w[0] ? "same" : "other");
        gisa_diags_free(d);
    }
    /* GISA_ASM_ONE: exactly one statement; a NULL diagnostics list is allowed */
    {
        gisa_word w;
        gisa_diags *d = api_diags();
        CHECK(api_asm_one(isa, "FADD R0, R1, R2 ; FADD R0, R1, R2", &w, d) == GISA_ERR_INPUT);
        CHECK(test_diags_contain(d, "exactly one"));
        gisa_diags_clear(d);
        CHECK(api_asm_one(isa, "  // nothing\n", &w, d) == GISA_ERR_INPUT);
        gisa_diags_free(d);
        CHECK(api_asm_one(isa, "FAD R0, R1, R2", &w, NULL) == GISA_ERR_INPUT);
        CHECK(api_asm_one(isa, "FADD R0, R1, R2", &w, NULL) == GISA_OK);
    }
    /* five bad lines among good ones: five errors, right line numbers, no words */
    {
        const char *text = "FADD R0, R1, R2\n"
                           "FAD R0, R1, R2\n"            /* 2 */
                           "FMUL R0, R1, R2\n"
                           "FADD R0, R1, P0\n"           /* 4 */
                           "LEA R0, R1, R2, 40\n"        /* 5 */
                           "\n"
                           "DADD R3, R[2:3], R[4:5]\n"   /* 7 */
                           "FFMA R0, R1, R2, R3 ; FFMA.RX R0, R1, R2, R3\n"; /* 8 */
        static const int lines[] = {2, 4, 5, 7, 8};
        gisa_diags *d = api_diags();
        gisa_word dummy, *w = &dummy; /* must come back NULL */
        size_t n = 99;
        CHECK(assemble(isa, text, &w, &n, d) == GISA_ERR_INPUT);
        CHECK(w == NULL && n == 0);
        CHECKF(gisa_diags_errors(d) == 5, "%zu errors", gisa_diags_errors(d));
        for (size_t i = 0; i < 5 && i < gisa_diags_count(d); i++) {
            const gisa_diag *g = gisa_diags_get(d, i);
            CHECKF(g->line == lines[i] && !strcmp(g->file, "t.s"), "error %zu on line %d (%s)", i, g->line, g->message);
        }
        CHECK(gisa_diags_count(d) == 5 && gisa_diags_get(d, 4)->col == 27); /* .RX in the second statement of line 8 */
        gisa_diags_free(d);
    }
    /* the diagnostics limit: 3 stored of 10, the rest counted as dropped */
    {
        char text[400] = "";
        for (int i = 0; i < 10; i++)
            strcat(text, "FAD R0, R1, R2\n");
        gisa_diags *d = api_diags();
        gisa_diags_set_limit(d, 3);
        gisa_word *w = NULL;
        size_t n = 0;
        CHECK(assemble(isa, text, &w, &n, d) == GISA_ERR_INPUT);
        CHECK(w == NULL);
        CHECKF(gisa_diags_count(d) == 3, "%zu stored", gisa_diags_count(d));
        CHECKF(gisa_diags_dropped(d) > 0, "%zu dropped", gisa_diags_dropped(d));
        gisa_diags_free(d);
    }
    /* comments, ';'-separated statements and scheduling controls */
    {
        const char *text = "// a comment line\n"
                           "FADD R1, R2, R3 /* inline */ ; FMUL R4, R5, R6 // trailing\n"
                           "/* a comment\n"
                           "   over FADD R0, R0, R0 ; lines */ DADD R[0:1], R[2:3], R[4:5] $sched=3 $req=0x1 $wsb=2\n"
                           "DMUL R[0:1], R[2:3], R[4:5] $wsb=7; DFMA R[0:1], R[2:3], R[4:5], R[6:7] $wsb=1\n"
                           "DMNMX R[0:1], R[2:3], R[4:5], P0 $wsb=3 ; DSETP.LT P0, R[2:3], R[4:5] $wsb=4\n"
                           "R2UR UR1, R2 $sched=31 $req=63 $wsb=5 ; FADD R0, R1, R2 $sched=1 $req=2\n";
        gisa_diags *d = api_diags();
        gisa_word *w = NULL;
        size_t n = 0;
        CHECK(assemble(isa, text, &w, &n, d) == GISA_OK);
        test_dump_diags(d);
        CHECKF(n == 9, "%zu words", n);
        if (n == 9) {
            CHECK(bits(w[0], 0, 8) == 0x10 && bits(w[0], 16, 8) == 1 && bits(w[0], 24, 8) == 2 && bits(w[0], 32, 8) == 3);
            CHECK(bits(w[1], 0, 8) == 0x11 && bits(w[1], 16, 8) == 4);
            CHECK(bits(w[2], 0, 8) == 0x20 && bits(w[2], 112, 5) == 3 && bits(w[2], 117, 6) == 1 && bits(w[2], 123, 3) == 2);
            CHECK(bits(w[3], 0, 8) == 0x21 && bits(w[3], 123, 3) == 7 && bits(w[3], 112, 11) == 0);
            CHECK(bits(w[4], 0, 8) == 0x22 && bits(w[4], 123, 3) == 1);
            CHECK(bits(w[5], 0, 8) == 0x23 && bits(w[5], 123, 3) == 3);
            CHECK(bits(w[6], 0, 8) == 0x24 && bits(w[6], 123, 3) == 4);
            CHECK(bits(w[7], 0, 8) == 0x55 && bits(w[7], 112, 5) == 31 && bits(w[7], 117, 6) == 63 && bits(w[7], 123, 3) == 5);
            CHECK(bits(w[8], 0, 8) == 0x10 && bits(w[8], 112, 5) == 1 && bits(w[8], 117, 6) == 2 && bits(w[8], 123, 3) == 0);
            for (size_t i = 0; i < n; i++)
                CHECKF(bits(w[i], 126, 2) == 0, "word %zu sets reserved bits", i);
        }
        free(w);
        gisa_diags_free(d);
    }
    /* tabs and CRLF line ends; the caret keeps a tab so that it lines up */
    {
        gisa_diags *d = api_diags();
        gisa_word *w = NULL;
        size_t n = 0;
        CHECK(assemble(isa, "\tFADD\tR0,\tR1, R2\r\n  FMUL R0, R1, R2 ;\r\n", &w, &n, d) == GISA_OK && n == 2);
        free(w);
        w = NULL;
        CHECK(assemble(isa, "\tFAD R0, R1, R2\r\n", &w, &n, d) == GISA_ERR_INPUT);
        if (gisa_diags_count(d) == 1) {
            char *m = api_diag_text(gisa_diags_get(d, 0), 1);
            CHECKF(gisa_diags_get(d, 0)->col == 2 && strstr(m, "\n\t^~~") != NULL, "tab caret: %s", m);
            free(m);
        }
        gisa_diags_free(d);
    }
    /* an unterminated comment is an error */
    {
        gisa_diags *d = api_diags();
        gisa_word *w = NULL;
        size_t n = 0;
        CHECK(assemble(isa, "FADD R0, R1, R2 /* never closed\n", &w, &n, d) == GISA_ERR_INPUT);
        CHECK(test_diags_contain(d, "unterminated"));
        gisa_diags_free(d);
    }
    printf("%zu error cases, %zu positive controls\n", sizeof cases / sizeof *cases, sizeof ok / sizeof *ok);
    return test_summary();
}
