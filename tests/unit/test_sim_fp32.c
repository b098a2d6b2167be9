/* F32 instructions (FADD FMUL FFMA FMNMX FSETP FSET FSEL FCHK) assembled
 * and run through the simulator, every lane compared bit for bit with the
 * independent MPFR reference of fpref.h: every instruction modifier
 * combination (.FTZ .SAT, the four roundings, FMUL's scales, .NAN, the 14
 * comparisons x 3 boolean ops, .BM/.BF), all 16 operand-modifier
 * combinations (64 for FFMA), pp true/false/P6/!P6; inputs are the special
 * values crossed with each other plus >= 10240 random tuples per
 * combination; SrcB/SrcC from UR, c[][] and immediates; FCHK on every pair
 * of exponent fields; and the documents' examples. */
#include <mpfr.h>

#include "fpref.h"

enum { NRANDOM = 10240 };

static void test_arith(void)
{
    for (int ftz = 0; ftz < 2; ftz++)
        for (int sat = 0; sat < 2; sat++)
            for (int rnd = 0; rnd < 4; rnd++) {
                insn p = insn_new(OP_ADD, F32);
                p.ftz = ftz, p.sat = sat, p.rnd = rnd;
                run_combo(&p, GEN_ADD, 16, 0, 16, NRANDOM);
                for (int scale = -3; scale <= 3; scale++) {
                    insn m = p;
                    m.op = OP_MUL;
                    m.scale = scale;
                    run_combo(&m, GEN_MUL, 4, (unsigned)(4 * (scale + 3 + 7 * rnd)), 16, NRANDOM);
                }
                p.op = OP_FMA;
                run_combo(&p, GEN_FMA, 16, (unsigned)(16 * (rnd + 4 * sat)), 64, NRANDOM);
            }
}

static void test_select(void)
{
    for (int ftz = 0; ftz < 2; ftz++) {
        for (int nan = 0; nan < 2; nan++) {
            insn p = insn_new(OP_MNMX, F32);
            p.ftz = ftz, p.nan = nan;
            run_combo(&p, GEN_CMP, 16, 0, 16, NRANDOM);
        }
        insn s = insn_new(OP_SEL, F32);
        s.ftz = ftz;
        run_combo(&s, GEN_CMP, 16, 0, 16, NRANDOM);
    }
}

static void test_compare(void)
{
    run_compares(F32, 2, 4, 7, NRANDOM);
    /* pv and pp omitted: pv is PT (dropped), pp is PT */
    insn in[3];
    for (int i = 0; i < 3; i++) {
        in[i] = insn_new(OP_SETP, F32);
        in[i].cmp = i == 0 ? find_cmp("NEU") : i == 1 ? find_cmp("GE") : find_cmp("NAN");
        in[i].lop = i;
        in[i].pu = i;
        in[i].pv_omit = 1;
        in[i].pp_omit = 1;
        set_mods(&in[i], (unsigned)(5 * i));
    }
    batch b;
    batch_make(&b, F32, GEN_CMP, 0, 1, 2048);
    fp_run(in, 3, &b);
    batch_free(&b);
}

/* FCHK on every pair of exponent fields (random signs and significands),
 * then on the usual mixture. */
static void test_fchk(void)
{
    batch b;
    batch_make(&b, F32, GEN_CMP, 0, 0, 65536);
    for (unsigned L = 0; L < b.n; L++) {
        b.r[0][L] = (b.r[0][L] & 0x807FFFFFu) | (L & 0xFF) << 23;
        b.r[1][L] = (b.r[1][L] & 0x807FFFFFu) | (L >> 8 & 0xFF) << 23;
    }
    insn in[6];
    for (int i = 0; i < 6; i++) {
        in[i] = insn_new(OP_CHK, F32);
        set_mods(&in[i], (unsigned)(3 * i));
        set_out(&in[i], i);
    }
    fp_run(in, 6, &b);
    batch_free(&b);
    insn p = insn_new(OP_CHK, F32);
    run_combo(&p, GEN_CMP, 6, 0, 16, NRANDOM);
}

