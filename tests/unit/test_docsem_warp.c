/* The pseudo-code's names beyond a lane's operands (docs/semantics-language.md,
 * "Beyond the lane's operands"), run by the doc engine on a small target of
 * their own and checked against what C computes from the same state:
 *   - the predicate file: P0..P7 of a PR operand (P7 is PT: its write is
 *     dropped), a predicate written only on the lanes that assign it;
 *   - the warp: activeMask, pgv, pickLane, thread(l).x;
 *   - R[i] with an index per lane: reads, writes grouped by row, RZ, and the
 *     fault on the lowest executing lane whose index is outside the file;
 *   - the compile errors: two R[i] writes, thread with two arguments;
 *   - a result written on some lanes only: the others keep their value, so
 *     the program reads the old Rd and does not write its rows in place. */
#include <stdlib.h>
#include <string.h>

#include "docsem/prog.h"
#include "sim/sim.h"
#include "testlib.h"

#define REGS 32

static const char TYPES[] =
    "__DefTarget w<128>\n"
    "__DefRegisterType Reg<8>\n    class = GPR;\n    prefix = R;\n    zero = RZ = 255;\n"
    "__DefRegisterType Pred<3>\n    class = PRED;\n    prefix = P;\n    zero = PT = 7;\n"
    "__DefBitFieldType PModi<1>\n    False = 0;\n    True;\n"
    "__DefBitFieldType Optype<8>\n    OPA = 0x10;\n    OPB;\n    OPC;\n    OPD;\n    OPE;\n    OPF;\n"
    "__DefBitFieldType SType<4>\n    RR;\n"
    "__DefGroup G\n  __Encoding\n    field<12, 3> Pred pg = PT;\n    field<15, 1> PModi pg.not = False;\n"
    "    field<24, 8> Reg ra;\n";

/* optype NAME with syntax line SYN (operands after the mnemonic) and code */
#define OT(NAME, SYN, RD, RB, CODE)                                                                           \
    "__DefOptype " NAME " : [G]\n  __Encoding\n    field<0, 8> Optype optype == " NAME ";\n" RD                \
    "  __Syntax\n```asm\n" NAME " " SYN " ;\n```\n  __Semantics\n```asm\n" NAME " " SYN ":\n" CODE "```\n"     \
    "__DefOpcode " NAME "_RR : [" NAME "]\n  __Encoding\n    field<8, 4> SType stype == RR;\n" RB
#define RD_FIELD "    field<16, 8> Reg rd;\n"
#define RB_FIELD "    field<32, 8> Reg rb;\n"

static const char OPS[] =
    /* a register by a lane's index, another lane's value, the lowest guarded lane */
    OT("OPA", "Rd, Ra, SrcB", RD_FIELD, RB_FIELD,
       "    t = R[Ra];\n    R[SrcB] = t + 1;\n    Rd = thread(Ra & 31).SrcB + (pickLane(activeMask, pgv) << 16);\n")
    /* every predicate from a byte; P7 (PT) dropped */
    OT("OPB", "PR, Ra", "", "", "    P0,P1,P2,P3,P4,P5,P6,P7 = unpackByte2Bits(Ra);\n")
    /* one predicate on the lanes whose bit 0 is set, and a byte of them back */
    OT("OPC", "Rd, PR, Ra", RD_FIELD, "", "    if (Ra[0:0]) P3 = Ra[1:1];\n    Rd = packPred2Byte(P0,P1,P2,P3,P4,P5,P6,P7);\n")
    OT("OPD", "Rd, Ra, SrcB", RD_FIELD, RB_FIELD, "    R[Ra] = 1;\n    R[SrcB] = 2;\n    Rd = 0;\n")
    OT("OPE", "Rd, Ra, SrcB", RD_FIELD, RB_FIELD, "    Rd = thread(Ra, SrcB).Ra;\n")
    OT("OPF", "Rd, Ra", RD_FIELD, "", "    if (Ra[0:0]) Rd = Ra;\n");

static gisa_isa *load(void)
{
    gisa_source src[2] = {{"types.isa", TYPES, strlen(TYPES)}, {"ops.isa", OPS, strlen(OPS)}};
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = api_load_sources(src, 2, &isa, d);
    CHECKF(st == GISA_OK && isa, "load: status %d", st);
    if (st != GISA_OK)
        test_dump_diags(d);
    gisa_diags_free(d);
    return st == GISA_OK ? isa : NULL;
}

typedef struct run {
    uint32_t r[REGS][32];
    uint32_t p[7];
    gisa_status st;
    gisa_sim_fault f;
} run;

