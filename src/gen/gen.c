/* gisa_gen_*: the handle, and the loop that draws a program. Each step is
 * a directed stream (at the stream rate) or one instruction: an optype by
 * weight, then an opcode of it by the operand-kind rates (constant,
 * uniform, immediate, registers), then pick.c's random instruction. The
 * text of every instruction is gisa_print's, so it is what the
 * disassembler prints for the word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fpenv.h"
#include "common/diag.h"
#include "common/strbuf.h"
#include "gen/gen.h"

/* Marks the opcodes some attempt turns into a valid word (all of them, in
 * the shipped models), with the default options. */
static void probe_usable(gisa_gen *g)
{
    gen_run probe = {.rng = {{0}}};
    gen_rng_seed(&probe.rng, 0, 99);
    for (int i = 0; i < g->t.isa->nopcodes; i++) {
        gisa_inst inst;
        g->t.ops[i].usable = 1;
        g->t.ops[i].usable = gen_pick(g, &probe, i, NULL, &inst) == 0;
    }
}

gisa_status gisa_gen_new(const gisa_isa *isa, gisa_gen **out)
{
    if (!isa || !out)
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_gen *g = calloc(1, sizeof *g);
    if (!g)
        return GISA_ERR_NOMEM;
    g->scratch = diags_alloc();
    if (!g->scratch || gen_tables_init(&g->t, isa) || gen_options_init(&g->o, &g->t)) {
        gisa_gen_free(g);
        return GISA_ERR_NOMEM;
    }
    probe_usable(g);
    gen_stream_probe(&g->t, g->scratch);
    *out = g;
    return GISA_OK;
}

void gisa_gen_free(gisa_gen *g)
{
    if (!g)
        return;
    gen_options_free(&g->o);
    gen_tables_free(&g->t);
    gisa_diags_free(g->scratch);
    gen_run *r = &g->run;
    free(r->cum);
    free(r->cls_ops);
    free(r->cls_at);
    free(r->sel_ops);
    free(r->sel_at);
    free(r->words);
    sb_free(&r->text);
    free(r->state);
    free(g);
}

/* ------------------------------------------------------------ output */

static void emit(const gisa_gen *g, gen_run *r, const gisa_inst *inst)
{
    r->words[r->nwords++] = inst->word;
    if (!sb_reserve(&r->text, GEN_TEXT + 1)) {
        r->oom = -1;
        return;
    }
    char *at = r->text.s + r->text.len;
    gisa_print(g->t.isa, inst, at, GEN_TEXT);
    size_t n = strlen(at);
    at[n] = '\n';
    r->text.len += n + 1;
    r->text.s[r->text.len] = 0;
    gen_note_writes(&g->t, r, inst);
}

/* `.inst 0x...` of a word the decoder refuses, with the reason; the first
 * one's pc and reason into *pc, why */
static int emit_illegal(const gisa_gen *g, gen_run *r, size_t *pc, char *why, size_t cap)
{
    gisa_word w;
    char reason[GISA_INST_WHY + 1];
    if (gen_illegal(g, r, &w, reason, sizeof reason) < 0)
        return -1;
    if (*pc == (size_t)-1) {
        *pc = r->nwords;
        snprintf(why, cap, "%s", reason);
    }
    r->words[r->nwords++] = w;
    int digits = (int)gisa_isa_word_bits(g->t.isa) / 4;
    if (digits > 16)
        sb_printf(&r->text, ".inst 0x%0*llx%016llx // invalid: %s\n", digits - 16, (unsigned long long)w.w[1],
                  (unsigned long long)w.w[0], reason);
    else
        sb_printf(&r->text, ".inst 0x%0*llx // invalid: %s\n", digits, (unsigned long long)w.w[0], reason);
    if (r->text.failed)
        r->oom = -1;
    return 0;
}