static void test_operand_sources(void)
{
    insn p = insn_new(OP_ADD, F32);
    p.ftz = 1, p.sat = 1, p.rnd = RM;
    test_sources(&p, GEN_ADD);
    p = insn_new(OP_ADD, F32);
    p.rnd = RP;
    test_sources(&p, GEN_ADD);
    p = insn_new(OP_MUL, F32);
    p.rnd = RP, p.scale = -2;
    test_sources(&p, GEN_MUL);
    p.ftz = 1, p.rnd = RN, p.scale = 3;
    test_sources(&p, GEN_MUL);
    p = insn_new(OP_FMA, F32);
    p.rnd = RZ;
    test_sources(&p, GEN_FMA);
    p.ftz = 1, p.sat = 1, p.rnd = RN;
    test_sources(&p, GEN_FMA);
    p = insn_new(OP_MNMX, F32);
    test_sources(&p, GEN_CMP);
    p.nan = 1, p.ftz = 1;
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_SETP, F32);
    p.cmp = find_cmp("GTU"), p.lop = LOP_OR;
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_SET, F32);
    p.cmp = find_cmp("LE"), p.lop = LOP_XOR, p.bf = 1, p.ftz = 1;
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_SEL, F32);
    p.ftz = 1;
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_CHK, F32);
    test_sources(&p, GEN_CMP);
}

/* ------------------------------------------------------------------ examples */

static insn ex(int op, const char *text, unsigned rd, opnd a, opnd b) { return insn_example(op, F32, text, rd, a, b); }

/* Every __Examples line of falu.isa.txt, assembled as written and run on
 * special and random inputs. The two errata of docs/semantics.md are
 * rejected; their nearest valid forms run instead. */
static void test_examples(void)
{
    insn e[24];
    int n = 0;
    e[n++] = ex(OP_ADD, "FADD            R0,  R1 , -R2   ;", 0, o_r(1, 0), o_r(2, 1));
    e[n] = ex(OP_ADD, "FADD.FTZ.SAT.RZ R0, |R1|, -0.25 ;", 0, o_r(1, 2), o_imm(0xBE800000u));
    e[n].ftz = 1, e[n].sat = 1, e[n++].rnd = RZ;
    e[n++] = ex(OP_MUL, "FMUL               R0,  R1 , -R2        ;", 0, o_r(1, 0), o_r(2, 1));
    e[n] = ex(OP_MUL, "FMUL.FTZ.SAT.RZ.D2 R0, |R1|, 0f405A7EFA ;", 0, o_r(1, 2), o_imm(0x405A7EFAu));
    e[n].ftz = 1, e[n].sat = 1, e[n].rnd = RZ, e[n++].scale = -1;
    e[n] = ex(OP_FMA, "FFMA            R0,  R1,  -R2       , RZ             ;", 0, o_r(1, 0), o_r(2, 1));
    e[n++].c = o_r(255, 0);
    e[n] = ex(OP_FMA, "FFMA.FTZ.SAT.RZ R0, |R1|, 0f405A7EFA, |R3|;", 0, o_r(1, 2), o_imm(0x405A7EFAu));
    e[n].ftz = 1, e[n].sat = 1, e[n].rnd = RZ, e[n++].c = o_r(3, 2);
    e[n] = ex(OP_FMA, "FFMA.FTZ.SAT.RZ R0, |R1|, R3, |c[0x0][0x100]|;", 0, o_r(1, 2), o_r(3, 0));
    e[n].ftz = 1, e[n].sat = 1, e[n].rnd = RZ, e[n++].c = o_c(0x100, 2);
    e[n] = ex(OP_MNMX, "FMNMX R0, -|R1|, -|R2|, !PT;", 0, o_r(1, 3), o_r(2, 3));
    e[n].pp = PT, e[n++].pp_not = 1;
    e[n] = ex(OP_MNMX, "FMNMX R0,   R1 ,     1,  P0;", 0, o_r(1, 0), o_imm(0x3F800000u));
    e[n++].pp = 0;
    e[n] = ex(OP_MNMX, "FMNMX R0,   R1 , 0.125, !P1;", 0, o_r(1, 0), o_imm(0x3E000000u));
    e[n].pp = 1, e[n++].pp_not = 1;
    e[n] = ex(OP_SETP, "FSETP.LE.AND     P0,       R4 , R6,  PT;", 0, o_r(4, 0), o_r(6, 0));
    e[n].cmp = find_cmp("LE"), e[n].pu = 0, e[n++].pv = PT;
    e[n] = ex(OP_SETP, "FSETP.FTZ.GTU.OR P0, P1, -|R5|, -1, !PT;", 0, o_r(5, 3), o_imm(0xBF800000u));
    e[n].ftz = 1, e[n].cmp = find_cmp("GTU"), e[n].lop = LOP_OR, e[n].pu = 0, e[n].pv = 1, e[n++].pp_not = 1;
    e[n] = ex(OP_SET, "FSET.LE.AND       R0,  R4,  R6, PT ;", 0, o_r(4, 0), o_r(6, 0));
    e[n++].cmp = find_cmp("LE");
    e[n] = ex(OP_SET, "FSET.FTZ.GT.OR.BF R0, -R5, -34, P0 ;", 0, o_r(5, 1), o_imm(0xC2080000u));
    e[n].ftz = 1, e[n].cmp = find_cmp("GT"), e[n].lop = LOP_OR, e[n].bf = 1, e[n++].pp = 0;
    e[n] = ex(OP_SEL, "FSEL.FTZ R0, R1, R2, !P0;", 0, o_r(1, 0), o_r(2, 0));
    e[n].ftz = 1, e[n].pp = 0, e[n++].pp_not = 1;
    e[n] = ex(OP_CHK, "FCHK P0,   R2 ,  R3 ;", 0, o_r(2, 0), o_r(3, 0));
    e[n++].pu = 0;
    e[n] = ex(OP_CHK, "FCHK P0,  -R7 , |R3|;", 0, o_r(7, 1), o_r(3, 2));
    e[n++].pu = 0;
    e[n] = ex(OP_CHK, "FCHK P0, -|R4|,  R1 ;", 0, o_r(4, 3), o_r(1, 0));
    e[n++].pu = 0;
    run_examples(e, n);
    expect_asm_error("FFMA.FTZ.SAT.RZ R0, |R1|, 0f405A7EFA, |c[0x0][0x100]|;", NULL);
    expect_asm_error("FSET.LE.AND       R0,  R4,  R6     ;", NULL);
}

