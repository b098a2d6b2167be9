/* The library from many threads at once, on one loaded gisa_isa per target
 * (the promise of include/gisa.h, "Threads").
 *
 * For each embedded target, the main thread first computes alone, in
 * round-to-nearest and on a handle of its own, the full text of every
 * section below. Then NTHREADS threads share two freshly loaded handles
 * (one per target, so nothing in them was touched before) and run the
 * sections in phases: a barrier starts each phase, so that the threads make
 * the same calls at the same moment. In the first S_COUNT phases of a round
 * every thread runs the same section (on alternate targets), in the next
 * S_COUNT each runs a different one; ROUNDS rounds. Each thread runs under
 * its own host rounding mode (fesetround: nearest, down, up, toward zero).
 * Every result must equal the single-threaded one byte for byte, and every
 * call must leave the thread's rounding mode as it found it. So this fails
 * on wrong results in any build, and under ThreadSanitizer (`make tsan`)
 * also on a data race. (ThreadSanitizer only reports a race while the
 * earlier access is still in its per-thread history, some ten thousand
 * calls: hence the phases, which keep racing calls close together.)
 *
 * Sections (each writes everything it computes into one text):
 *   words   per word of a corpus (valid words of every opcode and form from
 *           testgen.h, and uniformly random ones): gisa_disassemble,
 *           gisa_decode_opcode, gisa_decode, gisa_print, every accessor
 *           (names, fields, operands, modifiers, guard, controls),
 *           gisa_encode, gisa_assemble of the text (GISA_ASM_ONE) and its decode;
 *   asm     gisa_assemble of float literals that libc rounds, and
 *           gisa_assemble of the corpus's valid texts as one program and of
 *           a source with errors (formatted diagnostics with source lines);
 *   serial  gisa_words_serialize (hex, C, binary) and gisa_words_parse back;
 *   doc     gisa_isa_doc of the list, every optype and every opcode, and
 *           gisa_isa_find_opcode;
 *   manual  gisa_isa_manual (each page's name, size and a hash of its bytes);
 *   lint    gisa_isa_lint;
 *   sim     a simulator of its own (SIM_WARPS warps, SIM_WORKERS worker
 *           threads) runs a program of every simulated opcode from a random
 *           state; the state JSON it writes, read into a second simulator
 *           and written again, must come back the same;
 *   step    the same program stepped (gisa_sim_step) in one warp, every
 *           commit record formatted as text with float values and as JSON,
 *           a checkpoint (gisa_sim_clone) half way that continues
 *           (gisa_sim_continue) and must end equal (gisa_sim_compare);
 *   gen     a generator of its own (gisa_gen) makes a program and its state
 *           from a fixed seed, which a simulator with SIM_WORKERS worker
 *           threads runs. */
#include <fenv.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "testgen.h"
#include "testlib.h"

#define NTHREADS 4
#define ROUNDS 2
#define WORDS_PER_FORM 2 /* generated valid words per (opcode, form) */
#define NRANDOM 400      /* uniformly random words per target */
#define SIM_WARPS 4
#define SIM_WORKERS 3

enum { S_WORDS, S_ASM, S_SERIAL, S_DOC, S_MANUAL, S_LINT, S_SIM, S_STEP, S_GEN, S_COUNT };
static const char *const section_name[S_COUNT] = {"words", "asm",  "serial", "doc", "manual",
                                                  "lint",  "sim", "step",   "gen"};

typedef struct target {
    const char *name;
    const gisa_isa *isa;    /* the single-threaded run's */
    const gisa_isa *shared; /* the threads' */
    gisa_word *words; /* the corpus */
    size_t nwords;
    char *program;    /* the texts of its valid words, one a line */
    gisa_word *sim;   /* the simulated program */
    size_t nsim, min_sim;
    char *ref[S_COUNT];
} target;

#define NTARGETS 2
/* min_sim: the fewest instructions the simulated program must keep (most
 * of the opcodes that have semantics) */
static target targets[NTARGETS] = {{.name = "gisa128", .min_sim = 150}, {.name = "fermi", .min_sim = 25}};