static void reset(const gisa_gen *g, gen_run *r, uint64_t seed)
{
    gen_rng_seed(&r->rng, seed, 1);
    memset(&r->rgpr, 0, sizeof r->rgpr);
    memset(&r->rpred, 0, sizeof r->rpred);
    memset(&r->rur, 0, sizeof r->rur);
    memset(&r->rup, 0, sizeof r->rup);
    gen_rng base;
    gen_rng_seed(&base, seed, 3);
    r->base_value = (unsigned)gen_below(&base, g->o.regs < 8 ? g->o.regs : 8);
    r->nwords = 0;
    r->text.len = 0;
    r->oom = 0;
}

static gisa_status gen_generate_unguarded(gisa_gen *g, uint64_t seed, size_t count, gisa_diags *diags)
{
    if (!g)
        return GISA_ERR_USAGE;
    gen_run *r = &g->run;
    srcloc at = {"", 0, 0, 0, NULL, 0, NULL};
    if (count > GISA_GEN_MAX_COUNT) {
        diag_add(diags, GISA_ERROR, &at, "--count %zu: at most %u instructions", count, GISA_GEN_MAX_COUNT);
        return GISA_ERR_LIMIT;
    }
    if (gen_select_prepare(g, r))
        return GISA_ERR_NOMEM;
    if (r->total == 0) {
        diag_add(diags, GISA_ERROR, &at, "the options leave no instruction to generate (see --weights, --include, "
                 "--exclude)");
        return GISA_ERR_USAGE;
    }
    char why[400];
    if (gen_options_unsatisfiable(g, r, why, sizeof why)) {
        diag_add(diags, GISA_ERROR, &at, "%s", why);
        return GISA_ERR_USAGE;
    }
    int avail[GEN_MAX_STREAMS], navail = 0;
    for (int s = 0; s < gen_nstreams; s++)
        if ((!g->o.streams_given || g->o.stream_on[s]) && gen_stream_allowed(g, s))
            avail[navail++] = s;
    if (count + 1 > r->cap_words) {
        gisa_word *w = realloc(r->words, (count + 1) * sizeof *w);
        if (!w)
            return GISA_ERR_NOMEM;
        r->words = w;
        r->cap_words = count + 1;
    }
    reset(g, r, seed);
    long fails = 0;
    size_t fault_pc = (size_t)-1;
    char fault[GISA_INST_WHY + 1];
    gen_options_describe(&g->o, &g->t, seed, count, &r->text);
    size_t header_len = r->text.len;
    sb_putc(&r->text, '\n');
    if (r->text.failed)
        return GISA_ERR_NOMEM;
    while (r->nwords < count && !r->oom) {
        gisa_inst insts[GEN_STREAM_LINES];
        if (gen_chance(&r->rng, g->o.illegal) && emit_illegal(g, r, &fault_pc, fault, sizeof fault) == 0)
            continue;
        if (navail && gen_chance(&r->rng, g->o.stream)) {
            int s = avail[gen_below(&r->rng, (uint64_t)navail)];
            int n = gen_stream_emit(g, r, s, insts, (int)(count - r->nwords < GEN_STREAM_LINES ? count - r->nwords
                                                                                                : GEN_STREAM_LINES));
            for (int i = 0; i < n; i++)
                emit(g, r, &insts[i]);
            if (n)
                continue;
        }
        int t = gen_select_optype(g, r), opc;
        const gen_modsel *req = NULL;
        if (t < g->t.isa->noptypes) {
            opc = gen_select_opcode(g, r, t);
            req = g->o.nsel ? gen_requirement(g, r, opc) : NULL;
        } else { /* a NAME.VALUE=W entry: one of its opcodes, with its values */
            int i = t - g->t.isa->noptypes, *at = &r->sel_at[i];
            opc = r->sel_ops[at[0] + (int)gen_below(&r->rng, (uint64_t)(at[1] - at[0]))];
            req = &g->o.sel[i];
        }
        if (gen_pick(g, r, opc, req, &insts[0]) == 0) {
            emit(g, r, &insts[0]);
            fails = 0;
        } else if (req || g->o.nsel) { /* values asked for are rare: not the opcode's fault */
            if (++fails > 10000) {
                diag_add(diags, GISA_ERROR, &at, "no instruction with the modifier values the options ask for "
                         "could be generated");
                return GISA_ERR_INPUT;
            }
        } else { /* never again (no shipped opcode comes here) */
            g->t.ops[opc].usable = 0;
            if (gen_select_prepare(g, r))
                return GISA_ERR_NOMEM;
            if (r->total == 0) {
                diag_add(diags, GISA_ERROR, &at, "no instruction the options allow could be generated");
                return GISA_ERR_INPUT;
            }
        }
    }
    if (fault_pc != (size_t)-1 && !r->oom) { /* the fault a run will stop at, after the header line */
        char line[GISA_INST_WHY + 96];
        int n = snprintf(line, sizeof line, "// expected fault: pc %zu (byte 0x%zx): %s\n", fault_pc,
                         fault_pc * (gisa_isa_word_bits(g->t.isa) / 8), fault);
        size_t at_line = header_len + 1, len = (size_t)n;
        if (!sb_reserve(&r->text, len + 1))
            return GISA_ERR_NOMEM;
        memmove(r->text.s + at_line + len, r->text.s + at_line, r->text.len - at_line + 1);
        memcpy(r->text.s + at_line, line, len);
        r->text.len += len;
    }
    if (r->oom || gen_state_build(g, r, seed))
        return GISA_ERR_NOMEM;
    return GISA_OK;
}

