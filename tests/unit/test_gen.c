/* The random program generator (gisa_gen_*), on both targets:
 *  - every program of SEEDS seeds (GISA_GEN_SOAK=N seeds and GISA_GEN_COUNT=N
 *    instructions for more, and only this: scripts/gen_soak.sh)
 *    assembles without a diagnostic to exactly the generated words, each
 *    word disassembles to its line, and it runs in the simulator with
 *    exactly gisa_gen_regs registers, with its state and without, and
 *    faults nowhere;
 *  - the same seed and options give the same bytes (a fresh handle too);
 *  - each option does what it says (weights, include/exclude, rates,
 *    pools, streams, state) and a bad value is refused with a reason,
 *    keeping the old one;
 *  - each directed stream computes its idiom's result, checked against
 *    64/128-bit C arithmetic on the state's values;
 *  - --int-values: every integer immediate and state value of the classes asked;
 *  - gisa_shrink finds exactly the lines a monotone test needs. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define SEEDS 300
static size_t COUNT = 300; /* GISA_GEN_COUNT=N: instructions per program */

static gisa_gen *fresh(const gisa_isa *isa)
{
    gisa_gen *g = NULL;
    CHECK(gisa_gen_new(isa, &g) == GISA_OK && g);
    return g;
}

static void set(gisa_gen *g, const char *name, const char *value)
{
    gisa_diags *d = api_diags();
    gisa_status st = gisa_gen_set(g, name, value, d);
    CHECKF(st == GISA_OK, "--%s %s", name, value);
    if (st != GISA_OK)
        test_dump_diags(d);
    gisa_diags_free(d);
}

static int generate(gisa_gen *g, uint64_t seed, size_t count)
{
    gisa_diags *d = api_diags();
    gisa_status st = gisa_gen_generate(g, seed, count, d);
    if (st != GISA_OK)
        test_dump_diags(d);
    gisa_diags_free(d);
    return st == GISA_OK;
}

/* Runs the words with `regs` registers, from the state when given. */
static gisa_sim *simulate(const gisa_isa *isa, const gisa_word *w, size_t n, unsigned regs, const char *state,
                          gisa_status *run_status, gisa_sim_fault *fault)
{
    gisa_sim *sim = NULL;
    if (gisa_sim_new(isa, regs, 1, &sim) != GISA_OK)
        return NULL;
    gisa_sim_set_threads(sim, 1);
    gisa_sim_load(sim, w, n);
    if (state) {
        gisa_diags *d = api_diags();
        gisa_status st = api_state_read(sim, "gen.json", state, strlen(state), d);
        CHECK(st == GISA_OK);
        if (st != GISA_OK)
            test_dump_diags(d);
        gisa_diags_free(d);
    }
    *run_status = gisa_sim_run(sim, fault);
    return sim;
}

/* ------------------------------------------------------------ legality */

static long bad_reported;

static void check_program(const gisa_isa *isa, gisa_gen *g, uint64_t seed)
{
    size_t n, len;
    const gisa_word *w = api_gen_words(g, &n);
    const char *text = api_gen_text(g, &len);
    CHECK(strlen(text) == len && len && text[len - 1] == '\n');
    gisa_word *as = NULL;
    size_t nas = 0;
    gisa_diags *d = api_diags();
    gisa_status st = gisa_assemble(isa, "gen.s", text, len, NULL, &as, &nas, d);
    int ok = st == GISA_OK && gisa_diags_count(d) == 0 && nas == n;
    for (size_t i = 0; ok && i < n; i++)
        ok = as[i].w[0] == w[i].w[0] && as[i].w[1] == w[i].w[1];
    CHECKF(ok, "seed %llu: the text assembles to the generated words", (unsigned long long)seed);
    if (!ok && bad_reported++ < 3)
        test_dump_diags(d);
    gisa_free(as);
    gisa_diags_free(d);
    /* line by line: the disassembler's text */
    const char *p = strchr(text, '\n') + 1; /* after the header comment */
    for (size_t i = 0; i < n; i++) {
        char dis[256];
        const char *e = strchr(p, '\n');
        gisa_status ds = gisa_disassemble(isa, w[i], dis, sizeof dis, NULL);
        int same = ds == GISA_OK && e && strlen(dis) == (size_t)(e - p) && !memcmp(dis, p, (size_t)(e - p));
        if (!same) {
            CHECKF(same, "seed %llu, instruction %zu: '%.*s' disassembles as '%s'", (unsigned long long)seed, i,
                   e ? (int)(e - p) : 0, p, dis);
            break;
        }
        p = e + 1;
    }
    CHECK(*p == 0);
    for (int with_state = 0; with_state < 2; with_state++) {
        gisa_status rs;
        gisa_sim_fault f;
        gisa_sim *sim = simulate(isa, w, n, gisa_gen_regs(g), with_state ? api_gen_state(g, NULL) : NULL, &rs, &f);
        CHECKF(sim && rs == GISA_OK, "seed %llu (%s state): fault at pc %zu: %s: %s", (unsigned long long)seed,
               with_state ? "with" : "without", rs == GISA_ERR_SIM ? f.pc : 0, rs == GISA_ERR_SIM ? f.insn : "",
               rs == GISA_ERR_SIM ? f.message : gisa_status_str(rs));
        gisa_sim_free(sim);
    }
}

static void test_legal(const char *target, long seeds)
{
    const gisa_isa *isa = test_isa_target(target);
    gisa_gen *g = fresh(isa);
    long hits = 0;
    size_t nop = gisa_isa_opcode_count(isa);
    unsigned char *seen = calloc(nop, 1);
    for (long s = 1; s <= seeds; s++) {
        /* every tenth program with small pools and high rates */
        if (s % 10 == 0) {
            gisa_gen_free(g);
            g = fresh(isa);
            set(g, "regs", s % 20 ? "4" : "9");
            if (!target || strcmp(target, "fermi")) /* fermi has no uniform registers */
                set(g, "uregs", "2");
            set(g, "cwords", "2");
            set(g, "guard-rate", "1");
            set(g, "dep-rate", "1");
            set(g, "stream-rate", "0.5");
            set(g, "ctl-rate", "0.5");
        } else if (s % 10 == 1 && s > 1) {
            gisa_gen_free(g);
            g = fresh(isa);
        }
        if (!generate(g, (uint64_t)s, COUNT)) {
            CHECK(0);
            continue;
        }
        check_program(isa, g, (uint64_t)s);
        size_t n;
        const gisa_word *w = api_gen_words(g, &n);
        for (size_t i = 0; i < n; i++) {
            size_t op = api_decode_opcode(isa, w[i]);
            if (op < nop && !seen[op]) {
                seen[op] = 1;
                hits++;
            }
        }
    }
    printf("%s: %ld seeds x %zu instructions, %ld of %zu opcodes seen\n", target ? target : "gisa128", seeds, COUNT,
           hits, nop);
    CHECK((size_t)hits == nop);
    free(seen);
    gisa_gen_free(g);
}