/* ------------------------------------------------------------ helpers */

static void put_word(strbuf *b, const target *t, gisa_word w)
{
    char hex[33];
    tg_hex(t->isa, w, hex);
    sb_puts(b, hex);
}

static void put_diags(strbuf *b, const gisa_diags *d)
{
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        char *s = api_diag_text(gisa_diags_get(d, i), 1);
        sb_printf(b, "%s\n", s ? s : "(null)");
        gisa_free(s);
    }
}

static const char *str(const char *s) { return s ? s : "(null)"; }

/* ------------------------------------------------------------ sections */

static void inst_accessors(strbuf *b, const target *t, const gisa_inst *in)
{
    const gisa_isa *isa = t->isa;
    sb_printf(b, " %s/%s/%s form %d", str(gisa_inst_opcode_name(isa, in)), str(gisa_inst_optype_name(isa, in)),
              str(gisa_inst_mnemonic(isa, in)), in->form);
    for (size_t i = 0; i < gisa_inst_field_count(isa, in); i++)
        sb_printf(b, " %s=%llx", str(gisa_inst_field_name(isa, in, i)), (unsigned long long)in->field[i]);
    for (size_t i = 0; i < gisa_inst_operand_count(isa, in); i++) {
        gisa_operand o;
        gisa_status st = gisa_inst_operand(isa, in, i, &o);
        sb_printf(b, "\n  op %d %d %s r%u z%d v%lld b%llx raw%d c%u:%u p%d bf%d d%u sfx=%s/%d w%d pr%d", (int)st,
                  (int)o.kind, str(o.name), o.reg, o.is_zero, (long long)o.value, (unsigned long long)o.bits,
                  o.raw_syntax, o.bank, o.offset, o.pair, o.bf16, o.deco, str(o.suffix), o.suffix_default, o.written,
                  o.present);
    }
    for (size_t i = 0; i < gisa_inst_modifier_count(isa, in); i++) {
        gisa_modifier m;
        gisa_status st = gisa_inst_modifier(isa, in, i, &m);
        sb_printf(b, "\n  mod %d %s=%s d%d %llx", (int)st, str(m.name), str(m.value), m.is_default,
                  (unsigned long long)m.raw);
    }
    unsigned pred = 0, sched = 0, req = 0, wsb = 0;
    bool neg = false;
    gisa_status gs = gisa_inst_guard(isa, in, &pred, &neg);
    gisa_inst_controls(isa, in, &sched, &req, &wsb);
    sb_printf(b, "\n  guard %d %u %d ctl %u %u %u\n", (int)gs, pred, neg, sched, req, wsb);
}

static void section_words(strbuf *b, const target *t)
{
    const gisa_isa *isa = t->isa;
    gisa_diags *d = api_diags();
    for (size_t i = 0; i < t->nwords; i++) {
        gisa_word w = t->words[i];
        char text[512], printed[512];
        gisa_status st = gisa_disassemble(isa, w, text, sizeof text, NULL);
        put_word(b, t, w);
        sb_printf(b, " %d %zu %s\n", (int)st, api_decode_opcode(isa, w), text);
        gisa_inst in;
        st = gisa_decode(isa, w, &in);
        if (st != GISA_OK) {
            sb_printf(b, " decode %d %d %s\n", (int)st, in.opcode, in.why);
            continue;
        }
        st = gisa_print(isa, &in, printed, sizeof printed);
        sb_printf(b, " print %d %s", (int)st, printed);
        inst_accessors(b, t, &in);
        gisa_inst again = in;
        gisa_word back = {{0, 0}};
        st = gisa_encode(isa, &again, &back);
        sb_printf(b, " encode %d ", (int)st);
        put_word(b, t, back);
        gisa_diags_clear(d);
        st = api_asm_one(isa, text, &back, d);
        sb_printf(b, " asm %d ", (int)st);
        put_word(b, t, back);
        st = api_asm_inst(isa, text, &again, d);
        sb_printf(b, " inst %d %d %d\n", (int)st, again.opcode, again.form);
        put_diags(b, d);
    }
    gisa_diags_free(d);
}

