/* The DPI-C wrapper (include/gisa_dpi.h): a handle that holds an ISA, a
 * simulator and the lockstep comparison of one retired instruction. It
 * uses only the public API (and the `.include` reader of the command
 * line, src/common/readfile.h, for the programs it reads); its job is DPI's plain types and the
 * comparison of what the RTL says it wrote with the model's commit record. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gisa.h"
#include "gisa_dpi.h"
#include "common/readfile.h"
#include "sim/state_io.h"

#define MAX_RTL_WRITES 1024
#define MSG_CAP 512
#define DETAILS_CAP 1024
#define NPREDS 7  /* P0..P6, UP0..UP6 (gisa.h's simulator) */
#define NUREGS 63 /* UR0..UR62 */

typedef struct rtl_write {
    int rf, index, lane;
    unsigned value;
} rtl_write;

typedef struct dpi {
    gisa_isa *isa;
    gisa_sim *sim;
    gisa_word *words;
    size_t nwords;
    gisa_sim_commit commit;
    int have_commit;
    int warp;           /* of the instruction being compared */
    gisa_sim_fault fault;
    int faulted;        /* the last step faulted, at fault_pc: no commit record */
    size_t fault_pc;
    rtl_write writes[MAX_RTL_WRITES];
    int nwrites, overflow;
    int errors;
    int check_failed;   /* problems since the last retire/step/load */
    char message[MSG_CAP];
    /* the report's further lines: lanes of the instruction that differ,
     * and the first one's lane (-1: none) */
    uint32_t bad_lanes;
    int first_lane;
    char details[DETAILS_CAP];
    /* the RTL's final state as the testbench reports it (gisa_dpi_rtl_state):
     * per warp R, P, UR, UP slots; lazily made */
    uint32_t *rtl_val;
    uint8_t *rtl_set;
    size_t per_warp;
    int rtl_files;      /* bit rf: something of that register file was reported */
} dpi;

static _Thread_local char last_error[MSG_CAP];

const char *gisa_dpi_last_error(void) { return last_error; }