/* ------------------------------------------------------------ determinism */

static void test_determinism(void)
{
    const gisa_isa *isa = test_isa();
    gisa_gen *a = fresh(isa), *b = fresh(isa);
    set(a, "weights", "FFMA=5,IALU=2");
    set(b, "weights", "FFMA=5,IALU=2");
    CHECK(generate(a, 42, 500) && generate(b, 42, 500));
    size_t la, lb, sa, sb;
    const char *ta = api_gen_text(a, &la), *tb = api_gen_text(b, &lb);
    const char *xa = api_gen_state(a, &sa), *xb = api_gen_state(b, &sb);
    CHECK(la == lb && !memcmp(ta, tb, la));
    CHECK(sa == sb && !memcmp(xa, xb, sa));
    char *copy = malloc(la + 1);
    memcpy(copy, ta, la + 1);
    CHECK(generate(a, 43, 500));
    ta = api_gen_text(a, &la);
    CHECK(strcmp(copy, ta) != 0); /* another seed, another program */
    CHECK(generate(a, 42, 500));
    CHECK(!strcmp(copy, api_gen_text(a, NULL))); /* the handle keeps nothing from one program to the next */
    static const char header[] = "// gisa gen --target gisa128 --seed 42 --count 500 --regs 32 --weights 'FFMA=5,IALU=2'\n";
    CHECK(!strncmp(copy, header, sizeof header - 1)); /* the options that differ from the defaults */
    free(copy);
    gisa_gen_free(a);
    gisa_gen_free(b);
}

/* ------------------------------------------------------------ options */

static void expect_bad(gisa_gen *g, const char *name, const char *value, const char *needle)
{
    gisa_diags *d = api_diags();
    unsigned regs = gisa_gen_regs(g);
    gisa_status st = gisa_gen_set(g, name, value, d);
    CHECKF(st == GISA_ERR_USAGE && gisa_diags_errors(d) == 1 && test_diags_contain(d, needle),
           "--%s '%s' is refused saying '%s'", name, value, needle);
    if (st != GISA_ERR_USAGE || !test_diags_contain(d, needle))
        test_dump_diags(d);
    CHECK(gisa_gen_regs(g) == regs);
    gisa_diags_free(d);
}

static void test_bad_options(void)
{
    gisa_gen *g = fresh(test_isa());
    expect_bad(g, "regz", "4", "did you mean --regs?");
    expect_bad(g, "regs", "3", "expected an integer from 4 to 255");
    expect_bad(g, "regs", "256", "expected an integer from 4 to 255");
    expect_bad(g, "regs", "-1", "not '-1'");
    expect_bad(g, "regs", "", "not ''");
    expect_bad(g, "uregs", "63", "from 2 to 62");
    expect_bad(g, "guard-rate", "1.5", "expected a rate from 0 to 1");
    expect_bad(g, "guard-rate", "0.5x", "expected a rate");
    expect_bad(g, "guard-rate", "101%", "expected a rate");
    expect_bad(g, "guard-rate", ".", "expected a rate");
    expect_bad(g, "dep-rate", "-0.1", "expected a rate");
    expect_bad(g, "weights", "FFMA", "expected NAME=WEIGHT");
    expect_bad(g, "weights", "", "expected NAME=WEIGHT");
    expect_bad(g, "weights", "FFAM=1", "did you mean FFMA?");
    expect_bad(g, "weights", "FFMA=x", "weight of FFMA: expected an integer from 0 to 1000000");
    expect_bad(g, "weights", "FFMA=1,=2", "unknown name ''");
    expect_bad(g, "weights", "FFMA_RRC=1", "is an opcode");
    expect_bad(g, "weights", "FFMA=99999999999", "expected an integer");
    expect_bad(g, "include", "FFMA,,IADD", "empty item");
    expect_bad(g, "exclude", "NOPE", "unknown name 'NOPE'");
    expect_bad(g, "streams", "add65", "unknown stream 'add65'");
    expect_bad(g, "streams", "none,add64", "'none' and streams together");
    expect_bad(g, "streams", "add64, None", "'none' and streams together");
    expect_bad(g, "weights", "FFMA=1,IALU=2,ffma=3", "ffma is given two weights");
    expect_bad(g, "active", "fulll=1", "did you mean full?");
    expect_bad(g, "active", "full", "expected KIND=WEIGHT");
    expect_bad(g, "active", "full=0,empty=0", "every mask kind has weight 0");
    expect_bad(g, "active", "full=1,FULL=2", "full is given two weights");
    expect_bad(g, "active", "single=-1", "weight of single");
    expect_bad(g, "int-values", "smal=1", "did you mean small?");
    expect_bad(g, "int-values", "im:zero=1", "did you mean imm?");
    expect_bad(g, "int-values", "zero", "expected [SCOPE:]CLASS=WEIGHT");
    expect_bad(g, "int-values", "imm:zero=0", "every class of imm has weight 0");
    expect_bad(g, "int-values", "zero=1,reg:zero=2", "reg:zero is given two weights");
    expect_bad(g, "int-values", "pow2=x", "weight of pow2");
    expect_bad(g, "warps", "0", "from 1 to 1024");
    set(g, "regs", "8");
    expect_bad(g, "regs", "x", "not 'x'");
    CHECK(gisa_gen_regs(g) == 8);
    set(g, "guard-rate", "25%");
    set(g, "weights", " ffma = 3 , ialu=0 ");
    set(g, "exclude", "FALU,HALU,DALU");
    gisa_diags *d = api_diags();
    CHECK(gisa_gen_generate(g, 1, 10, d) == GISA_ERR_USAGE && test_diags_contain(d, "leave no instruction"));
    CHECK(gisa_gen_generate(g, 1, (size_t)GISA_GEN_MAX_COUNT + 1, d) == GISA_ERR_LIMIT);
    gisa_diags_free(d);
    gisa_gen_free(g);
    gisa_gen *f = fresh(test_isa_target("fermi"));
    expect_bad(f, "streams", "add64", "does not have");
    expect_bad(f, "regs", "64", "from 4 to 63");
    expect_bad(f, "uregs", "4", "target fermi has no uniform registers");
    gisa_gen_free(f);
}

