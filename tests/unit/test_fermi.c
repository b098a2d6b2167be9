/* The Fermi target against asfermi: every line of fermi-sample-vectors.tsv
 * (when ../shared is present) assembles to its word, disassembles as valid
 * and re-assembles to the same word. Then the places where asfermi is wrong
 * (FERMI-FACTS.md, "Quirks"): each case states the word we must produce
 * instead, or the error or warning we must give. Expected words were
 * computed by hand from the field layout of FERMI-FACTS.md, not by gisa.
 * Last, each field of that layout moved alone by a pair of lines. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static const gisa_isa *isa;

/* Assembles one line; returns the status, the word and the diagnostics. */
static gisa_status assemble(const char *text, uint64_t *word, gisa_diags *d)
{
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status s = gisa_assemble(isa, "t.s", text, strlen(text), NULL, &w, &n, d);
    if (s == GISA_OK && n == 1)
        *word = w[0].w[0];
    else if (s == GISA_OK)
        s = GISA_ERR_INPUT;
    free(w);
    return s;
}

/* dis(word) is valid and re-assembles to the word. */
static void check_roundtrip(uint64_t word, const char *origin)
{
    char text[256];
    gisa_word gw = {{word, 0}};
    gisa_status s = gisa_disassemble(isa, gw, text, sizeof text, NULL);
    CHECKF(s == GISA_OK, "%s: %016llx disassembles as '%s'", origin, (unsigned long long)word, text);
    if (s != GISA_OK)
        return;
    gisa_diags *d = api_diags();
    uint64_t back = 0;
    s = assemble(text, &back, d);
    CHECKF(s == GISA_OK && back == word, "%s: '%s' re-assembles to %016llx, not %016llx", origin, text, (unsigned long long)back,
           (unsigned long long)word);
    gisa_diags_free(d);
}

static int run_vectors(void)
{
    const char *shared = test_shared_dir();
    if (!shared) {
        printf("SKIP vectors: ../shared not found beside the source tree\n");
        return 0;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/fermi-sample-vectors.tsv", shared);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("SKIP vectors: %s not readable\n", path);
        return 0;
    }
    char line[512];
    int lineno = 0, n = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab)
            continue;
        *tab = 0;
        uint64_t want = strtoull(tab + 1, NULL, 16), got = 0;
        gisa_diags *d = api_diags();
        gisa_status s = assemble(line, &got, d);
        CHECKF(s == GISA_OK && got == want, "line %d: '%s' gives %016llx, asfermi %016llx", lineno, line, (unsigned long long)got,
               (unsigned long long)want);
        if (s != GISA_OK)
            test_dump_diags(d);
        gisa_diags_free(d);
        check_roundtrip(want, line);
        n++;
    }
    fclose(f);
    CHECKF(n == 120, "%d vectors read", n);
    printf("vectors: %d lines, both directions\n", n);
    return n;
}

typedef struct bug_case {
    const char *src;
    uint64_t word;      /* expected word when it assembles */
    const char *diag;   /* substring of the expected error (word 0) or warning */
} bug_case;

#define ERR(src, msg) {src, 0, msg}