/* runs `text` under the doc engine from r/p/active; the state after it in *out */
static void run_doc(const gisa_isa *isa, const char *text, const run *in, uint32_t active, run *out)
{
    gisa_word w;
    gisa_diags *d = api_diags();
    gisa_sim *sim = NULL;
    memset(out, 0, sizeof *out);
    out->st = GISA_ERR_INPUT;
    if (api_asm_one(isa, text, &w, d) != GISA_OK || gisa_sim_new(isa, REGS, 1, &sim) != GISA_OK) {
        CHECKF(0, "%s does not assemble or no simulator", text);
        test_dump_diags(d);
        gisa_diags_free(d);
        return;
    }
    gisa_diags_free(d);
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    gisa_sim_load(sim, &w, 1);
    for (unsigned i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_R, i, l, in->r[i][l]);
    for (unsigned i = 0; i < 7; i++)
        for (int l = 0; l < 32; l++)
            gisa_sim_set(sim, 0, GISA_RF_P, i, l, in->p[i] >> l & 1);
    gisa_sim_set_active(sim, 0, active);
    out->st = gisa_sim_run(sim, &out->f);
    for (unsigned i = 0; i < REGS; i++)
        for (unsigned l = 0; l < 32; l++)
            gisa_sim_get(sim, 0, GISA_RF_R, i, l, &out->r[i][l]);
    for (unsigned i = 0; i < 7; i++)
        for (unsigned l = 0; l < 32; l++) {
            uint32_t v;
            gisa_sim_get(sim, 0, GISA_RF_P, i, l, &v);
            out->p[i] |= (v & 1) << l;
        }
    gisa_sim_free(sim);
}

static void random_in(tg_rng *g, run *in)
{
    for (int i = 0; i < REGS; i++)
        for (int l = 0; l < 32; l++)
            in->r[i][l] = (uint32_t)tg_next(g);
    for (int i = 0; i < 7; i++)
        in->p[i] = (uint32_t)tg_next(g);
}

/* OPA R1, R2, R3 with R2 and R3 indices per lane (R3 sometimes RZ); P0 guards */
static void test_lanes_and_indices(const gisa_isa *isa, tg_rng *g)
{
    for (int iter = 0; iter < 200; iter++) {
        run in, out, want;
        random_in(g, &in);
        uint32_t active = iter % 3 ? (uint32_t)tg_next(g) | 1u << tg_below(g, 32) : 0xffffffffu;
        in.p[0] |= active & (0u - active); /* some lane executes */
        uint32_t exec = active & in.p[0];
        for (int l = 0; l < 32; l++) {
            in.r[2][l] = (uint32_t)tg_below(g, REGS);
            in.r[3][l] = tg_below(g, 8) ? (uint32_t)tg_below(g, REGS) : 255;
        }
        /* one case in four: an index outside the file on some executing lane */
        int bad_lane = -1;
        if (iter % 4 == 3)
            for (int k = (int)tg_below(g, (uint64_t)__builtin_popcount(exec)), l = 0; bad_lane < 0; l++)
                if (exec >> l & 1 && k-- == 0)
                    bad_lane = l;
        if (bad_lane >= 0)
            in.r[3][bad_lane] = REGS + (uint32_t)tg_below(g, 200);
        run_doc(isa, "@P0 OPA R1, R2, R3", &in, active, &out);
        if (bad_lane >= 0) { /* the lowest executing lane with a bad index, nothing written */
            int first = -1;
            for (int l = 0; l < 32 && first < 0; l++)
                if (exec >> l & 1 && in.r[3][l] != 255 && in.r[3][l] >= REGS)
                    first = l;
            char msg[120];
            snprintf(msg, sizeof msg, "register index %u is outside R0..R%d (and RZ) in lane %d", in.r[3][first],
                     REGS - 1, first);
            CHECKF(out.st == GISA_ERR_SIM && out.f.lane == first && !strcmp(out.f.message, msg),
                   "fault: status %d lane %d '%s', want lane %d '%s'", out.st, out.f.lane, out.f.message, first, msg);
            CHECK(!memcmp(out.r, in.r, sizeof in.r));
            continue;
        }
        want = in;
        const uint32_t lowest = (uint32_t)__builtin_ctz(exec);
        for (int l = 0; l < 32; l++) {
            if (!(exec >> l & 1))
                continue;
            uint32_t t = in.r[in.r[2][l]][l];
            if (in.r[3][l] != 255) /* R[SrcB] first, then Rd: where SrcB names R1 the result wins */
                want.r[in.r[3][l]][l] = t + 1;
            want.r[1][l] = in.r[3][in.r[2][l] & 31] + (lowest << 16);
        }
        CHECKF(out.st == GISA_OK, "OPA: status %d (%s)", out.st, out.f.message);
        int same = !memcmp(out.r, want.r, sizeof want.r);
        CHECKF(same, "OPA iteration %d: registers differ from the C reference", iter);
        if (!same)
            return;
    }
}