/* The optypes (by name) of a program's words */
static long count_optype(const gisa_isa *isa, gisa_gen *g, const char *name, long *total)
{
    size_t n;
    const gisa_word *w = api_gen_words(g, &n);
    long hits = 0;
    for (size_t i = 0; i < n; i++) {
        gisa_inst inst;
        if (gisa_decode(isa, w[i], &inst) == GISA_OK && !strcmp(gisa_inst_optype_name(isa, &inst), name))
            hits++;
    }
    *total = (long)n;
    return hits;
}

static void test_weights(void)
{
    const gisa_isa *isa = test_isa();
    long n, ffma, fadd;
    gisa_gen *g = fresh(isa);
    set(g, "include", "FFMA,FADD");
    set(g, "weights", "FFMA=3");
    CHECK(generate(g, 7, 20000));
    ffma = count_optype(isa, g, "FFMA", &n);
    fadd = count_optype(isa, g, "FADD", &n);
    CHECKF(ffma + fadd == n, "only the included optypes (%ld + %ld of %ld)", ffma, fadd, n);
    CHECKF(ffma > 2.7 * fadd && ffma < 3.3 * fadd, "FFMA:FADD = 3:1 (%ld:%ld)", ffma, fadd);
    gisa_gen_free(g);

    g = fresh(isa);
    set(g, "weights", "FALU=0,HALU=0,DALU=0");
    set(g, "exclude", "IMAD_RRC,IADD");
    CHECK(generate(g, 8, 5000));
    size_t nw;
    const gisa_word *w = api_gen_words(g, &nw);
    int bad = 0;
    for (size_t i = 0; i < nw; i++) {
        gisa_inst inst;
        gisa_decode(isa, w[i], &inst);
        const char *ot = gisa_inst_optype_name(isa, &inst);
        bad += ot[0] == 'F' || ot[0] == 'H' || ot[0] == 'D' || !strcmp(ot, "IADD") ||
               !strcmp(gisa_inst_opcode_name(isa, &inst), "IMAD_RRC");
    }
    CHECKF(bad == 0, "%d instructions of weight-0 families or excluded names (streams included)", bad);
    gisa_gen_free(g);
}

/* Fraction (per mille) of operands of `kind` among all operands */
static void operand_stats(const gisa_isa *isa, gisa_gen *g, long *cbank, long *guarded, long *dependent, long *n)
{
    size_t nw;
    const gisa_word *w = api_gen_words(g, &nw);
    unsigned recent[8] = {0};
    int nrecent = 0, at = 0;
    *cbank = *guarded = *dependent = 0;
    *n = (long)nw;
    for (size_t i = 0; i < nw; i++) {
        gisa_inst inst;
        gisa_decode(isa, w[i], &inst);
        unsigned pred;
        bool neg;
        if (gisa_inst_guard(isa, &inst, &pred, &neg) == GISA_OK && pred != 7)
            (*guarded)++;
        int dep = 0;
        size_t no = gisa_inst_operand_count(isa, &inst);
        for (size_t k = 0; k < no; k++) {
            gisa_operand o;
            gisa_inst_operand(isa, &inst, k, &o);
            *cbank += o.kind == GISA_OPND_CBANK;
            if (!o.written && o.kind == GISA_OPND_REG && !o.is_zero)
                for (int r = 0; r < nrecent; r++)
                    dep |= recent[r] == o.reg;
        }
        *dependent += dep;
        for (size_t k = 0; k < no; k++) {
            gisa_operand o;
            gisa_inst_operand(isa, &inst, k, &o);
            if (o.written && o.kind == GISA_OPND_REG && !o.is_zero) {
                recent[at] = o.reg;
                at = (at + 1) % 8;
                nrecent += nrecent < 8;
            }
        }
    }
}

static void test_rates(void)
{
    const gisa_isa *isa = test_isa();
    long cb[2], gu[2], dp[2], n[2];
    for (int hi = 0; hi < 2; hi++) {
        gisa_gen *g = fresh(isa);
        set(g, "regs", "64");
        set(g, "cbank-rate", hi ? "1" : "0");
        set(g, "guard-rate", hi ? "100%" : "0");
        set(g, "dep-rate", hi ? "1" : "0");
        set(g, "stream-rate", "0");
        CHECK(generate(g, 11, 20000));
        operand_stats(isa, g, &cb[hi], &gu[hi], &dp[hi], &n[hi]);
        gisa_gen_free(g);
    }
    printf("rates 0 / 1: constants %ld / %ld, guarded %ld / %ld, dependent %ld / %ld of %ld\n", cb[0], cb[1], gu[0],
           gu[1], dp[0], dp[1], n[0]);
    CHECK(cb[0] == 0 && cb[1] > n[1] / 2);
    CHECK(gu[0] == 0 && gu[1] > n[1] * 9 / 10);
    CHECK(dp[1] > 2 * dp[0] && dp[1] > n[1] / 2);
}

/* ------------------------------------------------------------ streams */

static unsigned reg_of(const gisa_isa *isa, const gisa_inst *inst, const char *name, int64_t *value)
{
    size_t no = gisa_inst_operand_count(isa, inst);
    for (size_t k = 0; k < no; k++) {
        gisa_operand o;
        gisa_inst_operand(isa, inst, k, &o);
        if (!strcmp(o.name, name)) {
            if (value)
                *value = o.value;
            return o.reg;
        }
    }
    CHECKF(0, "operand %s of %s", name, gisa_inst_mnemonic(isa, inst));
    return 0;
}

typedef unsigned __int128 u128;