static const bug_case cases[] = {
    /* float immediates: rounded to nearest (not cut) and warned about */
    {"FADD R0, R1, F1.00001", 0x5000cfe000101c00, "encoded 0x3f800"},
    {"FADD R0, R1, F1.00035", 0x5000cfe004101c00, "encoded 0x3f801"},
    {"FADD R0, R1, F1.5", 0x5000cff000101c00, NULL},
    /* '-' before F is the operand's negate bit, after F the value's sign */
    {"FADD R0, R1, -F1.5", 0x5000cff000101d00, NULL},
    {"FADD R0, R1, F-1.5", 0x5000eff000101c00, NULL},
    {"FMUL R0, R1, -F1.5", 0x5a00cff000101c00, NULL},
    /* 32I: -F1.5 is -1.5 (asfermi: atoi gives 0) */
    {"FADD32I R0, R1, -F1.5", 0x2aff000000101c02, NULL},
    {"FADD32I R0, R1, F-1.5", 0x2aff000000101c02, NULL},
    ERR("FMUL32I R0, R1, 0x123456789", "does not fit"),
    ERR("FMUL32I R0, R1, 1.5", "F prefix"),
    ERR("FADD32I R0, R1, c[0x0][0x0]", "SrcB cannot be"),
    /* double instructions: F1.5 is the high 20 bits of the F64 1.5 */
    {"DADD R0, R2, F1.5", 0x4c00cffe00201c01, NULL},
    ERR("DADD R0, R2, FH1.5", "FH gives a 32-bit half"),
    ERR("FADD R0, R1, 0x100000", "does not fit"),
    /* FFMA's c[][]-as-SrcC form: -Rb is bit 9 only, -c[] is bit 8 */
    {"FFMA R0, R1, -R2, c[0x0][0x8]", 0x3004800020101e00, NULL},
    {"FFMA R0, R1, R2, -c[0x0][0x8]", 0x3004800020101d00, NULL},
    ERR("FFMA R0, R1, R2, 0x3f800", "SrcC cannot be"),
    /* DFMA's SrcC may be negated */
    {"DFMA R0, R2, R4, -R6", 0x200c000010201d01, NULL},
    /* operand syntax: -|x| is both bits; '|' must be closed */
    {"FADD R0, -|R1|, R2", 0x5000000008101e80, NULL},
    ERR("FADD R0, |R1, R2", "closing '|'"),
    ERR("FMUL R0, -R1, R2", "cannot be negated"),
    ERR("FCMP.LT R0, R1, -R2, R3", "cannot be negated"),
    /* registers: R0..R62 and RZ, all digits read */
    ERR("FADD R100, R1, R2", "out of range"),
    ERR("FADD R63, R1, R2", "out of range"),
    ERR("FADD R2 junk, R1, R2", "expected ',' before 'junk'"),
    ERR("DADD R1, R2, R4", "needs an even register (write R0)"),
    ERR("DADD R62, R2, R4", "no partner"),
    /* mnemonics are matched by name, not by a character-sum hash */
    ERR("FMLU R0, R1, R2", "did you mean FMUL?"),
    ERR("FADDI32 R0, R1, 0x1", "unknown instruction"),
    /* guards: PT is PT; P7 and PZ are not predicates */
    {"@PT FADD R0, R1, R2", 0x5000000008101c00, NULL},
    ERR("@PZ FADD R0, R1, R2", "expected a predicate"),
    ERR("@P7 FADD R0, R1, R2", "expected a predicate"),
    {"FADD.RN R0, R1, R2", 0x5000000008101c00, NULL},
    /* SETP: both destinations, no '!' on them */
    ERR("FSETP.LT P0, R1, R2", "pv cannot be a register"),
    ERR("FSETP.LT !P0, PT, R1, R2", "cannot be inverted"),
    /* constant banks 0x10..0x1f: bank - 16 with address bit 0 set */
    {"FADD R0, R1, c[0x10][0x100]", 0x5000400404101c00, NULL},
    {"FADD R0, R1, c[0x1f][0xfffc]", 0x50007ffff4101c00, NULL},
    {"FADD R0, R1, c[0x0][0x102]", 0x5000400408101c00, "not 4-byte aligned"},
    ERR("FADD R0, R1, c[0x0][0x101]", "not 2-byte aligned"),
    {"FADD R0, R1, c[0x10][RZ+0x100]", 0x5000400404101c00, NULL},
    {"FADD R0, R1, c[0x0][RZ]", 0x5000400000101c00, NULL},
    ERR("FADD R0, R1, c[0x0][R2+0x4]", "byte offset"),
    ERR("FADD R0, R1, c[0x20][0x0]", "bank out of range"),
    ERR("FADD R0, R1, c[0x0][0x10000]", "offset out of range"),
    /* MUFU: .FTZ, with the document's .SAT as an alias */
    {"MUFU.RCP.FTZ R0, R1", 0xc800000010101c20, NULL},
    {"MUFU.RCP.SAT R0, R1", 0xc800000010101c20, NULL},
};

