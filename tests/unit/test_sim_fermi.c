/* The Fermi target in the simulator, differentially: each Fermi arithmetic
 * instruction (every rounding, .FTZ, .SAT, operand decoration and operand
 * kind: register, c[][] incl. banks >= 0x10, 20-bit and 32-bit immediates,
 * FFMA/DFMA's c[][]-as-SrcC form) must give, bit for bit on every lane, what
 * the equivalent gisa128 instruction gives (those are checked against GNU
 * MPFR in test_sim_fp32/fp64). FCMP, which gisa128 lacks, is checked against
 * fpref.h's comparison reference; MUFU's wiring (function selection, -/|x|
 * on Ra, .FTZ and its alias .SAT) against mufu_eval, whose results
 * test_mufu checks against MPFR. Inputs: fpref.h's mixture of special
 * values, values near each other and random bits, different in every lane
 * and round. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "fpref.h"
#include "sim/mufu.h"

enum { ROUNDS = 12, NCONST = 4 };

static const gisa_isa *fermi, *g128;
static long programs;

/* An F32 (f64: F64) operand. */
static uint64_t operand_value(int f64) { return g_mixed(&FMT[f64 ? F64 : F32]); }

/* The tally of an instruction: its mnemonic. */
static fp_tally *tally_of(const char *text)
{
    char name[16];
    size_t n = strcspn(text, ". ");
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), text);
    return fp_tally_for(name);
}

static const struct {
    unsigned bank, offset;
} consts[NCONST] = {{0x0, 0x10}, {0x11, 0x8}, {0x1f, 0xfff8}, {0x3, 0x30}};

static gisa_sim *make_sim(const gisa_isa *isa, const char *text, const uint32_t *regs, const uint32_t *preds,
                          const uint64_t *cvals)
{
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_diags *d = api_diags();
    gisa_status s = gisa_assemble(isa, "t.s", text, strlen(text), NULL, &w, &n, d);
    CHECKF(s == GISA_OK && n == 1, "%s: '%s' does not assemble", gisa_isa_word_bits(isa) == 64 ? "fermi" : "gisa128", text);
    if (s != GISA_OK) {
        test_dump_diags(d);
        gisa_diags_free(d);
        return NULL;
    }
    gisa_diags_free(d);
    gisa_sim *sim;
    if (gisa_sim_new(isa, 63, 1, &sim) != GISA_OK)
        abort();
    gisa_sim_set_threads(sim, 1);
    for (unsigned r = 0; r < 16; r++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_R, r, l, regs[r * 32 + (unsigned)l]);
    for (unsigned p = 0; p < 7; p++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_P, p, l, preds[p * 32 + (unsigned)l]);
    for (int k = 0; k < NCONST; k++) {
        gisa_sim_set_const(sim, consts[k].bank, consts[k].offset, (uint32_t)cvals[k]);
        gisa_sim_set_const(sim, consts[k].bank, consts[k].offset + 4, (uint32_t)(cvals[k] >> 32));
    }
    gisa_sim_load(sim, w, 1);
    free(w);
    gisa_sim_fault f;
    s = gisa_sim_run(sim, &f);
    CHECKF(s == GISA_OK, "'%s' faults: %s", text, f.message);
    return sim;
}

/* Runs the Fermi text and the gisa128 text on the same inputs and compares
 * R0..R1 and P0..P1 on every lane. */
static void same(const char *ftext, const char *gtext, int f64)
{
    for (int round = 0; round < ROUNDS; round++) {
        uint32_t regs[16 * 32], preds[7 * 32];
        uint64_t cvals[NCONST];
        for (int r = 0; r < 16; r += 2)
            for (int l = 0; l < 32; l++) {
                uint64_t v = f64 ? operand_value(1) : operand_value(0) | operand_value(0) << 32;
                regs[r * 32 + l] = (uint32_t)v;
                regs[(r + 1) * 32 + l] = (uint32_t)(v >> 32);
            }
        for (int i = 0; i < 7 * 32; i++)
            preds[i] = tg_next(&fp_rng) & 1;
        for (int k = 0; k < NCONST; k++)
            cvals[k] = f64 ? operand_value(1) : operand_value(0);
        gisa_sim *a = make_sim(fermi, ftext, regs, preds, cvals), *b = make_sim(g128, gtext, regs, preds, cvals);
        programs++;
        if (!a || !b) {
            gisa_sim_free(a);
            gisa_sim_free(b);
            return;
        }
        fp_tally *t = tally_of(ftext);
        for (unsigned l = 0; l < 32; l++)
            for (int k = 0; k < 4; k++) {
                uint32_t va = 0, vb = 0;
                gisa_regfile rf = k < 2 ? GISA_RF_R : GISA_RF_P;
                gisa_sim_get(a, 0, rf, (unsigned)k % 2, l, &va);
                gisa_sim_get(b, 0, rf, (unsigned)k % 2, l, &vb);
                FP_CHECK(t, va == vb, "'%s' vs '%s' lane %u %s%d: %08x vs %08x (inputs R2 %08x %08x, R4 %08x %08x)", ftext,
                         gtext, l, k < 2 ? "R" : "P", k % 2, va, vb, regs[2 * 32 + l], regs[3 * 32 + l], regs[4 * 32 + l],
                         regs[5 * 32 + l]);
            }
        gisa_sim_free(a);
        gisa_sim_free(b);
    }
}

