/* The doc engine's optimiser (src/docsem/opt.c) does its work: programs of
 * the sim_bench kernels' instructions (and of their forms that write RZ or
 * PT) keep no operation whose result nobody reads, and are less than half as
 * long as the compiler's first output (98 operations for the seven int
 * instructions before the optimiser, 42 after; 93 and under 66 for the five
 * fp ones). The 32-bit kernels' programs all run on 32-bit lanes (the int
 * kernel's too, since demanded bits are tracked bit by bit and fields of a
 * packed value are read from where they came from), the F64 ones on 64-bit
 * lanes (docsem/narrow.c), and a program that compares a 64-bit product
 * with 2^64 on neither. The canonical NaN of a rounding is loaded inside the
 * branch that reads it. That what they compute is unchanged is
 * test_docsem's part (which runs every program on three lane widths) and
 * fuzz_docsem's. */
#include <stdlib.h>
#include <string.h>

#include "docsem/prog.h"
#include "sim/doclower.h"
#include "sim/sim.h"
#include "testlib.h"

/* results that only operations like these give are never needed for their effect */
static int pure(int code) { return code <= DO_FMAX || code == DO_IN || code == DO_INPRED || code == DO_OLD || code == DO_OLDPRED; }

static int read_by_any(const ds_prog *p, int slot)
{
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        if (o->a == slot || (!o->bk && o->b == slot) || o->c == slot)
            return 1;
    }
    return 0;
}

/* a simulator that has run src under the doc engine (so every word has its
 * program); the caller frees it */
static gisa_sim *run_doc(const gisa_isa *isa, const char *src)
{
    gisa_word *words;
    size_t n;
    gisa_diags *d = api_diags();
    CHECK(gisa_assemble(isa, "kernel", src, strlen(src), NULL, &words, &n, d) == GISA_OK);
    gisa_diags_free(d);
    gisa_sim *sim;
    CHECK(gisa_sim_new(isa, 32, 1, &sim) == GISA_OK);
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    gisa_sim_load(sim, words, n);
    CHECK(gisa_sim_run(sim, NULL) == GISA_OK);
    free(words);
    return sim;
}

/* total operations of the programs of src, each checked for dead results;
 * *wide (may be NULL) counts those that need lanes wider than `lanes` bits */
static int ops_of(const gisa_isa *isa, const char *src, int lanes, int *wide)
{
    gisa_sim *sim = run_doc(isa, src);
    int total = 0;
    for (size_t i = 0; i < sim->nprog; i++) {
        const ds_prog *p = sim->prog[i].doc;
        CHECKF(p != NULL, "%s has no program", sim->prog[i].text);
        if (!p)
            continue;
        total += p->nops;
        if (wide)
            *wide += p->lane_bits > lanes;
        for (int k = 0; k < p->nops; k++)
            if (pure(p->ops[k].code))
                CHECKF(read_by_any(p, p->ops[k].d), "%s: operation %d writes slot %d, which nobody reads",
                       sim->prog[i].text, k, p->ops[k].d);
    }
    gisa_sim_free(sim);
    return total;
}

/* the operations of code in the programs of src */
static int count_code(const gisa_isa *isa, const char *src, int code)
{
    gisa_sim *sim = run_doc(isa, src);
    int n = 0;
    for (size_t i = 0; i < sim->nprog; i++)
        for (int k = 0; sim->prog[i].doc && k < sim->prog[i].doc->nops; k++)
            n += sim->prog[i].doc->ops[k].code == code;
    gisa_sim_free(sim);
    return n;
}

/* the operations of code in the executor's form of src's programs (doclower.h) */
static int count_run_code(const gisa_isa *isa, const char *src, int code)
{
    gisa_sim *sim = run_doc(isa, src);
    int n = 0;
    for (size_t i = 0; i < sim->nprog; i++) {
        const ds_prog *p = sim->prog[i].doc;
        CHECKF(p && p->run_ops, "%s has no executor's form", sim->prog[i].text);
        for (int k = 0; p && p->run_ops && k < p->run_nops; k++)
            n += p->run_ops[k].code == code;
    }
    gisa_sim_free(sim);
    return n;
}

/* whether src's one program may write the result's rows itself */
static int direct(const gisa_isa *isa, const char *src)
{
    gisa_sim *sim = run_doc(isa, src);
    const int d = sim->nprog == 1 && sim->prog[0].doc && sim->prog[0].doc->run_direct;
    gisa_sim_free(sim);
    return d;
}

