/* Shorthands over the public API (include/gisa.h) for the tests, fuzzers
 * and benchmarks: each is a few lines of the API, kept in one place so
 * that the programs read as what they test. Header-only; nothing here is
 * part of the library. */
#ifndef GISA_TESTS_APIHELP_H
#define GISA_TESTS_APIHELP_H
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gisa.h"

/* A new list, NULL when out of memory. */
static inline gisa_diags *api_diags(void)
{
    gisa_diags *d = NULL;
    return gisa_diags_new(&d) == GISA_OK ? d : NULL;
}

/* gisa_diag_format's text, NULL when out of memory. */
static inline char *api_diag_text(const gisa_diag *g, int with_source)
{
    char *s = NULL;
    return gisa_diag_format(g, with_source != 0, &s) == GISA_OK ? s : NULL;
}

static inline gisa_status api_load_embedded(const char *target, gisa_isa **out, gisa_diags *d)
{
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    o.target = target;
    return gisa_isa_load(&o, out, d);
}

static inline gisa_status api_load_paths(const char *const *paths, size_t n, const char *overlay_dir,
                                         const char *target, gisa_isa **out, gisa_diags *d)
{
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    o.paths = paths;
    o.npaths = n;
    o.overlay_dir = overlay_dir;
    o.target = target;
    return n ? gisa_isa_load(&o, out, d) : GISA_ERR_USAGE;
}

static inline gisa_status api_load_dir(const char *dir, const char *overlay_dir, const char *target, gisa_isa **out,
                                       gisa_diags *d)
{
    return api_load_paths(&dir, 1, overlay_dir, target, out, d);
}

static inline gisa_status api_load_sources(const gisa_source *files, size_t n, gisa_isa **out, gisa_diags *d)
{
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    o.sources = files;
    o.nsources = n;
    return gisa_isa_load(&o, out, d);
}

/* Exactly one instruction (GISA_ASM_ONE) into *word. */
static inline gisa_status api_asm_one(const gisa_isa *isa, const char *text, gisa_word *word, gisa_diags *d)
{
    gisa_asm_options o = GISA_ASM_OPTIONS_INIT;
    o.flags = GISA_ASM_ONE;
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(isa, "<input>", text, text ? strlen(text) : 0, &o, &w, &n, d);
    if (st == GISA_OK && word)
        *word = w[0];
    gisa_free(w);
    return st == GISA_OK && !word ? GISA_ERR_USAGE : st;
}

/* Exactly one instruction, decoded. */
static inline gisa_status api_asm_inst(const gisa_isa *isa, const char *text, gisa_inst *inst, gisa_diags *d)
{
    gisa_word w;
    if (!inst)
        return GISA_ERR_USAGE;
    gisa_status st = api_asm_one(isa, text, &w, d);
    return st != GISA_OK ? st : gisa_decode(isa, w, inst);
}

/* A state file's text applied to sim: gisa_state_parse, gisa_sim_state_apply. */
static inline gisa_status api_state_read(gisa_sim *sim, const char *name, const char *text, size_t len, gisa_diags *d)
{
    gisa_state *st = NULL;
    if (!sim || !text)
        return GISA_ERR_USAGE;
    gisa_status r = gisa_state_parse(name, text, len, &st, d);
    if (r == GISA_OK)
        r = gisa_sim_state_apply(sim, st, d);
    gisa_state_free(st);
    return r;
}

typedef struct api_text {
    char *s;
    size_t len, cap;
} api_text;

static inline gisa_status api_text_add(void *user, const char *data, size_t n)
{
    api_text *t = user;
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *p = realloc(t->s, cap);
        if (!p)
            return GISA_ERR_NOMEM;
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, data, n);
    t->len += n;
    t->s[t->len] = 0;
    return GISA_OK;
}

/* The state as one string, its values shown as `values` says, to release
 * with free; NULL when out of memory. */
static inline char *api_state_text(const gisa_sim *sim, gisa_state_values values)
{
    api_text t = {NULL, 0, 0};
    if (gisa_sim_state_write(sim, values, api_text_add, &t) != GISA_OK) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

/* The same with hex values. */
static inline char *api_state_json(const gisa_sim *sim) { return api_state_text(sim, GISA_STATE_HEX); }

/* The warp's pc, or (size_t)-1 for a bad warp. */
static inline size_t api_pc(const gisa_sim *sim, unsigned warp)
{
    size_t pc;
    return gisa_sim_pc(sim, warp, &pc) == GISA_OK ? pc : (size_t)-1;
}

/* Done (or a bad warp). */
static inline bool api_done(const gisa_sim *sim, unsigned warp)
{
    bool done = true;
    return gisa_sim_done(sim, warp, &done) != GISA_OK || done;
}

static inline uint32_t api_active(const gisa_sim *sim, unsigned warp)
{
    uint32_t m = 0;
    gisa_sim_get_active(sim, warp, &m);
    return m;
}

/* 0 when equal, 1 when not (or a bad argument). */
static inline int api_compare(const gisa_sim *a, const gisa_sim *b, gisa_sim_diff *diff)
{
    bool equal = false;
    return gisa_sim_compare(a, b, &equal, diff) != GISA_OK || !equal;
}

/* (size_t)-1 when there is none. */
static inline size_t api_find_opcode(const gisa_isa *isa, const char *name)
{
    size_t i;
    return gisa_isa_find_opcode(isa, name, &i) == GISA_OK ? i : (size_t)-1;
}

static inline size_t api_decode_opcode(const gisa_isa *isa, gisa_word w)
{
    size_t i;
    return gisa_decode_opcode(isa, w, &i) == GISA_OK ? i : (size_t)-1;
}

/* The text, NULL with the status in *st. */
static inline char *api_doc(const gisa_isa *isa, const char *name, gisa_status *st)
{
    char *s = NULL;
    gisa_status r = gisa_isa_doc(isa, name, &s);
    if (st)
        *st = r;
    return r == GISA_OK ? s : NULL;
}

static inline char *api_cov_json(const gisa_cov *c)
{
    char *s = NULL;
    return gisa_cov_write_json(c, &s) == GISA_OK ? s : NULL;
}

static inline char *api_cov_report(const gisa_cov *c)
{
    char *s = NULL;
    return gisa_cov_report(c, &s) == GISA_OK ? s : NULL;
}

/* not inlined: GCC 12 takes the out-parameter for a dangling local */
__attribute__((noinline, unused)) static const gisa_word *api_gen_words(const gisa_gen *g, size_t *n)
{
    const gisa_word *w = NULL;
    size_t k = 0;
    gisa_gen_words(g, &w, &k);
    if (n)
        *n = k;
    return w;
}

__attribute__((noinline, unused)) static const char *api_gen_text(const gisa_gen *g, size_t *len)
{
    const char *s = NULL;
    size_t k = 0;
    gisa_gen_text(g, &s, &k);
    if (len)
        *len = k;
    return s;
}

__attribute__((noinline, unused)) static const char *api_gen_state(const gisa_gen *g, size_t *len)
{
    const char *s = NULL;
    size_t k = 0;
    gisa_gen_state(g, &s, &k);
    if (len)
        *len = k;
    return s;
}

#endif
