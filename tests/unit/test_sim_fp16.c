/* 16x2 instructions (HADD2 HMUL2 HFMA2 HMNMX2 HSETP2 HSET2) in .F16_V2 and
 * .BF16_V2, assembled and run through the simulator, both lanes of every
 * register compared bit for bit with the independent MPFR reference of
 * fpref.h: .FTZ/.SAT (F16 only), .RELU, .NAN, the 14 comparisons x 3
 * boolean ops, .BM/.BF, all operand modifiers and .hsel2 forms, SrcB/SrcC
 * from UR, c[][] and F16x2 immediates; special values crossed plus >= 10240
 * random tuples per combination. Directed tests with literal expectations:
 * HSETP2 lane 0 -> pu and lane 1 -> pv, HSET2 lane values, the .hsel2
 * forms, BF16 immediates, and the assembly errors for .RP/.RM/.RZ (HALU
 * has no rounding field), BF16 with .FTZ/.SAT, .SAT with .RELU, .F32. */
#include <mpfr.h>

#include "fpref.h"

enum { NRANDOM = 10240 };

static void test_arith(int fi)
{
    int nftz = fi == F16 ? 2 : 1;
    unsigned g = 0;
    for (int ftz = 0; ftz < nftz; ftz++)
        for (int sat = 0; sat < nftz; sat++) {
            insn p = insn_new(OP_ADD, fi);
            p.ftz = ftz, p.sat = sat;
            run_combo(&p, GEN_ADD, 24, g, 16, NRANDOM);
            p.op = OP_MUL;
            run_combo(&p, GEN_MUL, 24, g, 16, NRANDOM);
            g += 24;
        }
    for (int ftz = 0; ftz < nftz; ftz++)
        for (int clamp = 0; clamp < 3; clamp++) { /* none, .RELU, .SAT */
            if (fi == BF16 && clamp == 2)
                continue;
            insn p = insn_new(OP_FMA, fi);
            p.ftz = ftz, p.relu = clamp == 1, p.sat = clamp == 2;
            run_combo(&p, GEN_FMA, 24, g, 64, NRANDOM);
            g += 24;
        }
}

static void test_minmax(int fi)
{
    int nftz = fi == F16 ? 2 : 1;
    for (int ftz = 0; ftz < nftz; ftz++)
        for (int nan = 0; nan < 2; nan++) {
            insn p = insn_new(OP_MNMX, fi);
            p.ftz = ftz, p.nan = nan;
            run_combo(&p, GEN_CMP, 24, (unsigned)(24 * (2 * ftz + nan)), 16, NRANDOM);
        }
}

static void test_compare(int fi) { run_compares(fi, fi == F16 ? 2 : 1, 4, 7, NRANDOM); }

static void test_operand_sources(int fi)
{
    insn p = insn_new(OP_ADD, fi);
    p.ftz = fi == F16, p.sat = fi == F16;
    test_sources(&p, GEN_ADD);
    p = insn_new(OP_MUL, fi);
    test_sources(&p, GEN_MUL);
    p = insn_new(OP_FMA, fi);
    p.relu = 1;
    test_sources(&p, GEN_FMA);
    p = insn_new(OP_MNMX, fi);
    p.nan = 1;
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_SETP, fi);
    p.cmp = find_cmp("LTU"), p.lop = LOP_XOR, p.ftz = fi == F16;
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_SET, fi);
    p.cmp = find_cmp("NE"), p.lop = LOP_OR, p.bf = 1;
    test_sources(&p, GEN_CMP);
}

/* ------------------------------------------------------------------ examples */

static opnd hs(opnd o, int hsel)
{
    o.hsel = hsel;
    return o;
}

/* Every __Examples line of halu.isa.txt, assembled as written and run on
 * special and random inputs, plus BF16 forms with decimal immediates. */