/* The first problem of a check (or any error) is the message kept. */
static void fail(dpi *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(dpi *d, const char *fmt, ...)
{
    d->errors++;
    if (d->check_failed++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
}

/* A new operation: its problems are counted and described afresh. */
static void begin(dpi *d)
{
    d->check_failed = 0;
    d->message[0] = 0;
    d->details[0] = 0;
    d->bad_lanes = 0;
    d->first_lane = -1;
}

/* A lane that differs, for the details. */
static void bad_lane(dpi *d, int lane)
{
    if (d->first_lane < 0)
        d->first_lane = lane;
    d->bad_lanes |= 1u << lane;
}

/* Through the shared reader: its size limit, and no device read forever. */
static char *read_file(dpi *d, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (!f) {
        fail(d, "error: cannot open %s", path);
        return NULL;
    }
    const char *kind = file_not_input(fileno(f));
    int e = file_read_all(f, &buf, len);
    fclose(f);
    if (e == FILE_NOT_INPUT)
        fail(d, "error: %s is not a regular file (%s)", path, kind);
    else if (e == -1)
        fail(d, "error: %s is too large (the limit is 1 GiB)", path);
    else if (e == -2)
        fail(d, "error: out of memory reading %s", path);
    else if (e)
        fail(d, "error: cannot read %s", path);
    return e ? NULL : buf;
}

static gisa_diags *dpi_diags(void)
{
    gisa_diags *g = NULL;
    return gisa_diags_new(&g) == GISA_OK ? g : NULL;
}

/* A warp that is out of range counts as done. */
static bool warp_done(const dpi *d, int warp)
{
    bool done = true;
    return warp < 0 || gisa_sim_done(d->sim, (unsigned)warp, &done) != GISA_OK || done;
}

/* The first error of diags as `file:line:col: error: message`. */
static void fail_diags(dpi *d, gisa_diags *g, const char *what)
{
    for (size_t i = 0; i < gisa_diags_count(g); i++) {
        const gisa_diag *x = gisa_diags_get(g, i);
        if (x->severity != GISA_ERROR)
            continue;
        char *t = NULL;
        gisa_diag_format(x, false, &t);
        fail(d, "%s", t ? t : what);
        gisa_free(t);
        return;
    }
    fail(d, "error: %s", what);
}

void *gisa_dpi_new(const char *target, const char *isa_paths, int regs, int warps)
{
    if (regs < 0 || warps < 0) { /* 0 is the default; a negative count is a mistake, not another default */
        snprintf(last_error, sizeof last_error, "%s must not be negative (%d; 0 = the default)",
                 regs < 0 ? "the number of registers" : "the number of warps", regs < 0 ? regs : warps);
        return NULL;
    }
    dpi *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(last_error, sizeof last_error, "out of memory");
        return NULL;
    }
    const char *tgt = target && *target ? target : NULL;
    gisa_diags *g = dpi_diags();
    gisa_status st;
    gisa_load_options opt = GISA_LOAD_OPTIONS_INIT;
    opt.target = tgt;
    if (isa_paths && *isa_paths) {
        char *copy = strdup(isa_paths);
        const char *paths[64];
        size_t n = 0;
        char *rest = NULL; /* strtok_r: strtok keeps its place in a static, shared by all threads */
        for (char *p = copy ? strtok_r(copy, ":", &rest) : NULL; p && n < 64; p = strtok_r(NULL, ":", &rest))
            paths[n++] = p;
        opt.paths = paths;
        opt.npaths = n;
        st = n ? gisa_isa_load(&opt, &d->isa, g) : GISA_ERR_USAGE;
        free(copy);
    } else {
        st = gisa_isa_load(&opt, &d->isa, g);
    }
    if (st == GISA_OK) {
        unsigned r = regs > 0 ? (unsigned)regs : gisa_sim_max_regs(d->isa);
        st = gisa_sim_new(d->isa, r, warps > 0 ? (unsigned)warps : 1, &d->sim);
        if (st != GISA_OK)
            snprintf(last_error, sizeof last_error, "cannot make a simulator of %d registers and %d warps: %s", regs,
                     warps, gisa_status_str(st));
    } else {
        const gisa_diag *x = gisa_diags_count(g) ? gisa_diags_get(g, 0) : NULL;
        snprintf(last_error, sizeof last_error, "cannot load the ISA: %s", x ? x->message : gisa_status_str(st));
    }
    gisa_diags_free(g);
    if (st != GISA_OK) {
        gisa_dpi_free(d);
        return NULL;
    }
    return d;
}

void gisa_dpi_free(void *h)
{
    dpi *d = h;
    if (!d)
        return;
    gisa_sim_free(d->sim);
    gisa_isa_free(d->isa);
    gisa_free(d->words);
    free(d->rtl_val);
    free(d->rtl_set);
    free(d);
}

/* The start of every load: a new operation, the file's text (NULL: failed). */
static char *begin_load(dpi *d, const char *path, size_t *len)
{
    if (!d)
        return NULL;
    begin(d);
    return read_file(d, path, len);
}

static int load_words(dpi *d, const char *path, int hex)
{
    size_t len;
    char *text = begin_load(d, path, &len);
    if (!text)
        return -1;
    gisa_diags *g = dpi_diags();
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_status st;
    if (hex) {
        st = gisa_words_parse(d->isa, text, len, true, &words, &n, g);
    } else { /* .include relative to the program's file, as `gisa as` reads them */
        gisa_asm_options opt = GISA_ASM_OPTIONS_INIT;
        opt.include = file_include_read;
        opt.release = file_include_release;
        char *id = realpath(path, NULL); /* the program by any path, for cycles */
        opt.file_id = id;
        st = gisa_assemble(d->isa, path, text, len, &opt, &words, &n, g);
        free(id);
    }
    free(text);
    if (st == GISA_OK)
        st = gisa_sim_load(d->sim, words, n);
    if (st != GISA_OK) {
        fail_diags(d, g, hex ? "the hex words do not parse" : "the program does not assemble");
        gisa_free(words);
        gisa_diags_free(g);
        return -1;
    }
    gisa_diags_free(g);
    gisa_free(d->words);
    d->words = words;
    d->nwords = n;
    d->have_commit = 0;
    return (int)n;
}

int gisa_dpi_load_asm(void *h, const char *path) { return load_words(h, path, 0); }
int gisa_dpi_load_hex(void *h, const char *path) { return load_words(h, path, 1); }
int gisa_dpi_program_length(void *h) { return h ? (int)((dpi *)h)->nwords : 0; }

unsigned int gisa_dpi_word(void *h, int pc, int part)
{
    dpi *d = h;
    if (!d || pc < 0 || (size_t)pc >= d->nwords || part < 0 || part > 3)
        return 0;
    return (unsigned)(d->words[pc].w[part / 2] >> (32 * (part % 2)));
}

int gisa_dpi_load_state(void *h, const char *path)
{
    dpi *d = h;
    size_t len;
    char *text = begin_load(d, path, &len);
    if (!text)
        return -1;
    gisa_diags *g = dpi_diags();
    gisa_status st = sim_state_read_json(d->sim, path, text, len, g);
    free(text);
    if (st != GISA_OK)
        fail_diags(d, g, "the state file has errors");
    gisa_diags_free(g);
    return st == GISA_OK ? 0 : -1;
}

int gisa_dpi_set(void *h, int warp, int rf, int index, int lane, unsigned int value)
{
    dpi *d = h;
    if (!d || warp < 0 || rf < 0 || rf > 3 || index < 0)
        return -1;
    return gisa_sim_set(d->sim, (unsigned)warp, (gisa_regfile)rf, (unsigned)index, lane, value) == GISA_OK ? 0 : -1;
}

unsigned int gisa_dpi_get(void *h, int warp, int rf, int index, int lane)
{
    dpi *d = h;
    uint32_t v = 0;
    if (d && warp >= 0 && rf >= 0 && rf <= 3 && index >= 0 && lane >= 0)
        gisa_sim_get(d->sim, (unsigned)warp, (gisa_regfile)rf, (unsigned)index, (unsigned)lane, &v);
    return v;
}

int gisa_dpi_set_active(void *h, int warp, unsigned int mask)
{
    dpi *d = h;
    return d && warp >= 0 && gisa_sim_set_active(d->sim, (unsigned)warp, mask) == GISA_OK ? 0 : -1;
}

unsigned int gisa_dpi_get_active(void *h, int warp)
{
    dpi *d = h;
    uint32_t mask = 0;
    if (d && warp >= 0)
        gisa_sim_get_active(d->sim, (unsigned)warp, &mask);
    return mask;
}

int gisa_dpi_pc(void *h, int warp)
{
    dpi *d = h;
    size_t pc;
    return d && warp >= 0 && gisa_sim_pc(d->sim, (unsigned)warp, &pc) == GISA_OK ? (int)pc : -1;
}

int gisa_dpi_done(void *h, int warp) { return !h || warp_done(h, warp); }

/* Steps the model: 0, 1 when the warp is done, -1 on a fault (failed). */
static int model_step(dpi *d, int warp)
{
    if (warp_done(d, warp))
        return 1;
    gisa_sim_fault f;
    gisa_status st = gisa_sim_step(d->sim, (unsigned)warp, &d->commit, &f);
    d->have_commit = 1;
    d->warp = warp;
    d->faulted = st == GISA_ERR_SIM;
    if (st == GISA_ERR_SIM) {
        d->fault_pc = f.pc;
        d->fault = f;
        fail(d, "mismatch: warp %d pc %zu (%s): the model faults: %s", warp, f.pc, f.insn, f.message);
        return -1;
    }
    return st == GISA_OK ? 0 : -1;
}

int gisa_dpi_step(void *h, int warp)
{
    dpi *d = h;
    if (!d)
        return -1;
    begin(d);
    return model_step(d, warp);
}

static const gisa_sim_effect *effect_at(void *h, int i)
{
    dpi *d = h;
    if (!d || !d->have_commit || i < 0 || (unsigned)i >= d->commit.neffects)
        return NULL;
    return &d->commit.effect[i];
}

int gisa_dpi_commit_pc(void *h) { return h && ((dpi *)h)->have_commit ? (int)((dpi *)h)->commit.pc : -1; }
unsigned int gisa_dpi_commit_exec(void *h) { return h && ((dpi *)h)->have_commit ? ((dpi *)h)->commit.exec : 0; }
const char *gisa_dpi_commit_text(void *h)
{
    dpi *d = h;
    return d && d->have_commit && d->commit.text ? d->commit.text : "";
}
int gisa_dpi_effect_count(void *h) { return h && ((dpi *)h)->have_commit ? (int)((dpi *)h)->commit.neffects : 0; }
int gisa_dpi_effect_rf(void *h, int i) { return effect_at(h, i) ? (int)effect_at(h, i)->rf : -1; }
int gisa_dpi_effect_index(void *h, int i) { return effect_at(h, i) ? (int)effect_at(h, i)->index : -1; }
unsigned int gisa_dpi_effect_mask(void *h, int i) { return effect_at(h, i) ? effect_at(h, i)->mask : 0; }
unsigned int gisa_dpi_effect_value(void *h, int i, int lane)
{
    const gisa_sim_effect *e = effect_at(h, i);
    return e && lane >= 0 && lane < GISA_SIM_LANES ? e->value[lane] : 0;
}

/* Appends to the details, cut at their end. */
static void add(dpi *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(dpi *d, const char *fmt, ...)
{
    size_t n = strlen(d->details);
    if (n + 1 >= sizeof d->details)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->details + n, sizeof d->details - n, fmt, ap);
    va_end(ap);
}

/* The lanes of a mask, counted and listed. */
static void add_lanes(dpi *d, const char *what, uint32_t lanes)
{
    int n = 0;
    for (int l = 0; l < GISA_SIM_LANES; l++)
        n += lanes >> l & 1;
    add(d, "  %d %s%s:", n, what, n == 1 ? "" : "s");
    for (int l = 0; l < GISA_SIM_LANES; l++)
        if (lanes >> l & 1)
            add(d, " %d", l);
    add(d, "\n");
}

/* A register as the instruction read it: before its own writes. */
static uint32_t read_before(const dpi *d, gisa_regfile rf, unsigned index, int lane)
{
    const gisa_sim_commit *c = &d->commit;
    int uniform = rf == GISA_RF_UR || rf == GISA_RF_UP;
    for (unsigned i = 0; i < c->neffects; i++)
        if (c->effect[i].rf == rf && c->effect[i].index == index)
            return c->effect[i].old_value[uniform ? 0 : lane];
    uint32_t v = 0;
    gisa_sim_get(d->sim, (unsigned)d->warp, rf, index, uniform ? 0 : (unsigned)lane, &v);
    return v;
}

/* The source operands of the instruction in one lane, as it read them. */
static void add_sources(dpi *d, int lane)
{
    const gisa_isa *isa = gisa_sim_isa(d->sim);
    const gisa_inst *inst = d->commit.inst;
    size_t n = inst ? gisa_inst_operand_count(isa, inst) : 0;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        gisa_operand o;
        if (gisa_inst_operand(isa, inst, i, &o) != GISA_OK || o.written || !o.present || o.is_zero)
            continue;
        const char *sep = any++ ? "," : "";
        switch (o.kind) {
        case GISA_OPND_REG:
        case GISA_OPND_PAIR:
            add(d, "%s %s R%u = 0x%08x", sep, o.name, o.reg, read_before(d, GISA_RF_R, o.reg, lane));
            if (o.kind == GISA_OPND_PAIR)
                add(d, ", R%u = 0x%08x", o.reg + 1, read_before(d, GISA_RF_R, o.reg + 1, lane));
            break;
        case GISA_OPND_UREG:
        case GISA_OPND_UPAIR:
            add(d, "%s %s UR%u = 0x%08x", sep, o.name, o.reg, read_before(d, GISA_RF_UR, o.reg, lane));
            if (o.kind == GISA_OPND_UPAIR)
                add(d, ", UR%u = 0x%08x", o.reg + 1, read_before(d, GISA_RF_UR, o.reg + 1, lane));
            break;
        case GISA_OPND_PRED:
            add(d, "%s %s P%u = %u", sep, o.name, o.reg, read_before(d, GISA_RF_P, o.reg, lane));
            break;
        case GISA_OPND_UPRED:
            add(d, "%s %s UP%u = %u", sep, o.name, o.reg, read_before(d, GISA_RF_UP, o.reg, lane));
            break;
        case GISA_OPND_CBANK: {
            uint32_t v = 0;
            gisa_sim_get_const(d->sim, o.bank, o.offset, &v);
            add(d, "%s %s c[0x%x][0x%x] = 0x%08x", sep, o.name, o.bank, o.offset, v);
            break;
        }
        case GISA_OPND_IMM:
        case GISA_OPND_F32:
        case GISA_OPND_F64:
        case GISA_OPND_F16X2:
            add(d, "%s %s = 0x%llx", sep, o.name, (unsigned long long)o.value);
            break;
        default:
            any--;
            break;
        }
    }
    if (!any)
        add(d, " none");
    add(d, "\n");
}

