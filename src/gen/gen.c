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

gisa_status gisa_gen_new(const gisa_isa *isa, gisa_gen **out)
{
    if (!isa || !out)
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_gen *g = calloc(1, sizeof *g);
    if (!g)
        return GISA_ERR_NOMEM;
    g->isa = isa;
    g->scratch = diags_alloc();
    if (!g->scratch || gen_model_init(g) || gen_options_init(g)) {
        gisa_gen_free(g);
        return GISA_ERR_NOMEM;
    }
    gen_model_probe(g);
    gen_stream_probe(g);
    *out = g;
    return GISA_OK;
}

void gisa_gen_free(gisa_gen *g)
{
    if (!g)
        return;
    gen_options_free(&g->o);
    gen_model_free(g);
    gisa_diags_free(g->scratch);
    free(g->cum);
    free(g->cls_ops);
    free(g->cls_at);
    free(g->sel_ops);
    free(g->sel_at);
    free(g->words);
    sb_free(&g->text);
    free(g->state);
    free(g);
}

/* ------------------------------------------------------------ choosing */

/* Cumulative optype weights and, per optype, its allowed opcodes by class. */
static int prepare(gisa_gen *g)
{
    const gisa_isa *isa = g->isa;
    int nsel = g->o.nsel;
    free(g->cum);
    free(g->cls_ops);
    free(g->cls_at);
    free(g->sel_ops);
    free(g->sel_at);
    g->cum = malloc((size_t)(isa->noptypes + nsel + 1) * sizeof *g->cum);
    g->cls_ops = malloc((size_t)(isa->nopcodes + 1) * sizeof *g->cls_ops);
    g->cls_at = malloc((size_t)(isa->noptypes + 1) * (CLS_COUNT + 1) * sizeof *g->cls_at);
    g->sel_ops = malloc(((size_t)nsel * (size_t)isa->nopcodes + 1) * sizeof *g->sel_ops);
    g->sel_at = malloc((size_t)(nsel + 1) * sizeof *g->sel_at);
    if (!g->cum || !g->cls_ops || !g->cls_at || !g->sel_ops || !g->sel_at)
        return -1;
    uint64_t total = 0;
    int n = 0;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        g->cum[t] = total += gen_optype_weight(g, t);
        for (int c = 0; c < CLS_COUNT; c++) {
            g->cls_at[t * (CLS_COUNT + 1) + c] = n;
            for (int k = 0; k < ot->nopcodes; k++)
                if (g->ops[ot->opcodes[k]].cls == c && gen_opcode_allowed(g, ot->opcodes[k]))
                    g->cls_ops[n++] = ot->opcodes[k];
        }
        g->cls_at[t * (CLS_COUNT + 1) + CLS_COUNT] = n;
    }
    /* after the optypes, the NAME.VALUE=W entries of --weights: the allowed
     * opcodes each covers */
    n = 0;
    for (int i = 0; i < nsel; i++) {
        const gen_modsel *s = &g->o.sel[i];
        g->sel_at[i] = n;
        for (int k = 0; s->weight > 0 && k < isa->nopcodes; k++)
            if (gen_opcode_allowed(g, k) && gen_sel_covers(g, s, k))
                g->sel_ops[n++] = k;
        g->cum[isa->noptypes + i] = total += n > g->sel_at[i] ? (uint64_t)s->weight : 0;
    }
    g->sel_at[nsel] = n;
    g->total = total;
    return 0;
}