static void test_examples(void)
{
    insn e[24];
    int n = 0;
    e[n++] = insn_example(OP_ADD, F16, "HADD2        R0, R1.H0_H0,    R2 ;", 0, hs(o_r(1, 0), HS_H0_H0), o_r(2, 0));
    e[n] = insn_example(OP_ADD, F16, "HADD2.SAT    R3,       R6,   -R7 ;", 3, o_r(6, 0), o_r(7, 1));
    e[n++].sat = 1;
    e[n] = insn_example(OP_ADD, F16, "HADD2.RN.FTZ R1,    -|R4|, -1, 1 ;", 1, o_r(4, 3), o_imm(0xBC003C00u));
    e[n++].ftz = 1;
    e[n++] = insn_example(OP_MUL, F16, "HMUL2        R0,    R1,        R2 ;", 0, o_r(1, 0), o_r(2, 0));
    e[n] = insn_example(OP_MUL, F16, "HMUL2.SAT    R3,    R6, -R7.H0_H0 ;", 3, o_r(6, 0), hs(o_r(7, 1), HS_H0_H0));
    e[n++].sat = 1;
    e[n] = insn_example(OP_MUL, F16, "HMUL2.RN.FTZ R1, -|R4|,     0, -1 ;", 1, o_r(4, 3), o_imm(0x0000BC00u));
    e[n++].ftz = 1;
    e[n] = insn_example(OP_FMA, F16, "HFMA2 R0, R1, R2.H1_H1, RZ;", 0, o_r(1, 0), hs(o_r(2, 0), HS_H1_H1));
    e[n++].c = o_r(255, 0);
    e[n] = insn_example(OP_MNMX, F16, "HMNMX2 R0, -|R1|,    -|R2|, !PT ;", 0, o_r(1, 3), o_r(2, 3));
    e[n++].pp_not = 1;
    e[n] = insn_example(OP_MNMX, F16, "HMNMX2 R0,    R1,     1,-4,  P0 ;", 0, o_r(1, 0), o_imm(0x3C00C400u));
    e[n++].pp = 0;
    e[n] = insn_example(OP_MNMX, F16, "HMNMX2 R0,    R1, 0.125,-2, !P1 ;", 0, o_r(1, 0), o_imm(0x3000C000u));
    e[n].pp = 1, e[n++].pp_not = 1;
    e[n] = insn_example(OP_SETP, F16, "HSETP2.LE.AND     P0, P1,    R4,     R6,  PT;", 0, o_r(4, 0), o_r(6, 0));
    e[n].cmp = find_cmp("LE"), e[n].pu = 0, e[n++].pv = 1;
    e[n] = insn_example(OP_SETP, F16, "HSETP2.FTZ.GTU.OR P0, P1, -|R5|,  -1, 0, !PT;", 0, o_r(5, 3), o_imm(0xBC000000u));
    e[n].ftz = 1, e[n].cmp = find_cmp("GTU"), e[n].lop = LOP_OR, e[n].pu = 0, e[n].pv = 1, e[n++].pp_not = 1;
    e[n] = insn_example(OP_SET, F16, "HSET2.LE.AND        R1,    R4,     R6,  PT;", 1, o_r(4, 0), o_r(6, 0));
    e[n++].cmp = find_cmp("LE");
    e[n] = insn_example(OP_SET, F16, "HSET2.FTZ.GTU.OR.BF R0, -|R5|,  -1, 0, !PT;", 0, o_r(5, 3), o_imm(0xBC000000u));
    e[n].ftz = 1, e[n].cmp = find_cmp("GTU"), e[n].lop = LOP_OR, e[n].bf = 1, e[n++].pp_not = 1;
    /* BF16 forms with decimal immediates (high half first) */
    e[n++] = insn_example(OP_ADD, BF16, "HADD2.BF16_V2 R0, R1, -1, 1", 0, o_r(1, 0), o_imm(0xBF803F80u));
    e[n++] = insn_example(OP_MUL, BF16, "HMUL2.BF16_V2 R0, -|R4|, 0.5, -3", 0, o_r(4, 3), o_imm(0x3F00C040u));
    e[n] = insn_example(OP_FMA, BF16, "HFMA2.BF16_V2.RELU R0, R1, -2.5, 1, R2.H1_H1", 0, o_r(1, 0), o_imm(0xC0203F80u));
    e[n].relu = 1, e[n++].c = hs(o_r(2, 0), HS_H1_H1);
    e[n] = insn_example(OP_MNMX, BF16, "HMNMX2.BF16_V2 R0, R1, 1, -4, P0", 0, o_r(1, 0), o_imm(0x3F80C080u));
    e[n++].pp = 0;
    e[n] = insn_example(OP_SET, BF16, "HSET2.BF16_V2.GTU.OR.BF R0, -|R5|, -1, 0, !PT", 0, o_r(5, 3), o_imm(0xBF800000u));
    e[n].cmp = find_cmp("GTU"), e[n].lop = LOP_OR, e[n].bf = 1, e[n++].pp_not = 1;
    run_examples(e, n);
}