/* The lines after the report's first when this operation failed: the
 * word, the lanes that differ, the first one's sources. */
static void describe(dpi *d)
{
    d->details[0] = 0;
    if (!d->check_failed || !d->have_commit)
        return;
    size_t pc = d->faulted ? d->fault_pc : d->commit.pc;
    if (pc < d->nwords)
        add(d, "  word 0x%016llx%016llx\n", (unsigned long long)d->words[pc].w[1],
            (unsigned long long)d->words[pc].w[0]);
    if (d->bad_lanes)
        add_lanes(d, "mismatching lane", d->bad_lanes);
    if (d->first_lane >= 0 && !d->faulted && d->commit.inst) {
        add(d, "  lane %d read:", d->first_lane);
        add_sources(d, d->first_lane);
    }
}

const char *gisa_dpi_details(void *h) { return h ? ((dpi *)h)->details : ""; }

int gisa_dpi_retire(void *h, int warp, int pc, unsigned int exec)
{
    dpi *d = h;
    if (!d)
        return -1;
    begin(d);
    d->nwrites = 0;
    d->overflow = 0;
    d->have_commit = 0;
    size_t want = 0;
    if (warp_done(d, warp) || gisa_sim_pc(d->sim, (unsigned)warp, &want) != GISA_OK) {
        fail(d, "mismatch: warp %d: the RTL retired pc %d but the model's warp has ended", warp, pc);
        return -1;
    }
    if (model_step(d, warp) != 0) {
        describe(d);
        return -1;
    }
    if ((size_t)pc != want)
        fail(d, "mismatch: warp %d: the RTL retired pc %d, the model pc %zu (%s)", warp, pc, want, d->commit.text);
    else if (exec != d->commit.exec) {
        fail(d, "mismatch: warp %d pc %d (%s): exec mask: expected 0x%08x, got 0x%08x", warp, pc, d->commit.text,
             d->commit.exec, exec);
        for (int l = 0; l < GISA_SIM_LANES; l++)
            if ((exec ^ d->commit.exec) >> l & 1)
                bad_lane(d, l);
    }
    describe(d);
    return 0;
}