static void test_predicate_file(const gisa_isa *isa, tg_rng *g)
{
    for (int iter = 0; iter < 100; iter++) {
        run in, out;
        random_in(g, &in);
        uint32_t active = iter % 2 ? (uint32_t)tg_next(g) : 0xffffffffu;
        run_doc(isa, "OPB PR, R4", &in, active, &out);
        CHECKF(out.st == GISA_OK, "OPB: status %d (%s)", out.st, out.f.message);
        for (int i = 0; i < 7; i++) {
            uint32_t want = in.p[i] & ~active;
            for (int l = 0; l < 32; l++)
                want |= (active >> l & 1) << l & (in.r[4][l] >> i & 1) << l;
            CHECKF(out.p[i] == want, "OPB: P%d 0x%08x, want 0x%08x", i, out.p[i], want);
        }
        run_doc(isa, "OPC R5, PR, R4", &in, active, &out);
        CHECKF(out.st == GISA_OK, "OPC: status %d (%s)", out.st, out.f.message);
        uint32_t p3 = in.p[3];
        for (int l = 0; l < 32; l++)
            if (active >> l & 1 && in.r[4][l] & 1)
                p3 = (p3 & ~(1u << l)) | (in.r[4][l] >> 1 & 1) << l;
        CHECKF(out.p[3] == p3, "OPC: P3 0x%08x, want 0x%08x", out.p[3], p3);
        for (int l = 0; l < 32; l++) {
            uint32_t byte = 0x80;
            for (int i = 0; i < 7; i++)
                byte |= ((i == 3 ? p3 : in.p[i]) >> l & 1) << i;
            if (active >> l & 1)
                CHECKF(out.r[5][l] == byte, "OPC lane %d: R5 0x%02x, want 0x%02x", l, out.r[5][l], byte);
        }
    }
}

static void test_errors(const gisa_isa *isa)
{
    run in, out;
    memset(&in, 0, sizeof in);
    run_doc(isa, "OPD R1, R2, R3", &in, 0xffffffffu, &out);
    CHECKF(out.st == GISA_ERR_SIM && strstr(out.f.message, "at most one register by index"), "OPD: %d '%s'", out.st,
           out.f.message);
    run_doc(isa, "OPE R1, R2, R3", &in, 0xffffffffu, &out);
    CHECKF(out.st == GISA_ERR_SIM && strstr(out.f.message, "thread takes one argument"), "OPE: %d '%s'", out.st,
           out.f.message);
}

/* OPF R1, R2 writes R1 where R2 is odd; the program reads the old R1 */
static void test_partial_write(const gisa_isa *isa, tg_rng *g)
{
    for (int iter = 0; iter < 50; iter++) {
        run in, out;
        random_in(g, &in);
        const uint32_t active = iter % 2 ? (uint32_t)tg_next(g) : 0xffffffffu; /* all: the rows may be written directly */
        if (iter % 2 == 0)
            in.p[0] = 0xffffffffu;
        run_doc(isa, "@P0 OPF R1, R2", &in, active, &out);
        CHECKF(out.st == GISA_OK, "OPF: status %d", out.st);
        int bad = 0;
        for (int r = 0; r < REGS; r++)
            for (int l = 0; l < 32; l++) {
                const int exec = (active & in.p[0]) >> l & 1;
                const uint32_t want = r == 1 && exec && (in.r[2][l] & 1) ? in.r[2][l] : in.r[r][l];
                bad += out.r[r][l] != want;
            }
        CHECKF(bad == 0, "OPF R1, R2 (iteration %d): %d register lanes differ from R1 = R2 where R2 is odd", iter, bad);
    }
    gisa_word w;
    gisa_sim *sim = NULL;
    CHECK(api_asm_one(isa, "OPF R1, R2", &w, NULL) == GISA_OK && gisa_sim_new(isa, REGS, 1, &sim) == GISA_OK);
    if (!sim)
        return;
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    gisa_sim_load(sim, &w, 1);
    CHECK(gisa_sim_run(sim, NULL) == GISA_OK);
    const ds_prog *p = sim->nprog == 1 ? sim->prog[0].doc : NULL;
    CHECKF(p && (p->olds & 1u << RO_D) && !p->run_direct, "OPF's program does not read the old Rd, or writes its rows in place");
    gisa_sim_free(sim);
}

int main(void)
{
    gisa_isa *isa = load();
    if (!isa)
        return test_summary();
    tg_rng g = {21};
    test_lanes_and_indices(isa, &g);
    test_predicate_file(isa, &g);
    test_errors(isa);
    test_partial_write(isa, &g);
    gisa_isa_free(isa);
    return test_summary();
}