/* ------------------------------------------------------------------ directed, literal expectations */

/* Runs `text` with R1..R4 = r[0..3] in every lane, P0 = p0 (P1 = 0, P2 = 1). */
static void expect_r0(const char *text, const uint32_t r[4], int p0, uint32_t want)
{
    lit_run lr = lit_start(text, 1, r, 4, p0);
    uint32_t got = lr.sim ? lit_get(&lr, GISA_RF_R, 0) : 0xDEADu;
    CHECKF(lr.sim && got == want, "%s (R1=%#x R2=%#x R3=%#x, P0=%d): want R0=%#x got %#x", text, r[0], r[1], r[2],
           p0, want, got);
    gisa_sim_free(lr.sim);
}

static void expect_p01(const char *text, const uint32_t r[4], int p0, int want_p0, int want_p1)
{
    lit_run lr = lit_start(text, 1, r, 4, p0);
    uint32_t g0 = lr.sim ? lit_get(&lr, GISA_RF_P, 0) : 9, g1 = lr.sim ? lit_get(&lr, GISA_RF_P, 1) : 9;
    CHECKF(lr.sim && g0 == (uint32_t)want_p0 && g1 == (uint32_t)want_p1,
           "%s (R1=%#x R2=%#x): want P0=%d P1=%d, got P0=%u P1=%u", text, r[0], r[1], want_p0, want_p1, g0, g1);
    gisa_sim_free(lr.sim);
}

static void test_lanes(void)
{
    /* F16: R1 = {H1 = 1.0, H0 = 2.0}, R2 = {H1 = 2.0, H0 = 1.0} */
    const uint32_t f[4] = {0x3C004000u, 0x40003C00u, 0x7E00BC00u, 0};
    /* lane 0 (low halves): 2 < 1 false; lane 1 (high halves): 1 < 2 true */
    expect_p01("HSETP2.LT.AND P0, P1, R1, R2, PT", f, 0, 0, 1);
    expect_p01("HSETP2.GT.AND P0, P1, R1, R2, PT", f, 0, 1, 0);
    expect_p01("HSETP2.LT.AND P0, P1, R1, R2, !PT", f, 0, 0, 0);
    expect_p01("HSETP2.LT.OR P0, P1, R1, R2, P2", f, 0, 1, 1);
    expect_p01("HSETP2.LT.XOR P0, P1, R1, R2, P2", f, 0, 1, 0);
    expect_p01("HSETP2.LT.XOR P0, P1, R1, R2, !P2", f, 0, 0, 1);
    /* hsel: both lanes read the same half */
    expect_p01("HSETP2.LT.AND P0, P1, R1.H0_H0, R2, PT", f, 0, 0, 0); /* 2<1, 2<2 */
    expect_p01("HSETP2.LT.AND P0, P1, R1.H1_H1, R2, PT", f, 0, 0, 1); /* 1<1, 1<2 */
    expect_p01("HSETP2.LE.AND P0, P1, R1.H1_H1, R2, PT", f, 0, 1, 1);
    /* NaN in lane 1 of R3 (0x7E00), -1 in lane 0 */
    expect_p01("HSETP2.LT.AND P0, P1, R3, R1, PT", f, 0, 1, 0);
    expect_p01("HSETP2.LTU.AND P0, P1, R3, R1, PT", f, 0, 1, 1);
    expect_p01("HSETP2.NAN.AND P0, P1, R3, R1, PT", f, 0, 0, 1);
    expect_p01("HSETP2.NUM.AND P0, P1, R3, R1, PT", f, 0, 1, 0);
    /* HSET2: lane 0 in R0[15:0], lane 1 in R0[31:16] */
    expect_r0("HSET2.LT.AND R0, R1, R2, PT", f, 0, 0xFFFF0000u);
    expect_r0("HSET2.LT.AND.BM R0, R1, R2, PT", f, 0, 0xFFFF0000u);
    expect_r0("HSET2.GT.AND.BF R0, R1, R2, PT", f, 0, 0x00003C00u);
    expect_r0("HSET2.GE.OR.BF R0, R1, R2, P0", f, 1, 0x3C003C00u);
    expect_r0("HSET2.NE.XOR.BF R0, R1, R2, P0", f, 1, 0x00000000u);
    expect_r0("HSET2.EQ.XOR.BF R0, R1, R2, P0", f, 1, 0x3C003C00u);
    expect_r0("HSET2.EQU.AND.BF R0, R3, R3, PT", f, 0, 0x3C003C00u); /* lane 1 NaN: unordered */
    expect_r0("HSET2.EQ.AND.BF R0, R3, R3, PT", f, 0, 0x00003C00u);  /* ordered: lane 1 false */
    /* BF16: R1 = {H1 = 1.0, H0 = 2.0}, R2 = {H1 = 2.0, H0 = 1.0} */
    const uint32_t b[4] = {0x3F804000u, 0x40003F80u, 0x7FC0BF80u, 0};
    expect_p01("HSETP2.BF16_V2.LT.AND P0, P1, R1, R2, PT", b, 0, 0, 1);
    expect_p01("HSETP2.BF16_V2.LT.AND P0, P1, R1.H1_H1, R2.H0_H0, PT", b, 0, 0, 0); /* 1<1, 1<1 */
    expect_r0("HSET2.BF16_V2.GT.AND.BF R0, R1, R2, PT", b, 0, 0x00003F80u);
    expect_r0("HSET2.BF16_V2.LT.AND.BF R0, R1, R2, PT", b, 0, 0x3F800000u);
    expect_r0("HSET2.BF16_V2.LT.AND R0, R1, R2, PT", b, 0, 0xFFFF0000u);
    expect_r0("HSET2.BF16_V2.NAN.AND.BF R0, R3, R1, PT", b, 0, 0x3F800000u);
}