gisa_status gisa_gen_generate(gisa_gen *g, uint64_t seed, size_t count, gisa_diags *diags)
{
    FPENV_RETURN(gisa_status, gen_generate_unguarded(g, seed, count, diags));
}

gisa_status gisa_gen_words(const gisa_gen *g, const gisa_word **words, size_t *n)
{
    if (!g || !words || !n)
        return GISA_ERR_USAGE;
    const gen_run *r = &g->run;
    *words = r->words;
    *n = r->words ? r->nwords : 0;
    return GISA_OK;
}

gisa_status gisa_gen_text(const gisa_gen *g, const char **text, size_t *len)
{
    if (!g || !text || !len)
        return GISA_ERR_USAGE;
    const gen_run *r = &g->run;
    *text = r->text.s ? r->text.s : "";
    *len = r->text.s ? r->text.len : 0;
    return GISA_OK;
}

gisa_status gisa_gen_state(const gisa_gen *g, const char **state, size_t *len)
{
    if (!g || !state || !len)
        return GISA_ERR_USAGE;
    const gen_run *r = &g->run;
    *state = r->state ? r->state : "";
    *len = r->state ? r->state_len : 0;
    return GISA_OK;
}

unsigned gisa_gen_regs(const gisa_gen *g) { return g ? g->o.regs : 0; }

static char *gen_names(const gisa_gen *g)
{
    const gisa_isa *isa = g->t.isa;
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "Families and their optypes (--weights, --include, --exclude; those two also take opcodes):\n");
    for (int f = 0; f < g->t.nfamilies; f++) {
        sb_printf(&b, "  %-6s", g->t.families[f]);
        for (int t = 0; t < isa->noptypes; t++)
            if (g->t.types[t].family == f)
                sb_printf(&b, " %s", isa->optypes[t].name);
        sb_putc(&b, '\n');
    }
    sb_puts(&b, "Directed streams (--streams):\n");
    for (int s = 0; s < gen_nstreams; s++) {
        sb_printf(&b, "  %-8s %s", gen_stream_defs[s].name, g->t.stream_ok[s] ? "" : "(not on this target) ");
        for (const char *p = gen_stream_defs[s].lines; *p; p++) /* the template, one line */
            if (*p == '\n')
                sb_puts(&b, " ; ");
            else
                sb_putc(&b, *p);
        sb_putc(&b, '\n');
    }
    return b.failed ? (sb_free(&b), NULL) : sb_take(&b);
}

gisa_status gisa_gen_names(const gisa_gen *g, char **out)
{
    if (!g || !out)
        return GISA_ERR_USAGE;
    *out = gen_names(g);
    return *out ? GISA_OK : GISA_ERR_NOMEM;
}