static void run_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bug_case *c = &cases[i];
        gisa_diags *d = api_diags();
        uint64_t got = 0;
        gisa_status s = assemble(c->src, &got, d);
        if (c->word) {
            CHECKF(s == GISA_OK && got == c->word, "'%s' gives %016llx, want %016llx", c->src, (unsigned long long)got,
                   (unsigned long long)c->word);
            CHECKF(c->diag ? gisa_diags_warnings(d) == 1 && test_diags_contain(d, c->diag) : gisa_diags_count(d) == 0,
                   "'%s': diagnostics differ from the expected %s", c->src, c->diag ? c->diag : "none");
            if (s == GISA_OK)
                check_roundtrip(got, c->src);
        } else {
            CHECKF(s == GISA_ERR_INPUT && test_diags_contain(d, c->diag), "'%s' must fail with '%s'", c->src, c->diag);
        }
        if (test_failed)
            test_dump_diags(d);
        gisa_diags_free(d);
    }
    printf("asfermi quirks: %zu cases\n", sizeof cases / sizeof cases[0]);
}

/* Field placement from FERMI-FACTS.md's layout, not from the model: two
 * lines differ in one field, their XOR must be exactly that field. */
typedef struct place {
    const char *a, *b;
    int off, width;
    uint64_t va, vb;
} place;

static const place places[] = {
    {"FADD R0, R1, R2", "@P3 FADD R0, R1, R2", 10, 3, 7, 3},
    {"@P3 FADD R0, R1, R2", "@!P3 FADD R0, R1, R2", 13, 1, 0, 1},
    {"FADD R0, R1, R2", "FADD R45, R1, R2", 14, 6, 0, 45},
    {"FADD R0, R1, R2", "FADD R0, R62, R2", 20, 6, 1, 62},
    {"FADD R0, R1, R2", "FADD R0, R1, RZ", 26, 6, 2, 63},
    {"FFMA R0, R1, R2, R3", "FFMA R0, R1, R2, R33", 49, 6, 3, 33},
    {"FCMP.LT R0, R1, R2, R3", "FCMP.LT R0, R1, R2, R17", 49, 6, 3, 17},
    {"FSETP.LT P0, P1, R1, R2", "FSETP.LT P5, P1, R1, R2", 17, 3, 0, 5},
    {"FSETP.LT P0, P1, R1, R2", "FSETP.LT P0, P4, R1, R2", 14, 3, 1, 4},
    {"DSETP.LT P0, P1, R2, R4", "DSETP.LT P0, P1, R2, R4, P6", 49, 3, 7, 6},
    {"DSETP.LT P0, P1, R2, R4, P6", "DSETP.LT P0, P1, R2, R4, !P6", 52, 1, 0, 1},
    {"FSETP.LT P0, P1, R1, R2", "FSETP.LT.XOR P0, P1, R1, R2", 53, 2, 0, 2},
    {"FSETP.LT P0, P1, R1, R2", "FSETP.GEU P0, P1, R1, R2", 55, 4, 1, 14},
    {"FCMP.LT R0, R1, R2, R3", "FCMP.NEU R0, R1, R2, R3", 55, 4, 1, 13},
    {"FADD R0, R1, R2", "FADD.RM R0, R1, R2", 55, 2, 0, 1},
    {"DMUL R0, R2, R4", "DMUL.RP R0, R2, R4", 55, 2, 0, 2},
    {"DFMA R0, R2, R4, R6", "DFMA.RZ R0, R2, R4, R6", 55, 2, 0, 3},
    {"FADD R0, R1, R2", "FADD.FTZ R0, R1, R2", 5, 1, 0, 1},
    {"FADD32I R0, R1, 0x1", "FADD32I.FTZ R0, R1, 0x1", 5, 1, 0, 1},
    {"FCMP.LT R0, R1, R2, R3", "FCMP.LT.FTZ R0, R1, R2, R3", 5, 1, 0, 1},
    {"MUFU.RCP R0, R1", "MUFU.RCP.FTZ R0, R1", 5, 1, 0, 1},
    {"FMUL R0, R1, R2", "FMUL.FTZ R0, R1, R2", 6, 1, 0, 1},
    {"FMUL32I R0, R1, 0x1", "FMUL32I.FTZ R0, R1, 0x1", 6, 1, 0, 1},
    {"FFMA R0, R1, R2, R3", "FFMA.FTZ R0, R1, R2, R3", 6, 1, 0, 1},
    {"FADD R0, R1, R2", "FADD.SAT R0, R1, R2", 49, 1, 0, 1},
    {"FMUL R0, R1, R2", "FMUL.SAT R0, R1, R2", 5, 1, 0, 1},
    {"FMUL32I R0, R1, 0x1", "FMUL32I.SAT R0, R1, 0x1", 5, 1, 0, 1},
    {"FFMA R0, R1, R2, R3", "FFMA.SAT R0, R1, R2, R3", 5, 1, 0, 1},
    {"FADD R0, R1, R2", "FADD R0, -R1, R2", 9, 1, 0, 1},
    {"FADD R0, R1, R2", "FADD R0, |R1|, R2", 7, 1, 0, 1},
    {"FADD R0, R1, R2", "FADD R0, R1, -R2", 8, 1, 0, 1},
    {"FADD R0, R1, R2", "FADD R0, R1, |R2|", 6, 1, 0, 1},
    {"FSETP.LT P0, P1, R1, R2", "FSETP.LT P0, P1, -R1, R2", 9, 1, 0, 1},
    {"DADD R0, R2, R4", "DADD R0, R2, |R4|", 6, 1, 0, 1},
    {"MUFU.RCP R0, R1", "MUFU.RCP R0, -R1", 9, 1, 0, 1},
    {"FADD32I R0, R1, 0x1", "FADD32I R0, |R1|, 0x1", 7, 1, 0, 1},
    {"FFMA R0, R1, R2, R3", "FFMA R0, R1, -R2, R3", 9, 1, 0, 1},
    {"FFMA R0, R1, R2, R3", "FFMA R0, R1, R2, -R3", 8, 1, 0, 1},
    {"DMUL R0, R2, R4", "DMUL R0, R2, -R4", 9, 1, 0, 1},
    {"FMUL R0, R1, R2", "FMUL R0, R1, -R2", 57, 1, 0, 1},
    {"FMUL32I R0, R1, 0x1", "FMUL32I R0, R1, 0xdeadbeef", 26, 32, 1, 0xdeadbeef},
    {"MUFU.COS R0, R1", "MUFU.RSQ64H R0, R1", 26, 4, 0, 7},
    {"FADD R0, R1, R2", "FADD R0, R1, c[0x0][0x0]", 26, 22, 2, 1u << 20},
    {"FADD R0, R1, c[0x0][0x0]", "FADD R0, R1, c[0x9][0xabc4]", 26, 20, 0, 0x9abc4},
    {"FADD R0, R1, c[0x0][0x0]", "FADD R0, R1, 0x12345", 26, 22, 1u << 20, 0x312345},
    {"FFMA R0, R1, R2, c[0x0][0x0]", "FFMA R0, R1, c[0x0][0x0], R2", 26, 29, 2u << 20 | 2u << 23, 1u << 20 | 2u << 23},
};