/* words registers from r, lane l, before (sim0) */
static u128 wide(gisa_sim *s, unsigned r, int words, unsigned l)
{
    u128 v = 0;
    for (int i = words - 1; i >= 0; i--) {
        uint32_t x = 0;
        gisa_sim_get(s, 0, GISA_RF_R, r + (unsigned)i, l, &x);
        v = v << 32 | x;
    }
    return v;
}

static int cmp_holds(const char *op, u128 a, u128 b, int is_signed)
{
    int lt = is_signed ? (int64_t)(uint64_t)a < (int64_t)(uint64_t)b : (uint64_t)a < (uint64_t)b, eq = a == b;
    return !strcmp(op, "LT") ? lt : !strcmp(op, "LE") ? lt || eq : !strcmp(op, "GT") ? !lt && !eq
         : !strcmp(op, "GE") ? !lt : !strcmp(op, "EQ") ? eq : !eq;
}

static void test_stream(const char *name, int len)
{
    const gisa_isa *isa = test_isa();
    int checked = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        gisa_gen *g = fresh(isa);
        set(g, "streams", name);
        set(g, "stream-rate", "1");
        set(g, "guard-rate", "0");
        set(g, "fp-rate", "0.5");
        set(g, "active", "full=1"); /* the arithmetic is checked in every lane */
        CHECK(generate(g, seed, (size_t)len));
        size_t n;
        const gisa_word *w = api_gen_words(g, &n);
        gisa_inst in[4];
        for (size_t i = 0; i < n && i < 4; i++)
            gisa_decode(isa, w[i], &in[i]);
        gisa_status rs;
        gisa_sim_fault f;
        gisa_sim *before = simulate(isa, w, 0, gisa_gen_regs(g), api_gen_state(g, NULL), &rs, &f);
        gisa_sim *after = simulate(isa, w, n, gisa_gen_regs(g), api_gen_state(g, NULL), &rs, &f);
        CHECK((size_t)len == n && rs == GISA_OK);
        int64_t imm = 0, sh = 0;
        unsigned d = 0, a = 0, b = 0, c = 0, dw = 2, aw = 2, bw = 2;
        u128 mod = (u128)1 << 64;
        if (!strcmp(name, "add64") || !strcmp(name, "sub64") || !strcmp(name, "add128")) {
            d = reg_of(isa, &in[0], "Rd", NULL), a = reg_of(isa, &in[0], "Ra", NULL), b = reg_of(isa, &in[0], "SrcB", NULL);
            dw = aw = bw = len;
        } else if (!strcmp(name, "lea64")) {
            d = reg_of(isa, &in[0], "Rd", NULL), a = reg_of(isa, &in[0], "Ra", NULL), b = reg_of(isa, &in[0], "SrcB", NULL);
            reg_of(isa, &in[0], "UImm5Sca", &sh);
        } else if (!strcmp(name, "mad64") || !strcmp(name, "mad64s")) {
            d = reg_of(isa, &in[0], "Rd", NULL), a = reg_of(isa, &in[0], "Ra", NULL), c = reg_of(isa, &in[0], "SrcC", NULL);
            b = reg_of(isa, &in[0], "SrcB", &imm);
            aw = 1;
        } else if (!strcmp(name, "wide128")) {
            d = reg_of(isa, &in[0], "Rd", NULL), a = reg_of(isa, &in[0], "Ra", NULL), b = reg_of(isa, &in[0], "SrcB", NULL);
            c = reg_of(isa, &in[0], "SrcC", NULL);
            dw = 4, aw = bw = 1;
        } else { /* cmp64 */
            a = reg_of(isa, &in[0], "Ra", NULL), b = reg_of(isa, &in[0], "SrcB", NULL), d = reg_of(isa, &in[0], "pu", NULL);
        }
        int is_cmp = !strcmp(name, "cmp64");
        unsigned srcs[3] = {a, b, c}, spans[3] = {aw, bw, 2};
        int overlap = 0;
        for (int k = 0; k < 3 && !is_cmp; k++)
            overlap |= srcs[k] < d + dw && d < srcs[k] + spans[k];
        for (unsigned l = 0; l < 32 && !overlap && before && after; l++) {
            u128 got = wide(after, d, (int)dw, l), want = 0;
            u128 x = wide(before, a, (int)aw, l), y = wide(before, b, (int)bw, l), z = wide(before, c, 2, l);
            if (!strcmp(name, "add64"))
                want = (x + y) % mod;
            else if (!strcmp(name, "sub64"))
                want = (x - y) % mod;
            else if (!strcmp(name, "add128"))
                want = x + y;
            else if (!strcmp(name, "lea64"))
                want = ((x << sh) + y) % mod;
            else if (!strcmp(name, "mad64"))
                want = (x * (uint32_t)imm + z) % mod;
            else if (!strcmp(name, "mad64s"))
                want = ((u128)(uint64_t)((int64_t)(int32_t)(uint32_t)x * (int32_t)(uint32_t)y) - z) % mod;
            else if (!strcmp(name, "wide128"))
                want = x * y + z;
            if (is_cmp) {
                gisa_modifier m;
                gisa_inst_modifier(isa, &in[1], 0, &m);
                int is_signed = 1;
                for (size_t k = 0; k < gisa_inst_modifier_count(isa, &in[1]); k++) {
                    gisa_modifier mk;
                    gisa_inst_modifier(isa, &in[1], k, &mk);
                    if (mk.value && !strcmp(mk.value, "U32"))
                        is_signed = 0;
                }
                uint32_t p = 0;
                gisa_sim_get(after, 0, GISA_RF_P, d, l, &p);
                want = (u128)cmp_holds(m.value, wide(before, a, 2, l), wide(before, b, 2, l), is_signed);
                got = p;
            }
            if (got != want) {
                CHECKF(got == want, "%s seed %llu lane %u: got 0x%016llx%016llx, want 0x%016llx%016llx", name,
                       (unsigned long long)seed, l, (unsigned long long)(uint64_t)(got >> 64),
                       (unsigned long long)(uint64_t)got, (unsigned long long)(uint64_t)(want >> 64),
                       (unsigned long long)(uint64_t)want);
                break;
            }
            checked++;
        }
        gisa_sim_free(before);
        gisa_sim_free(after);
        gisa_gen_free(g);
    }
    CHECKF(checked >= 20 * 32, "stream %s: %d lanes checked", name, checked);
}

/* ------------------------------------------------------------ state */