int gisa_dpi_write(void *h, int rf, int index, int lane, unsigned int value)
{
    dpi *d = h;
    if (!d || rf < 0 || rf > 3 || index < 0 || lane < 0 || lane >= GISA_SIM_LANES)
        return -1;
    if (d->nwrites == MAX_RTL_WRITES) {
        d->overflow = 1;
        return -1;
    }
    d->writes[d->nwrites++] = (rtl_write){rf, index, lane, value};
    return 0;
}

static const char *const rf_names[] = {"R", "P", "UR", "UP"};

/* A value as the register file shows it: predicates 0/1, registers in hex. */
static const char *show(int rf, unsigned v, char buf[16])
{
    snprintf(buf, 16, rf == GISA_RF_P || rf == GISA_RF_UP ? "%u" : "0x%08x", v);
    return buf;
}

/* The RTL's last write of (rf, index, lane), or NULL. */
static const rtl_write *rtl_find(const dpi *d, int rf, int index, int lane)
{
    for (int i = d->nwrites - 1; i >= 0; i--)
        if (d->writes[i].rf == rf && d->writes[i].index == index && d->writes[i].lane == lane)
            return &d->writes[i];
    return NULL;
}

/* The model's final value of (rf, index, lane) in the commit: 1 when written. */
static int model_find(const gisa_sim_commit *c, int rf, int index, int lane, unsigned *value)
{
    int found = 0;
    for (unsigned i = 0; i < c->neffects; i++) {
        const gisa_sim_effect *e = &c->effect[i];
        if ((int)e->rf == rf && (int)e->index == index && (e->mask >> lane & 1)) {
            *value = e->value[lane];
            found = 1;
        }
    }
    return found;
}