static const char *const RND[4] = {"", ".RM", ".RP", ".RZ"};
static const char *const DECO_PRE[4] = {"", "-", "|", "-|"}, *const DECO_POST[4] = {"", "", "|", "|"};

/* SrcB in Fermi and gisa128 spelling: a register, c[][] or an immediate
 * (20 bits in Fermi, the equivalent full F32/high-F64 bits in gisa128). */
static void srcb(int kind, int deco, int f64, char *fs, char *gs, size_t cap)
{
    if (kind == 0) {
        snprintf(fs, cap, "%sR4%s", DECO_PRE[deco], DECO_POST[deco]);
        snprintf(gs, cap, "%s", fs);
    } else if (kind == 1) {
        int k = (int)tg_below(&fp_rng, NCONST);
        snprintf(fs, cap, "%sc[0x%x][0x%x]%s", DECO_PRE[deco], consts[k].bank, consts[k].offset, DECO_POST[deco]);
        snprintf(gs, cap, "%s", fs);
    } else {
        uint64_t v20 = operand_value(f64) >> (f64 ? 44 : 12) & 0xfffff;
        snprintf(fs, cap, "%s0x%llx%s", DECO_PRE[deco], (unsigned long long)v20, DECO_POST[deco]);
        /* gisa128 takes no |imm|: fold the decorations into the value */
        uint64_t sign = 1u << 19;
        uint64_t v = deco >= 2 ? v20 & ~sign : v20;
        v ^= deco & 1 ? sign : 0;
        if (f64)
            snprintf(gs, cap, "0d%016llX", (unsigned long long)(v << 44));
        else
            snprintf(gs, cap, "0f%08llX", (unsigned long long)(v << 12));
    }
}

/* The Fermi and gisa128 spellings of an instruction that differ in SrcB
 * only: head, SrcB (fs or gs), tail. */
static void same_but_srcb(const char *head, const char *fs, const char *gs, const char *tail, int f64)
{
    char ft[256], gt[256];
    snprintf(ft, sizeof ft, "%s%s%s", head, fs, tail);
    snprintf(gt, sizeof gt, "%s%s%s", head, gs, tail);
    same(ft, gt, f64);
}

/* ADD, MUL and FMA with the instruction modifiers m (.FTZ, rounding, .SAT) */
static void arith(int f64, const char *m)
{
    char fs[64], gs[64], head[160];
    for (int kind = 0; kind < 3; kind++)
        for (int da = 0; da < 4; da++)
            for (int db = 0; db < 4; db++) { /* ADD: both operands decorated; MUL: only -SrcB */
                srcb(kind, db, f64, fs, gs, sizeof fs);
                snprintf(head, sizeof head, "%s%s R0, %sR2%s, ", f64 ? "DADD" : "FADD", m, DECO_PRE[da], DECO_POST[da]);
                same_but_srcb(head, fs, gs, "", f64);
                if (da || db > 1)
                    continue;
                snprintf(head, sizeof head, "%s%s R0, R2, ", f64 ? "DMUL" : "FMUL", m);
                same_but_srcb(head, fs, gs, "", f64);
            }
    const char *op = f64 ? "DFMA" : "FFMA";
    for (int nb = 0; nb < 2; nb++)
        for (int nc = 0; nc < 2; nc++) {
            for (int kind = 0; kind < 3; kind++) {
                srcb(kind, nb, f64, fs, gs, sizeof fs);
                snprintf(head, sizeof head, "%s%s R0, R2, ", op, m);
                same_but_srcb(head, fs, gs, nc ? ", -R6" : ", R6", f64);
            }
            /* c[][] as SrcC: the form with bits 46..47 = 2 */
            snprintf(head, sizeof head, "%s%s R0, R2, %sR4, %sc[0x11][0x8]", op, m, nb ? "-" : "", nc ? "-" : "");
            same(head, head, f64);
        }
}

static void test_arith(void)
{
    char m[32];
    for (int f64 = 0; f64 < 2; f64++)
        for (int rnd = 0; rnd < 4; rnd++)
            for (int mods = 0; mods < (f64 ? 1 : 4); mods++) {
                snprintf(m, sizeof m, "%s%s%s", mods & 1 ? ".FTZ" : "", RND[rnd], mods & 2 ? ".SAT" : "");
                arith(f64, m);
            }
}

static void test_imm32(void)
{
    char ft[160], gt[160];
    for (int i = 0; i < 64; i++) {
        uint32_t v = (uint32_t)operand_value(0);
        int deco = i >> 2 & 3;
        const char *ftz = i & 1 ? ".FTZ" : "", *sat = i & 2 ? ".SAT" : "";
        snprintf(ft, sizeof ft, "FADD32I%s R0, %sR2%s, 0x%x", ftz, DECO_PRE[deco], DECO_POST[deco], v);
        snprintf(gt, sizeof gt, "FADD%s R0, %sR2%s, 0f%08X", ftz, DECO_PRE[deco], DECO_POST[deco], v);
        same(ft, gt, 0);
        snprintf(ft, sizeof ft, "FMUL32I%s%s R0, R2, 0x%x", ftz, sat, v);
        snprintf(gt, sizeof gt, "FMUL%s%s R0, R2, 0f%08X", ftz, sat, v);
        same(ft, gt, 0);
    }
}