static int has_token(const char *s, const char *tok) { return strstr(s, tok) != NULL; }

static void test_state(void)
{
    const gisa_isa *isa = test_isa();
    gisa_gen *g = fresh(isa);
    set(g, "fp-rate", "1");
    set(g, "regs", "128");
    /* across a few seeds, each corner class of each format appears */
    static const char *const want[] = {
        "\"0x00000000\"", "\"0x80000000\"", "\"0x7f800000\"", "\"0xff800000\"", "\"0x3f800000\"", "\"0x00000001\"",
        "\"0x007fffff\"", "\"0x00800000\"", "\"0x7ff0000000000000\"", "\"0xfff0000000000000\"",
        "\"0x3ff0000000000000\"", "\"0x0000000000000001\""};
    int found[sizeof want / sizeof *want] = {0};
    int qnan32 = 0, snan32 = 0, qnan64 = 0, snan64 = 0, h_inf = 0, bf_inf = 0;
    for (uint64_t s = 1; s <= 20; s++) {
        CHECK(generate(g, s, 10));
        const char *st = api_gen_state(g, NULL);
        for (size_t k = 0; k < sizeof want / sizeof *want; k++)
            found[k] |= has_token(st, want[k]);
        for (const char *p = st; (p = strstr(p, "\"0x")) != NULL; p += 3) {
            unsigned long long v = strtoull(p + 3, NULL, 16);
            size_t digits = strspn(p + 3, "0123456789abcdef");
            if (digits == 8) {
                uint32_t x = (uint32_t)v;
                qnan32 |= (x & 0x7FC00000) == 0x7FC00000 && (x & 0x3FFFFF);
                snan32 |= (x & 0x7FC00000) == 0x7F800000 && (x & 0x3FFFFF);
                h_inf |= (x & 0x7FFF) == 0x7C00;
                bf_inf |= (x & 0x7FFF) == 0x7F80;
            } else if (digits == 16) {
                qnan64 |= (v & 0x7FF8000000000000ull) == 0x7FF8000000000000ull && (v & 0x7FFFFFFFFFFFFull);
                snan64 |= (v & 0x7FF8000000000000ull) == 0x7FF0000000000000ull && (v & 0x7FFFFFFFFFFFFull);
            }
        }
    }
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        CHECKF(found[k], "state value %s appears", want[k]);
    CHECK(qnan32 && snan32 && qnan64 && snan64 && h_inf && bf_inf);
    /* uniform-rate 1: one value per register; 0: one per lane */
    set(g, "uniform-rate", "1");
    CHECK(generate(g, 1, 10));
    CHECK(!has_token(api_gen_state(g, NULL), "\"R3\": ["));
    set(g, "uniform-rate", "0");
    CHECK(generate(g, 1, 10));
    const char *st = api_gen_state(g, NULL);
    CHECK(has_token(st, "\"R3\": [") || has_token(st, "\"R[2:3]\": ["));
    CHECK(has_token(st, "\"UR16\": ") && has_token(st, "\"c[0x1][0xfc]\": ") && !has_token(st, "\"c[0x2]"));
    gisa_gen_free(g);
    /* fermi has no uniform registers: none in its state */
    g = fresh(test_isa_target("fermi"));
    CHECK(generate(g, 1, 10));
    CHECK(!has_token(api_gen_state(g, NULL), "\"UR"));
    gisa_gen_free(g);
}

/* ------------------------------------------------------------ modifier values */

static int has_modifier(const gisa_isa *isa, const gisa_inst *in, const char *value)
{
    for (size_t k = 0; k < gisa_inst_modifier_count(isa, in); k++) {
        gisa_modifier m;
        if (gisa_inst_modifier(isa, in, k, &m) == GISA_OK && m.value && !strcmp(m.value, value))
            return 1;
    }
    return 0;
}

/* --include FFMA.RM,IMAD.HI.X: only those, with those values, and legal;
 * --weights FFMA.RZ=W and --exclude FFMA.RZ */
static void test_modifiers(void)
{
    const gisa_isa *isa = test_isa();
    gisa_gen *g = fresh(isa);
    set(g, "include", "FFMA.RM,imad.hi.x");
    long ffma = 0, imad = 0, other = 0;
    for (uint64_t s = 1; s <= 20; s++) {
        CHECK(generate(g, s, 300));
        check_program(isa, g, s);
        size_t n;
        const gisa_word *w = api_gen_words(g, &n);
        for (size_t i = 0; i < n; i++) {
            gisa_inst in;
            gisa_decode(isa, w[i], &in);
            const char *t = gisa_inst_optype_name(isa, &in);
            if (!strcmp(t, "FFMA") && has_modifier(isa, &in, "RM"))
                ffma++;
            else if (!strcmp(t, "IMAD") && has_modifier(isa, &in, "HI") && has_modifier(isa, &in, "X"))
                imad++;
            else
                other++;
        }
    }
    CHECKF(other == 0 && ffma > 1000 && imad > 1000, "FFMA.RM %ld, IMAD.HI.X %ld, others %ld", ffma, imad, other);
    CHECK(strstr(api_gen_text(g, NULL), "--include 'FFMA.RM,imad.hi.x'") != NULL);
    gisa_gen_free(g);
    /* weights: an entry of its own (FFMA's weight 1 beside it), or never */
    for (int w = 0; w < 3; w++) {
        g = fresh(isa);
        set(g, "include", "FFMA");
        set(g, w == 2 ? "exclude" : "weights", w == 0 ? "FFMA.RZ=4" : w == 1 ? "FFMA.rz=0" : "FFMA.RZ");
        CHECK(generate(g, 7, 2000));
        size_t n, rz = 0;
        const gisa_word *ws = api_gen_words(g, &n);
        for (size_t i = 0; i < n; i++) {
            gisa_inst in;
            gisa_decode(isa, ws[i], &in);
            rz += has_modifier(isa, &in, "RZ");
        }
        check_program(isa, g, 7);
        /* FFMA draws .RZ about one time in five by itself: 4/5 + 1/5 * 1/5 */
        CHECKF(w == 0 ? rz > n * 3 / 4 : rz == 0, "weights %d: %zu of %zu with .RZ", w, rz, n);
        gisa_gen_free(g);
    }
    g = fresh(isa);
    expect_bad(g, "include", "FFMA.RMM", "did you mean FFMA.RM?");
    expect_bad(g, "include", "FFMA.RM.RZ", "no syntax form of FFMA has these modifier values together");
    expect_bad(g, "include", "FFMA.", "has no modifier value ''");
    expect_bad(g, "include", "FFAM.RM", "did you mean FFMA?");
    expect_bad(g, "weights", "FFMA_RRR.RZ=2", "is an opcode");
    expect_bad(g, "weights", "FFMA.RZZ=2", "did you mean FFMA.RZ?");
    gisa_gen_free(g);
}