/* words that compile to the same program share it; others do not */
static void shared_programs(const gisa_isa *isa)
{
    gisa_sim *sim = run_doc(isa, "IADD R1, R2, R3 ;\nFFMA R1, R2, R3, R4 ;\nIADD R7, R8, R9 ;\nIADD R7, R8, 0x5 ;\n"
                                 "IADD R7, R8, 0x6 ;\nIADD R5, R6, 0x5 ;\nFFMA R9, R8, R7, R6 ;\n");
    const sim_insn *in = sim->prog;
    CHECK(sim->nprog == 7);
    if (sim->nprog == 7) {
        CHECKF(in[0].doc == in[2].doc, "IADD R1, R2, R3 and IADD R7, R8, R9 share a program");
        CHECKF(in[1].doc == in[6].doc, "the two FFMAs share a program");
        CHECKF(in[3].doc == in[5].doc, "IADD with the same immediate share a program");
        CHECKF(in[3].doc != in[4].doc, "IADDs with other immediates do not share a program");
        CHECKF(in[0].doc != in[3].doc && in[0].doc != in[1].doc, "other forms do not share a program");
        CHECKF(in[0].doc && in[0].doc->run_shares == 1, "IADD's program counts one more word");
    }
    gisa_sim_free(sim); /* ASan and valgrind see each program freed once */
}

/* in the program of src's one instruction, no constant is loaded before the
 * first branch (the canonical NaN is read only inside it) */
static void consts_in_branch(const gisa_isa *isa, const char *src)
{
    gisa_sim *sim = run_doc(isa, src);
    const ds_prog *p = sim->nprog ? sim->prog[0].doc : NULL;
    CHECKF(p != NULL, "%s has no program", src);
    int seen_if = 0, early = 0;
    for (int k = 0; p && k < p->nops; k++) {
        seen_if |= p->ops[k].code == DO_IF;
        early += !seen_if && p->ops[k].code == DO_CONST;
    }
    CHECKF(p && seen_if && !early, "%s: %d constants loaded before its branch", src, early);
    gisa_sim_free(sim);
}

