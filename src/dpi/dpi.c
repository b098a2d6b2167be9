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
    rtl_write writes[MAX_RTL_WRITES];
    int nwrites, overflow;
    int errors;
    int check_failed;   /* problems since the last retire/step/load */
    char message[MSG_CAP];
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
    if (st == GISA_ERR_SIM) {
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
    if (model_step(d, warp) != 0)
        return -1;
    if ((size_t)pc != want)
        fail(d, "mismatch: warp %d: the RTL retired pc %d, the model pc %zu (%s)", warp, pc, want, d->commit.text);
    else if (exec != d->commit.exec)
        fail(d, "mismatch: warp %d pc %d (%s): exec mask: expected 0x%08x, got 0x%08x", warp, pc, d->commit.text,
             d->commit.exec, exec);
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
        if (rtl_find(d, w->rf, w->index, w->lane) == w && !model_find(c, w->rf, w->index, w->lane, &want))
            fail(d, "mismatch: warp %d pc %zu (%s): %s%d lane %d: expected no write, got %s", d->warp, c->pc, c->text,
                 rf_names[w->rf], w->index, w->lane, show(w->rf, w->value, x));
    }
    d->nwrites = 0;
    return d->check_failed;
}

int gisa_dpi_errors(void *h) { return h ? ((dpi *)h)->errors : 1; }
const char *gisa_dpi_message(void *h) { return h ? ((dpi *)h)->message : gisa_dpi_last_error(); }