int gisa_dpi_check(void *h)
{
    dpi *d = h;
    if (!d || !d->have_commit)
        return d ? (fail(d, "error: gisa_dpi_check without gisa_dpi_retire"), 1) : 1;
    const gisa_sim_commit *c = &d->commit;
    if (d->overflow)
        fail(d, "error: more than %d writes reported for one instruction", MAX_RTL_WRITES);
    for (unsigned i = 0; i < c->neffects; i++) {
        const gisa_sim_effect *e = &c->effect[i];
        for (int l = 0; l < GISA_SIM_LANES; l++) {
            unsigned want = 0;
            if (!(e->mask >> l & 1) || !model_find(c, (int)e->rf, (int)e->index, l, &want) ||
                want != e->value[l]) /* report each register and lane once: at its last write */
                continue;
            const rtl_write *w = rtl_find(d, (int)e->rf, (int)e->index, l);
            char x[16], y[16];
            if (!w || w->value != want)
                bad_lane(d, l);
            if (!w)
                fail(d, "mismatch: warp %d pc %zu (%s): %s%u lane %d: expected %s, got no write", d->warp, c->pc,
                     c->text, rf_names[e->rf], e->index, l, show((int)e->rf, want, x));
            else if (w->value != want)
                fail(d, "mismatch: warp %d pc %zu (%s): %s%u lane %d: expected %s, got %s", d->warp, c->pc, c->text,
                     rf_names[e->rf], e->index, l, show((int)e->rf, want, x), show((int)e->rf, w->value, y));
        }
    }
    for (int i = 0; i < d->nwrites; i++) {
        const rtl_write *w = &d->writes[i];
        unsigned want = 0;
        char x[16];
        if (rtl_find(d, w->rf, w->index, w->lane) == w && !model_find(c, w->rf, w->index, w->lane, &want)) {
            bad_lane(d, w->lane);
            fail(d, "mismatch: warp %d pc %zu (%s): %s%d lane %d: expected no write, got %s", d->warp, c->pc, c->text,
                 rf_names[w->rf], w->index, w->lane, show(w->rf, w->value, x));
        }
    }
    d->nwrites = 0;
    describe(d);
    return d->check_failed;
}