static void test_hsel(void)
{
    /* R1 = {H1 = 2.0, H0 = 1.0}, R2 = {H1 = 8.0, H0 = 4.0}, R3 = {H1 = 0.5, H0 = 0.25} */
    const uint32_t f[4] = {0x40003C00u, 0x48004400u, 0x38003400u, 0};
    expect_r0("HADD2 R0, R1, R2", f, 0, 0x49004500u);                 /* {10, 5} */
    expect_r0("HADD2 R0, R1.H1_H0, R2.H1_H0", f, 0, 0x49004500u);
    expect_r0("HADD2 R0, R1.H0_H0, R2", f, 0, 0x48804500u);           /* {9, 5} */
    expect_r0("HADD2 R0, R1.H1_H1, R2", f, 0, 0x49004600u);           /* {10, 6} */
    expect_r0("HADD2 R0, R1, R2.H0_H0", f, 0, 0x46004500u);           /* {6, 5} */
    expect_r0("HADD2 R0, R1, R2.H1_H1", f, 0, 0x49004880u);           /* {10, 9} */
    expect_r0("HADD2 R0, R1.H1_H1, R2.H0_H0", f, 0, 0x46004600u);     /* {6, 6} */
    expect_r0("HADD2 R0, -R1.H1_H1, |R2.H0_H0|", f, 0, 0x40004000u);  /* {2, 2} */
    expect_r0("HMUL2 R0, R1.H0_H0, R2.H1_H1", f, 0, 0x48004800u);     /* {8, 8} */
    expect_r0("HMUL2 R0, R1.H1_H1, -R2", f, 0, 0xCC00C800u);          /* {-16, -8} */
    expect_r0("HFMA2 R0, R1, R2.H0_H0, R3.H1_H1", f, 0, 0x48404480u); /* {2*4+.5, 1*4+.5} */
    expect_r0("HFMA2 R0, R1.H1_H1, R2, R3.H0_H0", f, 0, 0x4C104820u); /* {2*8+.25, 2*4+.25} */
    expect_r0("HFMA2 R0, R1.H0_H0, R2.H1_H1, -R3", f, 0, 0x478047C0u); /* {8-.5, 8-.25} */
    expect_r0("HMNMX2 R0, R1.H1_H1, R2.H0_H0, PT", f, 0, 0x40004000u); /* min(2,4) both */
    expect_r0("HMNMX2 R0, R1.H0_H0, R2, !PT", f, 0, 0x48004400u);     /* max(1,8), max(1,4) */
    /* BF16: R1 = {2.0, 1.0}, R2 = {8.0, 4.0} */
    const uint32_t b[4] = {0x40003F80u, 0x41004080u, 0x3F003E80u, 0};
    expect_r0("HADD2.BF16_V2 R0, R1.H0_H0, R2", b, 0, 0x411040A0u); /* {9, 5} */
    expect_r0("HMUL2.BF16_V2 R0, R1.H1_H1, R2.H0_H0", b, 0, 0x41004100u);        /* {8, 8} */
    /* F16 immediates: written high half first */
    expect_r0("HADD2 R0, R1, -1, 1", f, 0, 0x3C004000u);   /* {2-1, 1+1} */
    expect_r0("HADD2 R0, R1, 0h3C00, 0h0000", f, 0, 0x42003C00u); /* {2+1, 1+0} */
    expect_r0("HMUL2 R0, R1, 0.5, -2", f, 0, 0x3C00C000u); /* {1, -2} */
    expect_r0("HFMA2 R0, R1, R2, 1, -1", f, 0, 0x4C404200u); /* {16+1, 4-1} */
    /* BF16 immediates */
    expect_r0("HADD2.BF16_V2 R0, R1, -1, 1", b, 0, 0x3F804000u);         /* {2-1, 1+1} */
    expect_r0("HMUL2.BF16_V2 R0, R1, 0.5, -2", b, 0, 0x3F80C000u);       /* {1, -2} */
    expect_r0("HADD2.BF16_V2 R0, RZ, 3.0e38, -inf", b, 0, 0x7F62FF80u);  /* 3e38 -> 0x7F62 (RN) */
    expect_r0("HADD2.BF16_V2 R0, RZ, 0h4049, 0h3F80", b, 0, 0x40493F80u);
    expect_r0("HFMA2.BF16_V2 R0, R1, R2, -1, 0.5", b, 0, 0x41704090u); /* {16-1, 4+.5} */
}