static int pick_optype(gisa_gen *g)
{
    uint64_t x = gen_below(&g->rng, g->total);
    int lo = 0, hi = g->isa->noptypes + g->o.nsel - 1;
    while (lo < hi) { /* the first optype whose cumulative weight exceeds x */
        int mid = (lo + hi) / 2;
        if (g->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* An opcode of optype t: a class by the rates among the classes it has
 * (registers-only takes what the other rates leave), then one of them. */
static int pick_opcode(gisa_gen *g, int t)
{
    const int *at = &g->cls_at[t * (CLS_COUNT + 1)];
    uint64_t w[CLS_COUNT] = {0}, total = 0;
    uint32_t rate[CLS_COUNT] = {0, g->o.imm, g->o.ureg, g->o.cbank};
    uint64_t others = 0;
    for (int c = 1; c < CLS_COUNT; c++)
        if (at[c + 1] > at[c])
            others += rate[c];
    rate[CLS_R] = others < GEN_PPM ? (uint32_t)(GEN_PPM - others) : 0;
    for (int c = 0; c < CLS_COUNT; c++)
        total += w[c] = at[c + 1] > at[c] ? rate[c] : 0;
    int cls = 0;
    if (total == 0) { /* every rate of the classes it has is 0: any of them */
        for (int c = 0; c < CLS_COUNT; c++)
            total += w[c] = at[c + 1] > at[c];
    }
    uint64_t x = gen_below(&g->rng, total);
    while (x >= w[cls])
        x -= w[cls++];
    return g->cls_ops[at[cls] + (int)gen_below(&g->rng, (uint64_t)(at[cls + 1] - at[cls]))];
}

/* ------------------------------------------------------------ output */

static void emit(gisa_gen *g, const gisa_inst *inst)
{
    g->words[g->nwords++] = inst->word;
    if (!sb_reserve(&g->text, GEN_TEXT + 1)) {
        g->oom = -1;
        return;
    }
    char *at = g->text.s + g->text.len;
    gisa_print(g->isa, inst, at, GEN_TEXT);
    size_t n = strlen(at);
    at[n] = '\n';
    g->text.len += n + 1;
    g->text.s[g->text.len] = 0;
    gen_note_writes(g, inst);
}

/* `.inst 0x...` of a word the decoder refuses, with the reason; the first
 * one's pc and reason into *pc, why */
static int emit_illegal(gisa_gen *g, size_t *pc, char *why, size_t cap)
{
    gisa_word w;
    char reason[GISA_INST_WHY + 1];
    if (gen_illegal(g, &w, reason, sizeof reason) < 0)
        return -1;
    if (*pc == (size_t)-1) {
        *pc = g->nwords;
        snprintf(why, cap, "%s", reason);
    }
    g->words[g->nwords++] = w;
    int digits = (int)gisa_isa_word_bits(g->isa) / 4;
    if (digits > 16)
        sb_printf(&g->text, ".inst 0x%0*llx%016llx // invalid: %s\n", digits - 16, (unsigned long long)w.w[1],
                  (unsigned long long)w.w[0], reason);
    else
        sb_printf(&g->text, ".inst 0x%0*llx // invalid: %s\n", digits, (unsigned long long)w.w[0], reason);
    if (g->text.failed)
        g->oom = -1;
    return 0;
}

static void reset(gisa_gen *g, uint64_t seed)
{
    gen_rng_seed(&g->rng, seed, 1);
    memset(&g->rgpr, 0, sizeof g->rgpr);
    memset(&g->rpred, 0, sizeof g->rpred);
    memset(&g->rur, 0, sizeof g->rur);
    memset(&g->rup, 0, sizeof g->rup);
    gen_rng base;
    gen_rng_seed(&base, seed, 3);
    g->base_value = (unsigned)gen_below(&base, g->o.regs < 8 ? g->o.regs : 8);
    g->nwords = 0;
    g->text.len = 0;
    g->oom = 0;
}

static gisa_status gen_generate_unguarded(gisa_gen *g, uint64_t seed, size_t count, gisa_diags *diags)
{
    if (!g)
        return GISA_ERR_USAGE;
    srcloc at = {"", 0, 0, 0, NULL, 0, NULL};
    if (count > GISA_GEN_MAX_COUNT) {
        diag_add(diags, GISA_ERROR, &at, "--count %zu: at most %u instructions", count, GISA_GEN_MAX_COUNT);
        return GISA_ERR_LIMIT;
    }
    if (prepare(g))
        return GISA_ERR_NOMEM;
    if (g->total == 0) {
        diag_add(diags, GISA_ERROR, &at, "the options leave no instruction to generate (see --weights, --include, "
                 "--exclude)");
        return GISA_ERR_USAGE;
    }
    char why[400];
    if (gen_options_unsatisfiable(g, why, sizeof why)) {
        diag_add(diags, GISA_ERROR, &at, "%s", why);
        return GISA_ERR_USAGE;
    }
    int avail[GEN_MAX_STREAMS], navail = 0;
    for (int s = 0; s < gen_nstreams; s++)
        if ((!g->o.streams_given || g->o.stream_on[s]) && gen_stream_allowed(g, s))
            avail[navail++] = s;
    if (count + 1 > g->cap_words) {
        gisa_word *w = realloc(g->words, (count + 1) * sizeof *w);
        if (!w)
            return GISA_ERR_NOMEM;
        g->words = w;
        g->cap_words = count + 1;
    }
    reset(g, seed);
    long fails = 0;
    size_t fault_pc = (size_t)-1;
    char fault[GISA_INST_WHY + 1];
    char header[1024];
    gen_options_describe(g, seed, count, header, sizeof header);
    sb_putn(&g->text, header, strlen(header));
    sb_putc(&g->text, '\n');
    if (g->text.failed)
        return GISA_ERR_NOMEM;
    while (g->nwords < count && !g->oom) {
        gisa_inst insts[GEN_STREAM_LINES];
        if (gen_chance(&g->rng, g->o.illegal) && emit_illegal(g, &fault_pc, fault, sizeof fault) == 0)
            continue;
        if (navail && gen_chance(&g->rng, g->o.stream)) {
            int s = avail[gen_below(&g->rng, (uint64_t)navail)];
            int n = gen_stream_emit(g, s, insts, (int)(count - g->nwords < GEN_STREAM_LINES ? count - g->nwords
                                                                                                : GEN_STREAM_LINES));
            for (int i = 0; i < n; i++)
                emit(g, &insts[i]);
            if (n)
                continue;
        }
        int t = pick_optype(g), opc;
        const gen_modsel *req = NULL;
        if (t < g->isa->noptypes) {
            opc = pick_opcode(g, t);
            req = g->o.nsel ? gen_requirement(g, opc) : NULL;
        } else { /* a NAME.VALUE=W entry: one of its opcodes, with its values */
            int i = t - g->isa->noptypes, *at = &g->sel_at[i];
            opc = g->sel_ops[at[0] + (int)gen_below(&g->rng, (uint64_t)(at[1] - at[0]))];
            req = &g->o.sel[i];
        }
        if (gen_pick(g, opc, req, &insts[0]) == 0) {
            emit(g, &insts[0]);
            fails = 0;
        } else if (req || g->o.nsel) { /* values asked for are rare: not the opcode's fault */
            if (++fails > 10000) {
                diag_add(diags, GISA_ERROR, &at, "no instruction with the modifier values the options ask for "
                         "could be generated");
                return GISA_ERR_INPUT;
            }
        } else { /* never again (no shipped opcode comes here) */
            g->ops[opc].usable = 0;
            if (prepare(g))
                return GISA_ERR_NOMEM;
            if (g->total == 0) {
                diag_add(diags, GISA_ERROR, &at, "no instruction the options allow could be generated");
                return GISA_ERR_INPUT;
            }
        }
    }
    if (fault_pc != (size_t)-1 && !g->oom) { /* the fault a run will stop at, after the header line */
        char line[GISA_INST_WHY + 96];
        int n = snprintf(line, sizeof line, "// expected fault: pc %zu (byte 0x%zx): %s\n", fault_pc,
                         fault_pc * (gisa_isa_word_bits(g->isa) / 8), fault);
        size_t at_line = strlen(header) + 1, len = (size_t)n;
        if (!sb_reserve(&g->text, len + 1))
            return GISA_ERR_NOMEM;
        memmove(g->text.s + at_line + len, g->text.s + at_line, g->text.len - at_line + 1);
        memcpy(g->text.s + at_line, line, len);
        g->text.len += len;
    }
    if (g->oom || gen_state_build(g, seed))
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
    *words = g->words;
    *n = g->words ? g->nwords : 0;
    return GISA_OK;
}

gisa_status gisa_gen_text(const gisa_gen *g, const char **text, size_t *len)
{
    if (!g || !text || !len)
        return GISA_ERR_USAGE;
    *text = g->text.s ? g->text.s : "";
    *len = g->text.s ? g->text.len : 0;
    return GISA_OK;
}

gisa_status gisa_gen_state(const gisa_gen *g, const char **state, size_t *len)
{
    if (!g || !state || !len)
        return GISA_ERR_USAGE;
    *state = g->state ? g->state : "";
    *len = g->state ? g->state_len : 0;
    return GISA_OK;
}

unsigned gisa_gen_regs(const gisa_gen *g) { return g ? g->o.regs : 0; }

static char *gen_names(const gisa_gen *g)
{
    const gisa_isa *isa = g->isa;
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "Families and their optypes (--weights, --include, --exclude; those two also take opcodes):\n");
    for (int f = 0; f < g->nfamilies; f++) {
        sb_printf(&b, "  %-6s", g->families[f]);
        for (int t = 0; t < isa->noptypes; t++)
            if (g->types[t].family == f)
                sb_printf(&b, " %s", isa->optypes[t].name);
        sb_putc(&b, '\n');
    }
    sb_puts(&b, "Directed streams (--streams):\n");
    for (int s = 0; s < gen_nstreams; s++) {
        sb_printf(&b, "  %-8s %s", gen_stream_defs[s].name, g->stream_ok[s] ? "" : "(not on this target) ");
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