int gisa_dpi_errors(void *h) { return h ? ((dpi *)h)->errors : 1; }
const char *gisa_dpi_message(void *h) { return h ? ((dpi *)h)->message : gisa_dpi_last_error(); }

int gisa_dpi_trap(void *h, int warp, int pc)
{
    dpi *d = h;
    if (!d)
        return -1;
    begin(d);
    d->nwrites = 0;
    d->have_commit = 0;
    size_t want = 0;
    if (warp_done(d, warp) || gisa_sim_pc(d->sim, (unsigned)warp, &want) != GISA_OK) {
        fail(d, "mismatch: warp %d: the RTL trapped at pc %d but the model's warp has ended", warp, pc);
        return -1;
    }
    gisa_sim_fault f;
    gisa_status st = gisa_sim_step(d->sim, (unsigned)warp, &d->commit, &f);
    d->have_commit = 1;
    d->warp = warp;
    d->faulted = st == GISA_ERR_SIM;
    if (d->faulted) { /* the fault is what the RTL's trap must match */
        d->fault = f;
        d->fault_pc = f.pc;
        if ((size_t)pc == f.pc) {
            snprintf(d->message, sizeof d->message, "trap: warp %d pc %d (%s): %s", warp, pc, f.insn, f.message);
            return 0;
        }
        fail(d, "mismatch: warp %d: the RTL trapped at pc %d, the model faults at pc %zu (%s): %s", warp, pc, f.pc,
             f.insn, f.message);
    } else if (st != GISA_OK) {
        fail(d, "mismatch: warp %d: the RTL trapped at pc %d, the model cannot step (%s)", warp, pc,
             gisa_status_str(st));
    } else if ((size_t)pc != want) {
        fail(d, "mismatch: warp %d: the RTL trapped at pc %d, the model executed pc %zu (%s)", warp, pc, want,
             d->commit.text);
    } else {
        fail(d, "mismatch: warp %d pc %d (%s): the RTL trapped (illegal instruction), the model executes it", warp, pc,
             d->commit.text);
    }
    describe(d);
    return -1;
}

/* ---------------------------------------------------------------- the final state */