static void test_setp(void)
{
    char fs[64], gs[64], head[160], tail[16];
    for (int f64 = 0; f64 < 2; f64++)
        for (int c = 0; c < NCMP; c++)
            for (int lop = 0; lop < 3; lop++) {
                int kind = (c + lop) % 3, da = c % 4, db = (c + lop + f64) % 4;
                srcb(kind, db, f64, fs, gs, sizeof fs);
                snprintf(head, sizeof head, "%s.%s.%s P0, P1, %sR2%s, ", f64 ? "DSETP" : "FSETP", FCMP[c].name,
                         LOP_NAME[lop], DECO_PRE[da], DECO_POST[da]);
                snprintf(tail, sizeof tail, ", %s", lop == 1 ? "!P2" : "P2");
                same_but_srcb(head, fs, gs, tail, f64);
            }
}

/* Runs the Fermi text on one warp whose R0..R15 hold values of format fi,
 * different in every lane (no predicates, no constants). */
static gisa_sim *run_fermi(const char *text, int fi, uint32_t regs[16 * 32])
{
    uint32_t preds[7 * 32] = {0};
    uint64_t cv[NCONST] = {0};
    for (int i = 0; i < 16 * 32; i++)
        regs[i] = (uint32_t)g_mixed(&FMT[fi]);
    programs++;
    return make_sim(fermi, text, regs, preds, cv);
}

/* FCMP.cmp.ftz Rd, Ra, SrcB, Rc = (Rc cmp 0) ? Ra : SrcB */
static void test_fcmp(void)
{
    const fpf *f = &FMT[F32];
    char text[96];
    for (int c = 0; c < NCMP; c++)
        for (int ftz = 0; ftz < 2; ftz++)
            for (int round = 0; round < ROUNDS; round++) {
                uint32_t regs[16 * 32];
                snprintf(text, sizeof text, "FCMP.%s%s R0, R2, R4, R6", FCMP[c].name, ftz ? ".FTZ" : "");
                gisa_sim *s = run_fermi(text, F32, regs);
                if (!s)
                    return;
                for (unsigned l = 0; l < 32; l++) {
                    uint32_t rc = regs[6 * 32 + l], got = 0;
                    uint32_t want = ref_compare(f, c, ftz ? f_flush(f, rc) : rc, 0) ? regs[2 * 32 + l] : regs[4 * 32 + l];
                    gisa_sim_get(s, 0, GISA_RF_R, 0, l, &got);
                    FP_CHECK(tally_of(text), got == want, "%s lane %u: Rc %08x gives %08x, want %08x", text, l, rc, got,
                             want);
                }
                gisa_sim_free(s);
            }
}

static void test_mufu(void)
{
    static const char *const OP[] = {"COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H"};
    char text[96];
    for (int op = 0; op < 8; op++)
        for (int ftz = 0; ftz < 3; ftz++)
            for (int deco = 0; deco < 4; deco++) {
                int fi = op >= MUFU_RCP64H ? F64H : F32;
                uint32_t regs[16 * 32];
                snprintf(text, sizeof text, "MUFU.%s%s R0, %sR2%s", OP[op], ftz == 1 ? ".FTZ" : ftz == 2 ? ".SAT" : "",
                         DECO_PRE[deco], DECO_POST[deco]);
                gisa_sim *s = run_fermi(text, fi, regs);
                if (!s)
                    return;
                for (unsigned l = 0; l < 32; l++) {
                    uint32_t in = (uint32_t)f_decorate(&FMT[fi], regs[2 * 32 + l], deco >= 2, deco & 1), got = 0;
                    uint32_t want = mufu_eval((mufu_op)op, in, ftz != 0);
                    gisa_sim_get(s, 0, GISA_RF_R, 0, l, &got);
                    FP_CHECK(tally_of(text), got == want, "%s lane %u: Ra %08x gives %08x, want %08x", text, l,
                             regs[2 * 32 + l], got, want);
                }
                gisa_sim_free(s);
            }
}

int main(void)
{
    double t0 = fp_seconds();
    fermi = test_isa_target("fermi");
    g128 = test_isa_target("gisa128");
    CHECK(gisa_sim_max_regs(fermi) == 63 && gisa_sim_max_regs(g128) == 255);
    gisa_sim *s;
    CHECK(gisa_sim_new(fermi, 64, 1, &s) == GISA_ERR_USAGE); /* R63 is RZ */
    test_arith();
    test_imm32();
    test_setp();
    test_fcmp();
    test_mufu();
    printf("fermi vs gisa128: %ld programs\n", programs);
    fp_print_tallies("fermi vs gisa128 (FCMP: fpref's reference, MUFU: mufu_eval)", fp_seconds() - t0);
    return test_summary();
}