static void section_asm(strbuf *b, const target *t)
{
    static const char bad[] = "FADD R0, R1\n"
                              "FAD R0, R1, R2\n"
                              "IADD R300, R1, R2\n"
                              "MOV R0, 0x1 junk\n"
                              "FADD R0, R1, 1e999\n"
                              "FFMA.RQ R1, R2, R3, R4\n"
                              "@P9 MOV R1, R2\n";
    /* decimal literals that the libc fallback of fpconv.c rounds: the
     * result must not depend on the thread's rounding mode */
    static const char *const literals[] = {
        "FADD R0, R1, 1.000000059604644775390625",     "FADD R0, R1, F1.000000059604644775390625",
        "DADD R0, R2, 1.000488281250000000000001",     "DADD R0, R2, FH1.000488281250000000000001",
        "HADD2 R0, R1, 1.000488281250000000000001, 2.5", "FADD R0, R1, 2.47032822920623272088e-324",
        "FMUL R0, R1, 1.00000005960464477539062499999999999999"};
    gisa_diags *d = api_diags();
    for (size_t i = 0; i < sizeof literals / sizeof *literals; i++) {
        gisa_word w = {{0, 0}};
        gisa_status st = api_asm_one(t->isa, literals[i], &w, d);
        sb_printf(b, "literal %d ", (int)st);
        put_word(b, t, w);
        sb_putc(b, '\n');
    }
    put_diags(b, d);
    gisa_diags_clear(d);
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(t->isa, "corpus.s", t->program, strlen(t->program), NULL, &words, &n, d);
    sb_printf(b, "program %d %zu\n", (int)st, n);
    for (size_t i = 0; i < n; i++) {
        put_word(b, t, words[i]);
        sb_putc(b, '\n');
    }
    put_diags(b, d);
    gisa_free(words);
    gisa_diags_clear(d);
    words = NULL;
    st = gisa_assemble(t->isa, "bad.s", bad, sizeof bad - 1, NULL, &words, &n, d);
    sb_printf(b, "bad %d %d\n", (int)st, words != NULL);
    put_diags(b, d);
    gisa_free(words);
    gisa_diags_free(d);
}

static void section_serial(strbuf *b, const target *t)
{
    static const gisa_out_format fmts[] = {GISA_FMT_HEX, GISA_FMT_C, GISA_FMT_BIN};
    gisa_diags *d = api_diags();
    for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++) {
        char *buf = NULL;
        size_t len = 0;
        gisa_status st = gisa_words_serialize(t->isa, t->words, t->nwords, fmts[f], &buf, &len);
        sb_printf(b, "format %d: %d %zu\n", (int)fmts[f], (int)st, len);
        if (fmts[f] == GISA_FMT_BIN) {
            for (size_t i = 0; i < len; i++)
                sb_printf(b, "%02x", (unsigned char)buf[i]);
            sb_putc(b, '\n');
        } else if (buf) {
            sb_putn(b, buf, len);
        }
        if (fmts[f] != GISA_FMT_C && buf) {
            gisa_word *back = NULL;
            size_t n = 0;
            gisa_diags_clear(d);
            st = gisa_words_parse(t->isa, buf, len, fmts[f] == GISA_FMT_HEX, &back, &n, d);
            int same = st == GISA_OK && n == t->nwords && !memcmp(back, t->words, n * sizeof *back);
            sb_printf(b, "parse %d %zu same %d\n", (int)st, n, same);
            put_diags(b, d);
            gisa_free(back);
        }
        gisa_free(buf);
    }
    gisa_diags_free(d);
}