/* Where (rf, index, lane) of warp 0 is kept; -1 when the model has no such register. */
static long rtl_slot(const dpi *d, int rf, int index, int lane)
{
    long regs = (long)gisa_sim_regs(d->sim), base = (regs + NPREDS) * GISA_SIM_LANES;
    if (index < 0 || lane < 0 || lane >= GISA_SIM_LANES)
        return -1;
    switch (rf) {
    case GISA_RF_R: return index < regs ? (long)index * GISA_SIM_LANES + lane : -1;
    case GISA_RF_P: return index < NPREDS ? (regs + index) * GISA_SIM_LANES + lane : -1;
    case GISA_RF_UR: return index < NUREGS && lane == 0 ? base + index : -1;
    case GISA_RF_UP: return index < NPREDS && lane == 0 ? base + NUREGS + index : -1;
    default: return -1;
    }
}

int gisa_dpi_rtl_state(void *h, int warp, int rf, int index, int lane, unsigned int value)
{
    dpi *d = h;
    if (!d || warp < 0 || (unsigned)warp >= gisa_sim_warps(d->sim))
        return -1;
    long s = rtl_slot(d, rf, index, lane);
    if (s < 0)
        return -1;
    if (!d->rtl_val) {
        d->per_warp = (size_t)rtl_slot(d, GISA_RF_UP, NPREDS - 1, 0) + 1;
        size_t n = d->per_warp * gisa_sim_warps(d->sim);
        d->rtl_val = calloc(n, sizeof *d->rtl_val);
        d->rtl_set = calloc(n, 1);
        if (!d->rtl_val || !d->rtl_set) {
            free(d->rtl_val);
            free(d->rtl_set);
            d->rtl_val = NULL;
            d->rtl_set = NULL;
            return -1;
        }
    }
    size_t at = (size_t)warp * d->per_warp + (size_t)s;
    d->rtl_val[at] = rf == GISA_RF_P || rf == GISA_RF_UP ? value != 0 : value;
    d->rtl_set[at] = 1;
    d->rtl_files |= 1 << rf;
    return 0;
}

int gisa_dpi_compare_state(void *h)
{
    dpi *d = h;
    if (!d)
        return 1;
    begin(d);
    d->have_commit = 0;
    if (!d->rtl_files) {
        fail(d, "error: gisa_dpi_compare_state without gisa_dpi_rtl_state");
        return 1;
    }
    const unsigned count[4] = {gisa_sim_regs(d->sim), NPREDS, NUREGS, NPREDS};
    int diffs = 0;
    long first = -1; /* the first differing register (warp, rf, index), whose lanes the details list */
    for (unsigned w = 0; w < gisa_sim_warps(d->sim); w++)
        for (int rf = 0; rf < 4; rf++) {
            if (!(d->rtl_files >> rf & 1)) /* a register file the RTL does not have */
                continue;
            int lanes = rf == GISA_RF_R || rf == GISA_RF_P ? GISA_SIM_LANES : 1;
            for (unsigned i = 0; i < count[rf]; i++)
                for (int l = 0; l < lanes; l++) {
                    size_t at = w * d->per_warp + (size_t)rtl_slot(d, rf, (int)i, l);
                    uint32_t want = 0;
                    gisa_sim_get(d->sim, w, (gisa_regfile)rf, i, (unsigned)l, &want);
                    if (d->rtl_set[at] && d->rtl_val[at] == want)
                        continue;
                    diffs++;
                    long reg = ((long)w * 4 + rf) * 256 + i;
                    if (first < 0)
                        first = reg;
                    if (reg == first)
                        bad_lane(d, l);
                    char x[16], y[16], lane[16] = "";
                    if (lanes > 1)
                        snprintf(lane, sizeof lane, " lane %d", l);
                    if (!d->rtl_set[at])
                        fail(d, "mismatch: final state: warp %u %s%u%s: expected %s, not reported by the RTL", w,
                             rf_names[rf], i, lane, show(rf, want, x));
                    else
                        fail(d, "mismatch: final state: warp %u %s%u%s: expected %s, got %s", w, rf_names[rf], i, lane,
                             show(rf, want, x), show(rf, d->rtl_val[at], y));
                }
        }
    if (diffs) {
        add(d, "  %d differing register lanes in all\n", diffs);
        if (d->bad_lanes && (first >> 8) % 4 <= GISA_RF_P)
            add_lanes(d, "differing lane", d->bad_lanes);
    }
    memset(d->rtl_set, 0, gisa_sim_warps(d->sim) * d->per_warp);
    d->rtl_files = 0;
    return diffs;
}