int main(void)
{
    gisa_isa *isa;
    CHECK(api_load_embedded("gisa128", &isa, NULL) == GISA_OK);
    if (!isa)
        return test_summary();
    int wide = 0;
    int i = ops_of(isa, "IADD R1, R2, R3 ;\nIMAD R1, R2, R3, R4 ;\nLOP3.POR R1, R2, R3, R4, 0x96, !PT ;\n"
                        "SHF.L.WRAP.U32 R1, R2, R3, R4 ;\nISETP.LT.AND P1, PT, R2, R3, PT ;\nSEL R1, R2, R3, P2 ;\n"
                        "PRMT R1, R2, R3, 0x3210 ;\n", 32, &wide);
    CHECKF(wide == 0, "%d of the int kernel's programs need lanes wider than 32 bits", wide);
    CHECKF(i <= 42, "the int kernel's instructions take %d operations", i);
    /* a funnel shift whose high word no reader uses, and a byte permutation
     * whatever its selector (fields of a 64-bit value built from two 32-bit
     * ones are read from those), run on 32-bit lanes; the range of a masked
     * shift count proves its fault condition false */
    ops_of(isa, "PRMT R1, R2, R3, 0x7654 ;\nPRMT R1, R2, R3, 0x8a54 ;\nPRMT R1, R2, R3, 0xf0e1 ;\n"
                "PRMT R1, R2, R3, 0x1357 ;\nSHF.L.WRAP.U32 R1, R2, R3, R4 ;\n", 32, &wide);
    CHECKF(wide == 0, "%d of the PRMT/SHF programs need lanes wider than 32 bits", wide);
    CHECKF(count_code(isa, "SHF.L.WRAP.U32 R1, R2, R3, R4 ;\n", DO_FAULT) == 0, "SHF's count cannot be negative");
    /* both halves of HFMA2 are written: the old value of Rd is not read */
    CHECKF(count_code(isa, "HFMA2 R1, R2, R3, R4 ;\n", DO_OLD) == 0, "HFMA2 reads the old Rd");
    int f = ops_of(isa, "FFMA R1, R2, R3, R4 ;\nFADD R1, R2, -R3 ;\nFMUL R1, R2, R3 ;\n"
                        "FSETP.LT.AND P1, PT, R2, R3, PT ;\nFMNMX R1, R2, R3, P2 ;\n", 32, &wide);
    CHECKF(f <= 70, "the fp kernel's instructions take %d operations", f);
    /* what is written to RZ or PT is dropped, with what computes it */
    int z = ops_of(isa, "IADD RZ, R2, R3 ;\nISETP.LT.AND PT, PT, R2, R3, PT ;\n", 128, NULL);
    CHECKF(z == 0, "results to RZ and PT take %d operations", z);
    ops_of(isa, "HFMA2 R1, R2, R3, R4 ;\nHFMA2.BF16_V2 R1, R2, R3, R4 ;\nHADD2 R1, R2, R3 ;\nFFMA.RZ R1, R2, R3, R4 ;\n",
           32, &wide);
    CHECKF(wide == 0, "%d of the 32-bit kernels' programs need lanes wider than 32 bits", wide);
    wide = 0;
    ops_of(isa, "DFMA R2, R4, R6, R8 ;\nDADD R2, R4, R6 ;\nDMUL R2, R4, R6 ;\n", 64, &wide);
    CHECKF(wide == 0, "%d of the F64 kernels' programs need 128-bit lanes", wide);
    /* the executor fuses the NaN tests that open a rounding's branch */
    CHECKF(count_run_code(isa, "FFMA R1, R2, R3, R4 ;\nFADD R1, R2, R3 ;\nDFMA R2, R4, R6, R8 ;\n", DO_FISNAN) == 0,
           "a NaN test that only opens a branch is left unfused");
    CHECKF(count_run_code(isa, "FFMA R1, R2, R3, R4 ;\n", XO_CSTORE) == 1 &&
               count_run_code(isa, "FFMA R1, R2, R3, R4 ;\n", DO_IF) == 0,
           "FFMA's canonical NaN is not one conditional store");
    CHECKF(count_run_code(isa, "DFMA R2, R4, R6, R8 ;\n", XO_IFNAN) == 4, "DFMA's four NaN branches are not fused");
    CHECKF(count_run_code(isa, "FMNMX R1, R2, R3, P2 ;\n", XO_IFNAN2) == 1, "FMNMX's either-NaN branch is not fused");
    CHECKF(count_run_code(isa, "DFMA R2, R4, R6, R8 ;\n", XO_NANCHAIN) == 1, "DFMA's NaN chain has no test before it");
    CHECKF(count_run_code(isa, "FFMA R1, R2, R3, R4 ;\n", XO_NANCHAIN) == 0, "a single NaN branch is no chain");
    /* an F16x2 word's two halves are one call of the 64-half kernel, also
     * with .SAT's clamps and a NaN test that is not next to its IF */
    CHECKF(count_run_code(isa, "HFMA2 R1, R2, R3, R4 ;\nHADD2 R1, R2, R3 ;\nHMUL2.BF16_V2 R1, R2, R3 ;\n"
                               "HFMA2.SAT R2, -R4.H1_H1, 0.4348, 0.203, |R28.H1_H1| ;\n",
                          XO_HPAIR) == 4,
           "an F16x2 word's halves are two kernel calls");
    /* FTZ of a constant is decided when compiling, a .BF/.BM choice between
     * two stores is a selection */
    const char *hset2 = "HSET2.BF16_V2.FTZ.GE.AND R2, -|R15.H0_H0|, -2.22e-06, -14.3 ;\n";
    CHECKF(count_code(isa, hset2, DO_FISSUB) == 2, "HSET2 tests its constants for subnormals when it runs");
    CHECKF(count_code(isa, hset2, DO_ELSE) == 0, "HSET2 branches to store 1.0 or 0");
    CHECKF(count_run_code(isa, hset2, XO_CSTORE) == 2 && count_run_code(isa, hset2, DO_ENDIF) == 0,
           "HSET2's flushes of its register source are not conditional stores");
    /* with FTZ's flushes as conditional stores, HADD2.FTZ's halves pair */
    CHECKF(count_run_code(isa, "HADD2.FTZ R4, -R30.H0_H0, |UR7.H0_H0| ;\n", XO_HPAIR) == 1,
           "HADD2.FTZ's halves are two kernel calls");
    /* F32 operations read their 32-bit sources in place */
    CHECKF(count_run_code(isa, "FFMA R1, R2, R3, R4 ;\nFMUL R1, R2, R3 ;\n", DO_IN) == 0,
           "an F32 operation's sources are copied before it");
    CHECKF(count_run_code(isa, "HFMA2.SAT R2, -R4.H1_H1, 0.4348, 0.203, |R28.H1_H1| ;\n", DO_FISNAN) == 0,
           "HFMA2.SAT keeps a NaN test apart from its branch");
    shared_programs(isa);
    /* a program writes the result's rows itself unless it reads the old
     * result or may fault after writing */
    CHECKF(direct(isa, "FFMA R1, R2, R3, R4 ;\n") && direct(isa, "IADD R1, R2, R3 ;\n"),
           "FFMA and IADD write through a copy");
    /* (a program that reads the old Rd: test_docsem_warp.c, OPF) */
    /* FMNMX writes Rd on every path: the old value goes */
    CHECKF(direct(isa, "FMNMX R1, R2, R3, P2 ;\n") && count_code(isa, "FMNMX R1, R2, R3, P2 ;\n", DO_OLD) == 0,
           "FMNMX keeps reading the old Rd that every path overwrites");
    consts_in_branch(isa, "FFMA R1, R2, R3, R4 ;\n");
    consts_in_branch(isa, "FADD R1, R2, R3 ;\n");
    consts_in_branch(isa, "DFMA R2, R4, R6, R8 ;\n");
    /* the carry of a 64-bit product is a comparison with 2^64, which 64 bits cannot hold */
    wide = 0;
    ops_of(isa, "IMAD.WIDE.U32 R2, P3, R4, R5, R6 ;\n", 64, &wide);
    CHECKF(wide == 1, "IMAD.WIDE.U32 with a carry runs on 64-bit lanes");
    gisa_isa_free(isa);
    return test_summary();
}