/* ------------------------------------------------------------ asking for nothing */

/* Options that can give nothing of what they ask for are refused at
 * generation, with the reason; nothing is generated. */
static void expect_refused(const char *const *opts, const char *needle)
{
    const gisa_isa *isa = test_isa();
    gisa_gen *g = fresh(isa);
    for (int i = 0; opts[i]; i += 2)
        set(g, opts[i], opts[i + 1]);
    gisa_diags *d = api_diags();
    gisa_status st = gisa_gen_generate(g, 1, 20, d);
    CHECKF(st == GISA_ERR_USAGE && test_diags_contain(d, needle), "%s=%s ...: want '%s'", opts[0], opts[1], needle);
    gisa_diags_free(d);
    gisa_gen_free(g);
}

static void test_nothing_asked(void)
{
    expect_refused((const char *const[]){"include", "FFMA", "streams", "add64", "stream-rate", "1", NULL},
                   "--streams add64: it uses IADD");
    expect_refused((const char *const[]){"include", "IADD", "streams", "add64", "stream-rate", "0", NULL},
                   "--stream-rate 0: no stream would be emitted");
    expect_refused((const char *const[]){"include", "FFMA", "stream-rate", "0.5", NULL},
                   "--stream-rate: no directed stream is left");
    expect_refused((const char *const[]){"include", "FFMA,IADD", "exclude", "FALU", NULL},
                   "--include FFMA: all its instructions are excluded");
    expect_refused((const char *const[]){"include", "FFMA", "weights", "FFMA=0", NULL}, "leave no instruction");
    expect_refused((const char *const[]){"include", "FFMA", "exclude", "FALU", NULL}, "leave no instruction");
    expect_refused((const char *const[]){"include", "IADD,FFMA.RM", "exclude", "FFMA", NULL},
                   "--include FFMA.RM: all its instructions are excluded");
    expect_refused((const char *const[]){"include", "IADD", "weights", "FFMA.RZ=3", NULL},
                   "--weights FFMA.RZ=3: no instruction the other options allow");
    /* and what still works: a target without streams takes a stream rate,
     * streams beside other instructions */
    gisa_gen *f = fresh(test_isa_target("fermi"));
    set(f, "stream-rate", "0.5");
    CHECK(generate(f, 1, 20));
    gisa_gen_free(f);
    gisa_gen *g = fresh(test_isa());
    set(g, "include", "FFMA,IADD");
    set(g, "streams", "add64");
    set(g, "stream-rate", "1");
    CHECK(generate(g, 1, 20));
    gisa_gen_free(g);
}

/* ------------------------------------------------------------ value classes */

/* Share (per mille) of the state's 32-bit register values equal to v */
static long state_share(const char *st, const char *v)
{
    long all = 0, hit = 0;
    for (const char *p = st; (p = strstr(p, "\"0x")) != NULL; p += 3) {
        const char *e = strchr(p + 1, '"');
        if (e - p != 11) /* 8 digits: not an F64 pair */
            continue;
        all++;
        hit += !strncmp(p + 1, v, 10);
    }
    return all ? hit * 1000 / all : 0;
}

/* --int-values imm:zero=1,pow2=1: every integer immediate (the directed
 * streams' too) is 0 or a single set bit, both happen, and the programs
 * still run without a fault; reg:/const: scopes fill the state with their
 * classes; no value class for instructions without integer immediates is
 * an error. */
static void test_values(void)
{
    const gisa_isa *isa = test_isa();
    gisa_gen *g = fresh(isa);
    set(g, "int-values", "imm:zero=1,pow2=1");
    set(g, "stream-rate", "0.2");
    long zero = 0, pow2 = 0, other = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        CHECK(generate(g, seed, COUNT));
        check_program(isa, g, seed);
        size_t n;
        const gisa_word *w = api_gen_words(g, &n);
        for (size_t i = 0; i < n; i++) {
            gisa_inst inst;
            gisa_decode(isa, w[i], &inst);
            size_t no = gisa_inst_operand_count(isa, &inst);
            for (size_t k = 0; k < no; k++) {
                gisa_operand o;
                gisa_inst_operand(isa, &inst, k, &o);
                if (o.kind != GISA_OPND_IMM || !o.present)
                    continue;
                zero += o.bits == 0;
                pow2 += o.bits && !(o.bits & (o.bits - 1));
                other += o.bits & (o.bits - 1) ? 1 : 0;
                if (o.bits & (o.bits - 1) && other < 4)
                    CHECKF(0, "seed %llu: %s has immediate 0x%llx", (unsigned long long)seed,
                           gisa_inst_opcode_name(isa, &inst), (unsigned long long)o.bits);
            }
        }
    }
    CHECKF(zero > 50 && pow2 > 50 && other == 0, "immediates: %ld zero, %ld powers of two, %ld others", zero, pow2,
           other);
    gisa_gen_free(g);

    g = fresh(isa);
    CHECK(generate(g, 5, 10));
    long before = state_share(api_gen_state(g, NULL), "0xffffffff");
    set(g, "int-values", "reg:minus-one=1,const:min=1");
    CHECK(generate(g, 5, 10));
    const char *st = api_gen_state(g, NULL);
    long after = state_share(st, "0xffffffff"), minimum = state_share(st, "0x80000000");
    /* an integer is one kind in four (the others are floating point) */
    CHECKF(before < 30 && after > 100 && minimum > 20, "0xffffffff: %ld -> %ld per mille, 0x80000000 %ld", before,
           after, minimum);
    gisa_gen_free(g);

    expect_refused((const char *const[]){"include", "FADD", "int-values", "imm:small=1", NULL},
                   "--int-values imm:...: no instruction the options allow has an integer immediate");
}

/* ------------------------------------------------------------ illegal words */