static void section_doc(strbuf *b, const target *t)
{
    const gisa_isa *isa = t->isa;
    gisa_status st;
    char *s = api_doc(isa, NULL, &st);
    sb_printf(b, "list %d\n%s\n", (int)st, str(s));
    gisa_free(s);
    for (size_t i = 0; i < gisa_isa_optype_count(isa); i++) {
        s = api_doc(isa, gisa_isa_optype_name(isa, i), &st);
        sb_printf(b, "optype %d\n%s\n", (int)st, str(s));
        gisa_free(s);
    }
    for (size_t i = 0; i < gisa_isa_opcode_count(isa); i++) {
        const char *name = gisa_isa_opcode_name(isa, i);
        s = api_doc(isa, name, &st);
        sb_printf(b, "opcode %zu %zu %d\n%s\n", i, api_find_opcode(isa, name), (int)st, str(s));
        gisa_free(s);
    }
    s = api_doc(isa, "NO_SUCH_THING", &st);
    sb_printf(b, "missing %d %s\n", (int)st, str(s));
    gisa_free(s);
}

static gisa_status put_page(void *user, const char *name, const char *data, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)data[i]) * UINT64_C(0x100000001b3);
    sb_printf(user, "%s %zu %016llx\n", name, len, (unsigned long long)h);
    return GISA_OK;
}

static void section_manual(strbuf *b, const target *t)
{
    gisa_status st = gisa_isa_manual(t->isa, put_page, b);
    sb_printf(b, "manual %d\n", (int)st);
}

static void section_lint(strbuf *b, const target *t)
{
    gisa_diags *d = api_diags();
    gisa_status st = gisa_isa_lint(t->isa, d);
    sb_printf(b, "lint %d %zu %zu\n", (int)st, gisa_diags_errors(d), gisa_diags_warnings(d));
    put_diags(b, d);
    gisa_diags_free(d);
}

/* Every register, predicate and a few constants from a fixed seed. */
static void sim_fill(gisa_sim *s, const gisa_isa *isa)
{
    tg_rng r = {0x5eed};
    unsigned regs = gisa_sim_regs(s);
    for (unsigned w = 0; w < gisa_sim_warps(s); w++) {
        for (unsigned i = 0; i < regs; i++)
            for (int l = 0; l < GISA_SIM_LANES; l++) /* small values often: FP and shifts see ordinary numbers */
                gisa_sim_set(s, w, GISA_RF_R, i, l,
                             (uint32_t)(tg_below(&r, 3) ? tg_next(&r) >> (tg_below(&r, 2) ? 32 : 60) : tg_next(&r)));
        for (unsigned i = 0; i < 7; i++) {
            for (int l = 0; l < GISA_SIM_LANES; l++)
                gisa_sim_set(s, w, GISA_RF_P, i, l, (uint32_t)tg_below(&r, 2));
            gisa_sim_set(s, w, GISA_RF_UP, i, 0, (uint32_t)tg_below(&r, 2));
        }
        for (unsigned i = 0; i < 63 && gisa_isa_word_bits(isa) == 128; i++)
            gisa_sim_set(s, w, GISA_RF_UR, i, 0, (uint32_t)tg_next(&r));
        gisa_sim_set_active(s, w, w ? (uint32_t)tg_next(&r) : UINT32_MAX);
    }
    for (unsigned bank = 0; bank < 4; bank++)
        for (unsigned off = 0; off < 256; off += 4)
            gisa_sim_set_const(s, bank, off, (uint32_t)tg_next(&r));
}

static gisa_sim *sim_make(const gisa_isa *isa, unsigned warps)
{
    gisa_sim *s = NULL;
    if (gisa_sim_new(isa, gisa_sim_max_regs(isa), warps, &s) != GISA_OK)
        return NULL;
    sim_fill(s, isa);
    return s;
}

static void section_sim(strbuf *b, const target *t)
{
    gisa_sim *s = sim_make(t->isa, SIM_WARPS), *again = NULL;
    if (!s) {
        sb_puts(b, "gisa_sim_new failed\n");
        return;
    }
    gisa_sim_set_threads(s, SIM_WORKERS);
    gisa_sim_fault f;
    memset(&f, 0, sizeof f);
    gisa_status st = gisa_sim_load(s, t->sim, t->nsim);
    if (st == GISA_OK)
        st = gisa_sim_run(s, &f);
    sb_printf(b, "run %d fault %zu %u %d %s %s\n", (int)st, f.pc, f.warp, f.lane, f.insn, f.message);
    char *json = api_state_json(s);
    sb_printf(b, "%s\n", str(json));
    if (json && gisa_sim_new(t->isa, gisa_sim_regs(s), SIM_WARPS, &again) == GISA_OK) {
        gisa_diags *d = api_diags();
        st = api_state_read(again, "state.json", json, strlen(json), d);
        char *back = api_state_json(again);
        sb_printf(b, "reread %d same %d\n", (int)st, back && !strcmp(back, json));
        put_diags(b, d);
        gisa_free(back);
        gisa_diags_free(d);
        gisa_sim_free(again);
    }
    gisa_free(json);
    gisa_sim_free(s);
}

