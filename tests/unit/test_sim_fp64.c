/* F64 instructions (DADD DMUL DFMA DMNMX DSETP, register pairs R[2:3])
 * assembled and run through the simulator, every lane compared bit for bit
 * with the independent MPFR reference of fpref.h: the four roundings, all
 * operand-modifier combinations, the NaN rules (the first NaN in the order
 * SrcB, SrcC, Ra made quiet with sign and payload kept; invalid operations
 * give 0x7FFFFFFFFFFFFFFF), min/max with pp true = min, the 14 comparisons x
 * 3 boolean ops; special values crossed plus >= 10240 random tuples per
 * combination; SrcB/SrcC from UR pairs, c[][] and F64 immediates; the
 * documents' examples. */
#include <mpfr.h>

#include "fpref.h"

enum { NRANDOM = 10240 };

static void test_arith(void)
{
    for (int rnd = 0; rnd < 4; rnd++) {
        insn p = insn_new(OP_ADD, F64);
        p.rnd = rnd;
        run_combo(&p, GEN_ADD, 16, 0, 16, NRANDOM);
        p.op = OP_MUL;
        run_combo(&p, GEN_MUL, 16, 0, 16, NRANDOM);
        p.op = OP_FMA;
        run_combo(&p, GEN_FMA, 16, (unsigned)(16 * rnd), 64, NRANDOM);
    }
}

static void test_minmax(void)
{
    insn p = insn_new(OP_MNMX, F64);
    run_combo(&p, GEN_CMP, 16, 0, 16, NRANDOM);
    run_combo(&p, GEN_CMP, 16, 1, 16, NRANDOM); /* the other pp variants */
}

static void test_compare(void)
{
    run_compares(F64, 1, 0, 3, NRANDOM);
    /* .lop, pv and pp omitted: .AND, PT (dropped), PT */
    insn in[3];
    for (int i = 0; i < 3; i++) {
        in[i] = insn_new(OP_SETP, F64);
        in[i].cmp = find_cmp(i == 0 ? "LTU" : i == 1 ? "EQ" : "NUM");
        in[i].pu = i;
        in[i].pv_omit = 1;
        in[i].pp_omit = 1;
    }
    in[0].literal = "DSETP.LTU P0, R[0:1], R[2:3]";
    in[1].literal = "DSETP.EQ P1, -R[0:1], |R[2:3]|";
    in[2].literal = "DSETP.NUM P2, -R[0:1], -|R[2:3]|";
    in[1].a = o_r(0, 1), in[1].b = o_r(2, 2);
    in[2].a = o_r(0, 1), in[2].b = o_r(2, 3);
    batch b;
    batch_make(&b, F64, GEN_CMP, 0, 1, 2048);
    fp_run(in, 3, &b);
    batch_free(&b);
}

static void test_operand_sources(void)
{
    insn p = insn_new(OP_ADD, F64);
    p.rnd = RM;
    test_sources(&p, GEN_ADD);
    p = insn_new(OP_MUL, F64);
    p.rnd = RP;
    test_sources(&p, GEN_MUL);
    p = insn_new(OP_FMA, F64);
    p.rnd = RZ;
    test_sources(&p, GEN_FMA);
    p.rnd = RN;
    test_sources(&p, GEN_FMA);
    p = insn_new(OP_MNMX, F64);
    test_sources(&p, GEN_CMP);
    p = insn_new(OP_SETP, F64);
    p.cmp = find_cmp("GEU"), p.lop = LOP_XOR;
    test_sources(&p, GEN_CMP);
}

/* ------------------------------------------------------------------ examples */

static insn ex(int op, const char *text, unsigned rd, opnd a, opnd b) { return insn_example(op, F64, text, rd, a, b); }

/* Every __Examples line of dalu.isa.txt, assembled as written and run on
 * special and random inputs (R[0:1]..R[6:7] hold F64 values). */