/* --illegal-rate: `.inst` words the decoder refuses, of every kind of
 * reason; the text assembles to the words; a run stops at the first one
 * with the fault the second header line announces. */
#define GEN_KINDS 4
static void test_illegal(const char *target)
{
    const gisa_isa *isa = test_isa_target(target);
    gisa_gen *g = fresh(isa);
    set(g, "illegal-rate", "0.1");
    int kinds[GEN_KINDS] = {0};
    for (uint64_t s = 1; s <= 30; s++) {
        CHECK(generate(g, s, 200));
        size_t n, len;
        const gisa_word *w = api_gen_words(g, &n);
        const char *text = api_gen_text(g, &len);
        gisa_word *as = NULL;
        size_t nas = 0;
        gisa_diags *d = api_diags();
        int ok = gisa_assemble(isa, "gen.s", text, len, NULL, &as, &nas, d) == GISA_OK && gisa_diags_count(d) == 0 &&
                 nas == n;
        for (size_t i = 0; ok && i < n; i++)
            ok = as[i].w[0] == w[i].w[0] && as[i].w[1] == w[i].w[1];
        CHECKF(ok, "%s seed %llu: the text with .inst words assembles to the words", target, (unsigned long long)s);
        gisa_free(as);
        gisa_diags_free(d);
        size_t first = n;
        char why[GISA_INST_WHY + 1] = "";
        for (size_t i = 0; i < n; i++) {
            gisa_inst in;
            if (gisa_decode(isa, w[i], &in) == GISA_OK)
                continue;
            if (first == n) {
                first = i;
                snprintf(why, sizeof why, "%s", in.why);
            }
            kinds[!strcmp(in.why, "no opcode has these fixed bits") ? 0 : strstr(in.why, "no field covers it") ? 1
                  : strstr(in.why, "is no value of") ? 2 : 3]++; /* fixed bits, uncovered bit, unnamed value, form */
        }
        gisa_status rs;
        gisa_sim_fault f;
        gisa_sim *sim = simulate(isa, w, n, gisa_gen_regs(g), api_gen_state(g, NULL), &rs, &f);
        if (first == n) {
            CHECK(rs == GISA_OK && !strstr(text, "// expected fault"));
        } else {
            char want[GISA_INST_WHY + 64];
            snprintf(want, sizeof want, "\n// expected fault: pc %zu (byte 0x%zx): %s\n", first,
                     first * (gisa_isa_word_bits(isa) / 8), why);
            CHECKF(rs == GISA_ERR_SIM && f.pc == first && strstr(f.message, why) && strstr(text, want),
                   "%s seed %llu: fault at %zu (%s), want %zu (%s)", target, (unsigned long long)s,
                   rs == GISA_ERR_SIM ? f.pc : 0, rs == GISA_ERR_SIM ? f.message : "", first, why);
        }
        gisa_sim_free(sim);
    }
    CHECKF(kinds[0] && kinds[1] && kinds[2] && kinds[3], "%s: fixed %d, uncovered %d, unnamed %d, form %d", target,
           kinds[0], kinds[1], kinds[2], kinds[3]);
    gisa_gen_free(g);
}

/* ------------------------------------------------------------ active masks */

/* The active masks of a state, in warp order; how many. */
static int state_masks(const char *st, uint32_t *m, int max)
{
    int n = 0;
    for (const char *p = st; n < max && (p = strstr(p, "\"active\": \"0x")) != NULL; p += 12)
        m[n++] = (uint32_t)strtoul(p + 13, NULL, 16);
    return n;
}

/* Defaults: most warps get a partial mask, some full, some a single lane,
 * none empty; the simulator runs every program from its state without a
 * fault, with the state's mask, and leaves the inactive lanes alone. */
static void test_active(void)
{
    const gisa_isa *isa = test_isa();
    gisa_gen *g = fresh(isa);
    int partial = 0, full = 0, single = 0, empty = 0, untouched = 0;
    const int seeds = 200;
    for (uint64_t s = 1; s <= (uint64_t)seeds; s++) {
        CHECK(generate(g, s, 60));
        const char *st = api_gen_state(g, NULL);
        uint32_t m = 0;
        CHECK(state_masks(st, &m, 1) == 1);
        full += m == UINT32_MAX, empty += m == 0, single += m && !(m & (m - 1));
        partial += m && m != UINT32_MAX;
        size_t n;
        const gisa_word *w = api_gen_words(g, &n);
        gisa_status rs;
        gisa_sim_fault f;
        gisa_sim *before = simulate(isa, w, 0, gisa_gen_regs(g), st, &rs, &f);
        gisa_sim *after = simulate(isa, w, n, gisa_gen_regs(g), st, &rs, &f);
        CHECKF(after && rs == GISA_OK, "seed %llu: fault with a partial mask", (unsigned long long)s);
        uint32_t am = 0;
        CHECK(after && gisa_sim_get_active(after, 0, &am) == GISA_OK && am == m);
        int same = 1; /* the inactive lanes keep every register */
        for (unsigned r = 0; r < gisa_gen_regs(g) && before && after; r++)
            for (unsigned l = 0; l < 32; l++) {
                uint32_t a = 0, b = 0;
                gisa_sim_get(before, 0, GISA_RF_R, r, l, &a);
                gisa_sim_get(after, 0, GISA_RF_R, r, l, &b);
                same &= (m >> l & 1) || a == b;
            }
        untouched += same;
        gisa_sim_free(before);
        gisa_sim_free(after);
    }
    CHECKF(partial >= seeds / 2 && full > 0 && single > 0 && empty == 0 && untouched == seeds,
           "masks of %d seeds: %d partial, %d full, %d single, %d empty; %d left the inactive lanes", seeds, partial,
           full, single, empty, untouched);
    /* the kinds one at a time */
    set(g, "active", "empty=1");
    CHECK(generate(g, 1, 50));
    uint32_t m = 1;
    CHECK(state_masks(api_gen_state(g, NULL), &m, 1) == 1 && m == 0);
    set(g, "active", "FULL=3");
    CHECK(generate(g, 1, 50) && state_masks(api_gen_state(g, NULL), &m, 1) == 1 && m == UINT32_MAX);
    CHECK(strstr(api_gen_text(g, NULL), "--active 'full=3,random=0,single=0,empty=0'") != NULL);
    set(g, "active", "single=1");
    CHECK(generate(g, 1, 50) && state_masks(api_gen_state(g, NULL), &m, 1) == 1 && m && !(m & (m - 1)));
    /* several warps, each its own mask and registers; the simulator runs them all */
    set(g, "active", "full=2,random=6,single=2");
    set(g, "warps", "8");
    CHECK(generate(g, 5, 200));
    const char *st = api_gen_state(g, NULL);
    uint32_t ms[9];
    CHECK(state_masks(st, ms, 9) == 8 && strstr(st, "\"warps\": [") != NULL);
    int differ = 0;
    for (int k = 1; k < 8; k++)
        differ |= ms[k] != ms[0];
    CHECK(differ);
    size_t n;
    const gisa_word *w = api_gen_words(g, &n);
    gisa_sim *sim = NULL;
    CHECK(gisa_sim_new(isa, gisa_gen_regs(g), 8, &sim) == GISA_OK);
    gisa_sim_load(sim, w, n);
    gisa_diags *d = api_diags();
    CHECK(api_state_read(sim, "gen.json", st, strlen(st), d) == GISA_OK);
    gisa_diags_free(d);
    gisa_sim_fault f;
    CHECK(gisa_sim_run(sim, &f) == GISA_OK);
    for (unsigned k = 0; k < 8; k++) {
        uint32_t am = 0;
        CHECK(gisa_sim_get_active(sim, k, &am) == GISA_OK && am == ms[k]);
    }
    gisa_sim_free(sim);
    gisa_gen_free(g);
}