/* Directed cases with literal expectations (independent of fpref's
 * reference): the NaN, SAT, FTZ, scale and min/max rules. */
static void test_literals(void)
{
    static const struct {
        const char *text;
        uint32_t a, b, c, want;
    } v[] = {
        /* NaN results are 0x7FFFFFFF, whatever the input NaN */
        {"FADD R8, R0, R1", 0x7F800000u, 0xFF800000u, 0, 0x7FFFFFFFu},
        {"FADD R8, R0, R1", 0x7F800001u, 0x3F800000u, 0, 0x7FFFFFFFu},
        {"FMUL R8, R0, R1", 0xFFC00123u, 0x3F800000u, 0, 0x7FFFFFFFu},
        {"FFMA R8, R0, R1, R2", 0, 0x7F800000u, 0x3F800000u, 0x7FFFFFFFu},
        /* .SAT: NaN -> +0, negatives and -0 -> +0, clamp to 1 */
        {"FADD.SAT R8, R0, R1", 0x7FC00000u, 0, 0, 0},
        {"FADD.SAT R8, R0, R1", 0x80000000u, 0x80000000u, 0, 0},
        {"FADD.SAT R8, R0, R1", 0xBF800000u, 0x3F000000u, 0, 0},
        {"FMUL.SAT R8, R0, R1", 0x40000000u, 0x3F800000u, 0, 0x3F800000u},
        {"FMUL.SAT R8, R0, R1", 0x7F800000u, 0x3F800000u, 0, 0x3F800000u},
        {"FADD.SAT R8, R0, R1", 0x3F000000u, 0x3E800000u, 0, 0x3F400000u},
        /* .FTZ: subnormal results after rounding, inputs (SrcC too) first */
        {"FADD R8, R0, R1", 0x00800000u, 0x80800001u, 0, 0x80000001u},
        {"FADD.FTZ R8, R0, R1", 0x00800000u, 0x80800001u, 0, 0x80000000u},
        {"FADD.FTZ R8, R0, R1", 0x00000001u, 0x80000000u, 0, 0},
        {"FFMA R8, R0, R1, R2", 0x3F800000u, 0, 0x80000001u, 0x80000001u},
        {"FFMA.FTZ R8, R0, R1, R2", 0x3F800000u, 0, 0x80000001u, 0},
        {"FFMA.FTZ.RM R8, R0, R1, R2", 0x3F800000u, 0, 0x80000001u, 0x80000000u},
        {"FMUL.FTZ R8, R0, R1", 0x00FFFFFFu, 0x3F000000u, 0, 0x00800000u}, /* rounds up to the smallest normal */
        /* signed zeros of exact cancellation */
        {"FADD R8, R0, R1", 0x3F800000u, 0xBF800000u, 0, 0},
        {"FADD.RM R8, R0, R1", 0x3F800000u, 0xBF800000u, 0, 0x80000000u},
        /* fused: one rounding */
        {"FFMA R8, R0, R1, R2", 0x3F800001u, 0x3F800001u, 0xBF800002u, 0x28800000u},
        /* .D2/.M8 scale Ra exactly, one rounding */
        {"FMUL.D2 R8, R0, R1", 0x00800000u, 0x3F800000u, 0, 0x00400000u},
        {"FMUL.D2 R8, R0, R1", 0x3F800001u, 0x00000001u, 0, 0x00000001u}, /* not a double-rounded tie */
        {"FMUL.D8 R8, R0, R1", 0x0000000Cu, 0x3F800000u, 0, 0x00000002u}, /* 1.5 ulp: tie to even */
        {"FMUL.D8.RZ R8, R0, R1", 0x0000000Cu, 0x3F800000u, 0, 0x00000001u},
        {"FMUL.D2 R8, R0, R1", 0x7F000000u, 0x40000000u, 0, 0x7F000000u}, /* 2^127 * 2 / 2: no overflow */
        {"FMUL.M8 R8, R0, R1", 0x7F000000u, 0x3F800000u, 0, 0x7F800000u},
        {"FMUL.M8.RZ R8, R0, R1", 0x7F000000u, 0x3F800000u, 0, 0x7F7FFFFFu},
        {"FMUL.M2 R8, -R0, R1", 0x3F800000u, 0x3F800000u, 0, 0xC0000000u},
        /* min/max: pp true = min, +0 > -0, NaN rules */
        {"FMNMX R8, R0, R1, PT", 0x7FC00001u, 0xFF800002u, 0, 0x7FFFFFFFu},
        {"FMNMX R8, R0, R1, PT", 0x7FC00001u, 0xC0000000u, 0, 0xC0000000u},
        {"FMNMX R8, R0, R1, !PT", 0x3F800000u, 0xFFC00000u, 0, 0x3F800000u},
        {"FMNMX R8, R0, R1, PT", 0, 0x80000000u, 0, 0x80000000u},
        {"FMNMX R8, R0, R1, !PT", 0x80000000u, 0, 0, 0},
        {"FMNMX R8, R0, R1, PT", 0x3F800000u, 0x40000000u, 0, 0x3F800000u},
        {"FMNMX R8, R0, R1, !PT", 0x3F800000u, 0x40000000u, 0, 0x40000000u},
        {"FMNMX.NAN R8, R0, R1, PT", 0x7FC00001u, 0x3F800000u, 0, 0x7FFFFFFFu},
        {"FMNMX.FTZ R8, R0, R1, !PT", 0x7FC00000u, 0x00000005u, 0, 0}, /* flushed before the NaN rule */
        /* FSEL: NaN bits pass; .FTZ flushes the selected value; modifiers apply to NaN bits */
        {"FSEL.FTZ R8, R0, R1, PT", 0x80000001u, 0x3F800000u, 0, 0x80000000u},
        {"FSEL.FTZ R8, R0, R1, !PT", 0x80000001u, 0x7FA00000u, 0, 0x7FA00000u},
        {"FSEL R8, -|R0|, R1, PT", 0x7FC00001u, 0, 0, 0xFFC00001u},
        /* FSET: +0 == -0; NaN ordered / unordered */
        {"FSET.EQ.AND.BF R8, R0, R1, PT", 0, 0x80000000u, 0, 0x3F800000u},
        {"FSET.NE.AND R8, R0, R1, PT", 0x7FC00000u, 0x7FC00000u, 0, 0},
        {"FSET.NEU.AND R8, R0, R1, PT", 0x7FC00000u, 0x7FC00000u, 0, 0xFFFFFFFFu},
        {"FSET.LT.XOR.BF R8, R0, R1, P0", 0xBF800000u, 0, 0, 0x3F800000u}, /* P0 = 0 */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        const uint32_t r[3] = {v[i].a, v[i].b, v[i].c};
        expect_reg(v[i].text, r, 3, 8, 0, v[i].want);
    }
}

int main(void)
{
    clock_t t0 = clock();
    fp_setup();
    test_literals();
    test_examples();
    test_arith();
    test_select();
    test_compare();
    test_fchk();
    test_operand_sources();
    fp_report("F32 (FALU)", t0);
    fp_teardown();
    return test_summary();
}