static void test_examples(void)
{
    insn e[16];
    int n = 0;
    e[n++] = ex(OP_ADD, "DADD    R[0:1],   R[2:3], -R[4:5] ;", 0, o_r(2, 0), o_r(4, 1));
    e[n] = ex(OP_ADD, "DADD.RZ R[0:1], |R[2:3]|,   -0.25 ;", 0, o_r(2, 2), o_imm(0xBFD0000000000000u));
    e[n++].rnd = RZ;
    e[n++] = ex(OP_MUL, "DMUL    R[0:1],   R[2:3], -R[4:5] ;", 0, o_r(2, 0), o_r(4, 1));
    e[n] = ex(OP_MUL, "DMUL.RZ R[0:1], |R[2:3]|,   -0.25 ;", 0, o_r(2, 2), o_imm(0xBFD0000000000000u));
    e[n++].rnd = RZ;
    e[n] = ex(OP_FMA, "DFMA    R[0:1],   R[2:3], -R[4:5], RZ     ;", 0, o_r(2, 0), o_r(4, 1));
    e[n++].c = o_r(255, 0);
    e[n] = ex(OP_FMA, "DFMA.RZ R[0:1], |R[2:3]|,   -0.25, R[0:1] ;", 0, o_r(2, 2), o_imm(0xBFD0000000000000u));
    e[n].rnd = RZ, e[n++].c = o_r(0, 0);
    e[n] = ex(OP_MNMX, "DMNMX R[0:1], -|R[2:3]|, -|R2|, !PT ;", 0, o_r(2, 3), o_r(2, 3));
    e[n].pp = PT, e[n++].pp_not = 1;
    e[n] = ex(OP_MNMX, "DMNMX R[0:1],    R[2:3], 0.125, !P1 ;", 0, o_r(2, 0), o_imm(0x3FC0000000000000u));
    e[n].pp = 1, e[n++].pp_not = 1;
    e[n] = ex(OP_SETP, "DSETP.LE     P0,       R[4:5] , R[6:7]      ;", 0, o_r(4, 0), o_r(6, 0));
    e[n].cmp = find_cmp("LE"), e[n].pu = 0, e[n++].pv = PT;
    e[n] = ex(OP_SETP, "DSETP.GTU.OR P0, P1, -|R[6:7]|,     -1, !PT ;", 0, o_r(6, 3), o_imm(0xBFF0000000000000u));
    e[n].cmp = find_cmp("GTU"), e[n].lop = LOP_OR, e[n].pu = 0, e[n].pv = 1, e[n++].pp_not = 1;
    run_examples(e, n);
}

/* Directed NaN cases with literal expectations (independent of fpref). */
static void test_nan_rules(void)
{
    static const struct {
        const char *text;
        uint64_t a, b, c, want;
    } v[] = {
        /* SrcB's NaN first, made quiet, sign and payload kept */
        {"DADD R[8:9], R[0:1], R[2:3]", 0x7FF0000000000001u, 0xFFF0000000000002u, 0, 0xFFF8000000000002u},
        {"DMUL R[8:9], R[0:1], R[2:3]", 0x7FF4000000000001u, 0x3FF0000000000000u, 0, 0x7FFC000000000001u},
        {"DFMA R[8:9], R[0:1], R[2:3], R[4:5]", 0x7FF0000000000003u, 0x3FF0000000000000u, 0xFFF0000000000005u,
         0xFFF8000000000005u},
        {"DFMA R[8:9], R[0:1], R[2:3], R[4:5]", 0x7FF0000000000003u, 0x7FF0000000000004u, 0xFFF0000000000005u,
         0x7FF8000000000004u},
        /* the modifiers apply to the NaN's bit pattern */
        {"DADD R[8:9], R[0:1], -R[2:3]", 0, 0x7FF0000000000009u, 0, 0xFFF8000000000009u},
        {"DMUL R[8:9], -|R[0:1]|, R[2:3]", 0x7FF000000000000Au, 0x3FF0000000000000u, 0, 0xFFF800000000000Au},
        /* invalid operations */
        {"DADD R[8:9], R[0:1], -R[2:3]", 0x7FF0000000000000u, 0x7FF0000000000000u, 0, 0x7FFFFFFFFFFFFFFFu},
        {"DMUL R[8:9], R[0:1], R[2:3]", 0x8000000000000000u, 0x7FF0000000000000u, 0, 0x7FFFFFFFFFFFFFFFu},
        {"DFMA R[8:9], R[0:1], R[2:3], R[4:5]", 0, 0xFFF0000000000000u, 0x3FF0000000000000u, 0x7FFFFFFFFFFFFFFFu},
        /* min/max: one NaN -> the other operand, two -> quiet SrcB */
        {"DMNMX R[8:9], R[0:1], R[2:3], PT", 0x7FF0000000000001u, 0xC000000000000000u, 0, 0xC000000000000000u},
        {"DMNMX R[8:9], R[0:1], R[2:3], !PT", 0x7FF0000000000001u, 0xFFF0000000000002u, 0, 0xFFF8000000000002u},
        {"DMNMX R[8:9], R[0:1], R[2:3], PT", 0x8000000000000000u, 0, 0, 0x8000000000000000u},
        {"DMNMX R[8:9], R[0:1], R[2:3], !PT", 0x8000000000000000u, 0, 0, 0},
        {"DMNMX R[8:9], R[0:1], R[2:3], PT", 0x3FF0000000000000u, 0x4000000000000000u, 0, 0x3FF0000000000000u},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        const uint32_t r[6] = {(uint32_t)v[i].a, (uint32_t)(v[i].a >> 32), (uint32_t)v[i].b,
                               (uint32_t)(v[i].b >> 32), (uint32_t)v[i].c, (uint32_t)(v[i].c >> 32)};
        expect_reg(v[i].text, r, 6, 8, 1, v[i].want);
    }
}

int main(void)
{
    clock_t t0 = clock();
    fp_setup();
    test_nan_rules();
    test_examples();
    test_arith();
    test_minmax();
    test_compare();
    test_operand_sources();
    fp_report("F64 (DALU)", t0);
    fp_teardown();
    return test_summary();
}