/* ------------------------------------------------------------ shrinking */

typedef struct need {
    const char *lines[8];
    int n;
    long calls;
} need;

/* interesting when every needed line is there (a monotone test) */
static gisa_status needs_all(void *user, const char *text, size_t len, bool *interesting)
{
    need *nd = user;
    nd->calls++;
    CHECK(strlen(text) == len && (len == 0 || text[len - 1] == '\n'));
    *interesting = true;
    for (int i = 0; i < nd->n; i++)
        if (!strstr(text, nd->lines[i]))
            *interesting = false;
    return GISA_OK;
}

/* interesting three times, then the caller's own status stops the search */
static gisa_status stop_soon(void *user, const char *text, size_t len, bool *interesting)
{
    (void)text;
    (void)len;
    *interesting = true;
    return ++*(int *)user > 3 ? GISA_ERR_NOTFOUND : GISA_OK;
}

static void test_shrink(void)
{
    tg_rng r = {0x5151};
    char names[400][16];
    for (int round = 0; round < 30; round++) {
        int nlines = 1 + (int)tg_below(&r, 400);
        char *text = malloc((size_t)nlines * 16 + 1);
        size_t len = 0;
        for (int i = 0; i < nlines; i++) {
            snprintf(names[i], sizeof names[i], "<L%d>", i);
            len += (size_t)sprintf(text + len, "%s\n", names[i]);
        }
        need nd = {.n = 1 + (int)tg_below(&r, 4)};
        if (nd.n > nlines)
            nd.n = nlines;
        char want[8 * 16 + 1] = "";
        int pick[8], np = 0;
        for (int i = 0; i < nd.n; i++) { /* distinct lines, kept in text order for `want` */
            int l = (int)tg_below(&r, (uint64_t)nlines), dup = 0;
            for (int k = 0; k < np; k++)
                dup |= pick[k] == l;
            if (!dup)
                pick[np++] = l;
        }
        nd.n = np;
        for (int i = 0; i < np; i++)
            nd.lines[i] = names[pick[i]];
        for (int l = 0; l < nlines; l++)
            for (int k = 0; k < np; k++)
                if (pick[k] == l)
                    strcat(strcat(want, names[l]), "\n");
        char *out = NULL;
        size_t out_len = 0, tests = 0;
        gisa_status st = gisa_shrink(text, len, needs_all, &nd, &out, &out_len, &tests, NULL);
        CHECKF(st == GISA_OK && out && !strcmp(out, want) && out_len == strlen(want),
               "%d lines, need %d: got '%s' want '%s'", nlines, np, out ? out : "(null)", want);
        CHECK((long)tests == nd.calls && tests < 40u * (unsigned)np * 10u + 20);
        gisa_free(out);
        free(text);
    }
    need none = {.lines = {"absent"}, .n = 1};
    char *out = (char *)1;
    gisa_diags *d = api_diags();
    CHECK(gisa_shrink("a\nb\n", 4, needs_all, &none, &out, NULL, NULL, d) == GISA_ERR_INPUT && out == NULL &&
          test_diags_contain(d, "does not fail on the original"));
    gisa_diags_free(d);
    int calls = 0;
    CHECK(gisa_shrink("a\nb\nc\nd\ne\nf\ng\nh\n", 16, stop_soon, &calls, &out, NULL, NULL, NULL) == GISA_ERR_NOTFOUND && out &&
          strlen(out) < 16);
    gisa_free(out);
    need last = {.lines = {"z"}, .n = 1}; /* a last line without its newline gets one */
    CHECK(gisa_shrink("a\nz", 3, needs_all, &last, &out, NULL, NULL, NULL) == GISA_OK && !strcmp(out, "z\n"));
    gisa_free(out);
}

int main(void)
{
    const char *soak = getenv("GISA_GEN_SOAK");
    long seeds = soak ? atol(soak) : SEEDS;
    if (getenv("GISA_GEN_COUNT"))
        COUNT = (size_t)atol(getenv("GISA_GEN_COUNT"));
    test_legal(NULL, seeds);
    test_legal("fermi", seeds);
    if (!soak) {
        test_determinism();
        test_bad_options();
        test_weights();
        test_rates();
        static const struct {
            const char *name;
            int len;
        } streams[] = {{"add64", 2}, {"sub64", 2}, {"add128", 4}, {"mad64", 2},
                       {"mad64s", 2}, {"wide128", 2}, {"cmp64", 2}, {"lea64", 2}};
        for (size_t i = 0; i < sizeof streams / sizeof *streams; i++)
            test_stream(streams[i].name, streams[i].len);
        test_state();
        test_active();
        test_modifiers();
        test_nothing_asked();
        test_values();
        test_illegal("gisa128");
        test_illegal("fermi");
        test_shrink();
    }
    return test_summary();
}