static gisa_status put_line(void *user, const char *line)
{
    sb_printf(user, "%s\n", line);
    return GISA_OK;
}

static void section_step(strbuf *b, const target *t)
{
    gisa_sim *s = sim_make(t->isa, 1), *half = NULL;
    if (!s || gisa_sim_load(s, t->sim, t->nsim) != GISA_OK) {
        sb_puts(b, "no simulator\n");
        gisa_sim_free(s);
        return;
    }
    gisa_sim_commit c;
    gisa_sim_fault f;
    while (!api_done(s, 0)) {
        if (api_pc(s, 0) == t->nsim / 2 && !half && gisa_sim_clone(s, &half) != GISA_OK)
            sb_puts(b, "clone failed\n");
        memset(&f, 0, sizeof f);
        gisa_status st = gisa_sim_step(s, 0, &c, &f);
        sb_printf(b, "step %d %s\n", (int)st, f.message);
        if (st != GISA_OK)
            break;
        gisa_sim_commit_format(s, &c, GISA_TRACE_F32 | GISA_TRACE_F64 | GISA_TRACE_F16, put_line, b);
        gisa_sim_commit_format(s, &c, GISA_TRACE_JSON | GISA_TRACE_BF16, put_line, b);
    }
    if (half) {
        gisa_sim_diff diff;
        memset(&diff, 0, sizeof diff);
        gisa_status st = gisa_sim_continue(half, &f);
        sb_printf(b, "checkpoint %d differs %d %s\n", (int)st, api_compare(s, half, &diff), diff.text);
        gisa_sim_free(half);
    }
    gisa_sim_free(s);
}

static void section_gen(strbuf *b, const target *t)
{
    gisa_gen *g = NULL;
    gisa_diags *d = api_diags();
    if (gisa_gen_new(t->isa, &g) != GISA_OK) {
        sb_puts(b, "gisa_gen_new failed\n");
        gisa_diags_free(d);
        return;
    }
    gisa_status st = gisa_gen_generate(g, 0x7412, 300, d);
    size_t n = 0, len = 0;
    const gisa_word *words = api_gen_words(g, &n);
    const char *text = api_gen_text(g, &len), *state = api_gen_state(g, NULL);
    sb_printf(b, "generate %d %zu regs %u\n", (int)st, n, gisa_gen_regs(g));
    put_diags(b, d);
    sb_putn(b, text ? text : "", text ? len : 0);
    gisa_sim *s = NULL;
    if (st == GISA_OK && gisa_sim_new(t->isa, gisa_sim_max_regs(t->isa), SIM_WARPS, &s) == GISA_OK) {
        gisa_sim_fault f;
        memset(&f, 0, sizeof f);
        gisa_diags_clear(d);
        gisa_sim_set_threads(s, SIM_WORKERS);
        st = api_state_read(s, "gen.json", state, strlen(state), d);
        if (st == GISA_OK)
            st = gisa_sim_load(s, words, n);
        if (st == GISA_OK)
            st = gisa_sim_run(s, &f);
        sb_printf(b, "run %d %s\n", (int)st, f.message);
        put_diags(b, d);
        char *json = api_state_json(s);
        sb_printf(b, "%s\n", str(json));
        gisa_free(json);
        gisa_sim_free(s);
    }
    gisa_gen_free(g);
    gisa_diags_free(d);
}