/* ------------------------------------------------------------------ assembly errors */

static void test_asm_errors(void)
{
    static const char *const bad_rnd[] = {
        "HADD2.RP R0, R1, R2",
        "HADD2.RM R0, R1, R2",
        "HADD2.RZ R0, R1, R2",
        "HMUL2.RP R0, R1, R2",
        "HMUL2.RZ R0, R1, 1, 1",
        "HFMA2.RZ R0, R1, R2, R3",
        "HFMA2.RM R0, R1, R2, R3",
        "HFMA2.BF16_V2.RP R0, R1, R2, R3",
        "HFMA2.FTZ.RELU.RP R0, R1, R2, R3",
        "HADD2.BF16_V2.RZ R0, R1, -1, 1",
    };
    for (size_t i = 0; i < sizeof bad_rnd / sizeof *bad_rnd; i++)
        expect_asm_error(bad_rnd[i], ".rnd");
    expect_asm_ok("HADD2.RN R0, R1, R2");
    expect_asm_ok("HMUL2.RN R0, R1, R2");
    expect_asm_ok("HFMA2.RN R0, R1, R2, R3");
    expect_asm_ok("HFMA2.BF16_V2.RELU.RN R0, R1, R2, R3");
    expect_asm_error("HADD2.BF16_V2.FTZ R0, R1, R2", NULL);
    expect_asm_error("HMUL2.BF16_V2.SAT R0, R1, R2", NULL);
    expect_asm_error("HFMA2.BF16_V2.FTZ R0, R1, R2, R3", NULL);
    expect_asm_error("HFMA2.RELU.SAT R0, R1, R2, R3", NULL);
    expect_asm_error("HADD2.F32 R0, R1, R2", NULL);
}

int main(void)
{
    clock_t t0 = clock();
    fp_setup();
    test_asm_errors();
    test_lanes();
    test_hsel();
    test_examples();
    for (int fi = F16; fi <= BF16; fi++) {
        test_arith(fi);
        test_minmax(fi);
        test_compare(fi);
        test_operand_sources(fi);
    }
    fp_report("F16x2 and BF16x2 (HALU)", t0);
    fp_teardown();
    return test_summary();
}