static void run_places(void)
{
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        const place *p = &places[i];
        uint64_t a = 0, b = 0, m = p->width == 64 ? ~0ull : ((1ull << p->width) - 1) << p->off;
        gisa_diags *d = api_diags();
        int ok = assemble(p->a, &a, d) == GISA_OK && assemble(p->b, &b, d) == GISA_OK;
        CHECKF(ok, "'%s' / '%s' do not both assemble", p->a, p->b);
        gisa_diags_free(d);
        if (!ok)
            continue;
        CHECKF((a ^ b) == (((p->va ^ p->vb) << p->off) & m) && (a & m) >> p->off == p->va && (b & m) >> p->off == p->vb,
               "'%s' / '%s': bits %d..%d are %llx / %llx (XOR %016llx), expected %llx / %llx", p->a, p->b, p->off, p->off + p->width - 1,
               (unsigned long long)((a & m) >> p->off), (unsigned long long)((b & m) >> p->off), (unsigned long long)(a ^ b),
               (unsigned long long)p->va, (unsigned long long)p->vb);
    }
    printf("placement: %zu pairs\n", sizeof places / sizeof places[0]);
}

int main(void)
{
    isa = test_isa_target("fermi");
    CHECK(gisa_isa_word_bits(isa) == 64);
    gisa_diags *d = api_diags();
    CHECK(gisa_isa_lint(isa, d) == GISA_OK && gisa_diags_count(d) == 0); /* lint is clean */
    gisa_diags_free(d);
    run_vectors();
    run_cases();
    run_places();
    return test_summary();
}