static void run_section(strbuf *b, const target *t, int sec)
{
    switch (sec) {
    case S_WORDS: section_words(b, t); break;
    case S_ASM: section_asm(b, t); break;
    case S_SERIAL: section_serial(b, t); break;
    case S_DOC: section_doc(b, t); break;
    case S_MANUAL: section_manual(b, t); break;
    case S_LINT: section_lint(b, t); break;
    case S_SIM: section_sim(b, t); break;
    case S_STEP: section_step(b, t); break;
    case S_GEN: section_gen(b, t); break;
    }
}

/* ------------------------------------------------------------ the corpus */

static int push_word(gisa_word **v, size_t *n, size_t *cap, gisa_word w)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 256;
        gisa_word *p = realloc(*v, c * sizeof *p);
        if (!p)
            return 0;
        *v = p;
        *cap = c;
    }
    (*v)[(*n)++] = w;
    return 1;
}

/* Whether `prog` runs in one warp from sim_fill's state without a fault;
 * *pc: where it faulted. */
static int sim_runs_clean(const gisa_isa *isa, const gisa_word *prog, size_t n, size_t *pc)
{
    gisa_sim *s = sim_make(isa, 1);
    gisa_sim_fault f;
    memset(&f, 0, sizeof f);
    int ok = s && gisa_sim_load(s, prog, n) == GISA_OK;
    if (ok)
        gisa_sim_set_threads(s, 1);
    gisa_status st = ok ? gisa_sim_run(s, &f) : GISA_ERR_NOMEM;
    gisa_sim_free(s);
    *pc = f.pc;
    return st == GISA_OK;
}

/* The simulated program: one valid word of each opcode that runs alone
 * without a fault, then (together they may still fault on values) minus
 * the instructions where the whole program faults. */
static int build_sim_program(target *t)
{
    size_t cap = 0, pc;
    int last_op = -1;
    for (size_t i = 0; i < t->nwords; i++) {
        gisa_inst in;
        if (gisa_decode(t->isa, t->words[i], &in) != GISA_OK || in.opcode == last_op)
            continue;
        last_op = in.opcode;
        if (sim_runs_clean(t->isa, &t->words[i], 1, &pc) && !push_word(&t->sim, &t->nsim, &cap, t->words[i]))
            return 0;
    }
    for (int tries = 0; tries < 100 && t->nsim && !sim_runs_clean(t->isa, t->sim, t->nsim, &pc); tries++) {
        memmove(&t->sim[pc], &t->sim[pc + 1], (t->nsim - pc - 1) * sizeof *t->sim);
        t->nsim--;
    }
    return sim_runs_clean(t->isa, t->sim, t->nsim, &pc);
}

static int build_corpus(target *t, tg_rng *r)
{
    const gisa_isa *isa = t->isa;
    size_t cap = 0;
    for (int o = 0; o < isa->nopcodes; o++) {
        const isa_opcode *op = &isa->opcodes[o];
        for (int f = 0; f < op->nforms; f++)
            for (int k = 0; k < WORDS_PER_FORM; k++) {
                tg_word g;
                tg_generate(op, &op->forms[f], r, k, &g);
                if (!push_word(&t->words, &t->nwords, &cap, g.w))
                    return 0;
            }
    }
    for (int i = 0; i < NRANDOM; i++) {
        gisa_word w = {{tg_next(r), isa->word_bits == 128 ? tg_next(r) : 0}};
        if (!push_word(&t->words, &t->nwords, &cap, w))
            return 0;
    }
    strbuf prog;
    sb_init(&prog);
    for (size_t i = 0; i < t->nwords; i++) {
        char text[512];
        if (gisa_disassemble(isa, t->words[i], text, sizeof text, NULL) == GISA_OK)
            sb_printf(&prog, "%s ;\n", text);
    }
    t->program = sb_take(&prog);
    return t->program && build_sim_program(t);
}

/* ------------------------------------------------------------ the threads */

typedef struct worker {
    pthread_t tid;
    int index;
    int mode; /* the host rounding mode it runs under */
    long runs, mismatches, mode_changes;
    char first[512]; /* the first mismatch */
} worker;

static const int host_modes[] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
static pthread_barrier_t phase_start;

static void note_mismatch(worker *w, const target *t, int sec, const char *got)
{
    w->mismatches++;
    if (w->first[0])
        return;
    const char *ref = t->ref[sec];
    size_t at = 0;
    while (got[at] && got[at] == ref[at])
        at++;
    size_t from = at > 60 ? at - 60 : 0;
    snprintf(w->first, sizeof w->first, "thread %d (mode %d), %s %s: differs at byte %zu:\n  got ...%.100s\n  want ...%.100s",
             w->index, w->mode, t->name, section_name[sec], at, got + from, ref + from);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    fesetround(w->mode);
    for (int round = 0; round < ROUNDS; round++)
        for (int phase = 0; phase < 2 * S_COUNT; phase++) {
            int same = phase < S_COUNT;
            int sec = same ? phase : (phase + w->index) % S_COUNT;
            target t = targets[(w->index + round + (same ? 0 : phase)) % NTARGETS];
            t.isa = t.shared;
            strbuf b;
            sb_init(&b);
            pthread_barrier_wait(&phase_start);
            run_section(&b, &t, sec);
            w->runs++;
            if (b.failed || !b.s || strcmp(b.s, t.ref[sec]))
                note_mismatch(w, &t, sec, b.s ? b.s : "");
            if (fegetround() != w->mode) {
                w->mode_changes++;
                fesetround(w->mode);
            }
            sb_free(&b);
        }
    return NULL;
}

int main(void)
{
    tg_rng r = {0x7412ead5};
    for (int i = 0; i < NTARGETS; i++) {
        target *t = &targets[i];
        t->isa = test_isa_target(t->name);
        if (!build_corpus(t, &r)) {
            CHECKF(0, "%s: cannot build the corpus or a program that simulates", t->name);
            return test_summary();
        }
        for (int sec = 0; sec < S_COUNT; sec++) {
            strbuf b;
            sb_init(&b);
            run_section(&b, t, sec);
            CHECKF(!b.failed && b.s, "%s %s: out of memory", t->name, section_name[sec]);
            t->ref[sec] = sb_take(&b);
        }
        printf("%s: %zu words, %zu simulated instructions\n", t->name, t->nwords, t->nsim);
        CHECKF(t->nsim >= t->min_sim, "%s: only %zu instructions simulate", t->name, t->nsim);
        CHECK(fegetround() == FE_TONEAREST);
    }
    gisa_isa *shared[NTARGETS] = {NULL};
    for (int i = 0; i < NTARGETS; i++) {
        gisa_diags *d = api_diags();
        CHECKF(api_load_embedded(targets[i].name, &shared[i], d) == GISA_OK, "cannot load %s", targets[i].name);
        gisa_diags_free(d);
        if (!shared[i])
            return test_summary();
        targets[i].shared = shared[i];
    }
    worker w[NTHREADS];
    memset(w, 0, sizeof w);
    pthread_barrier_init(&phase_start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].index = i;
        w[i].mode = host_modes[i % 4];
        if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]) != 0) {
            fprintf(stderr, "pthread_create %d failed\n", i);
            return 2; /* the others wait at the barrier */
        }
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(w[i].tid, NULL);
    pthread_barrier_destroy(&phase_start);
    for (int i = 0; i < NTARGETS; i++)
        gisa_isa_free(shared[i]);
    for (int i = 0; i < NTHREADS; i++) {
        CHECKF(w[i].runs == ROUNDS * 2 * S_COUNT, "thread %d ran %ld sections", i, w[i].runs);
        CHECKF(w[i].mismatches == 0, "%ld sections differ from the single-threaded run; first: %s", w[i].mismatches,
               w[i].first);
        CHECKF(w[i].mode_changes == 0, "thread %d: %ld sections changed its rounding mode %d", i, w[i].mode_changes,
               w[i].mode);
    }
    for (int i = 0; i < NTARGETS; i++) {
        for (int sec = 0; sec < S_COUNT; sec++)
            free(targets[i].ref[sec]);
        free(targets[i].words);
        free(targets[i].program);
        free(targets[i].sim);
    }
    return test_summary();
}
