/* What the options allow of the model, and the draw by weight: an opcode
 * is plain when --include/--exclude let it in with any modifier values,
 * allowed when some --include NAME.VALUE entry lets it in with those
 * values; an optype's weight is its own, else its family's, else 1, and 0
 * when it has no allowed opcode. The draw first takes an optype (or a
 * NAME.VALUE=W entry of --weights) by weight, then an opcode of it by the
 * operand-kind rates. And the check that the options ask for something
 * they can give: an error rather than a program without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/gen.h"

/* ------------------------------------------------------------ allowed */

int gen_opcode_allowed(const gisa_gen *g, int opcode)
{
    if (gen_opcode_plain(g, opcode))
        return 1;
    const gen_options *o = &g->o;
    const isa_opcode *op = &g->t.isa->opcodes[opcode];
    int t = (int)(op->optype - g->t.isa->optypes), f = g->t.types[t].family;
    if (o->exc[NAME_OPCODE][opcode] || o->exc[NAME_OPTYPE][t] || o->exc[NAME_FAMILY][f] || !g->t.ops[opcode].usable)
        return 0;
    for (int i = 0; i < o->nsel; i++)
        if (o->sel[i].weight < 0 && gen_sel_covers(&g->t, &o->sel[i], opcode))
            return 1;
    return 0;
}

int gen_opcode_plain(const gisa_gen *g, int opcode)
{
    const gen_options *o = &g->o;
    const isa_opcode *op = &g->t.isa->opcodes[opcode];
    int t = (int)(op->optype - g->t.isa->optypes), f = g->t.types[t].family;
    if (o->exc[NAME_OPCODE][opcode] || o->exc[NAME_OPTYPE][t] || o->exc[NAME_FAMILY][f])
        return 0;
    if (o->ninclude && !o->inc[NAME_OPCODE][opcode] && !o->inc[NAME_OPTYPE][t] && !o->inc[NAME_FAMILY][f])
        return 0;
    return g->t.ops[opcode].usable;
}

uint64_t gen_optype_weight(const gisa_gen *g, int optype)
{
    const gen_options *o = &g->o;
    const isa_optype *ot = &g->t.isa->optypes[optype];
    int any = 0;
    for (int k = 0; k < ot->nopcodes && !any; k++)
        any = gen_opcode_allowed(g, ot->opcodes[k]);
    if (!any)
        return 0;
    int64_t w = o->w_optype[optype];
    if (w < 0)
        w = o->w_family[g->t.types[optype].family];
    return w < 0 ? 1 : (uint64_t)w;
}

int gen_stream_allowed(const gisa_gen *g, int s)
{
    if (!g->t.stream_ok[s])
        return 0;
    for (int i = 0; i < GEN_STREAM_LINES && g->t.stream_ops[s][i] >= 0; i++) {
        int opc = g->t.stream_ops[s][i];
        if (!gen_opcode_plain(g, opc) || !gen_optype_weight(g, (int)(g->t.isa->opcodes[opc].optype - g->t.isa->optypes)))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ modifier values */

static int modifier_present(const gisa_gen *g, const gisa_inst *inst, const char *spell)
{
    size_t n = gisa_inst_modifier_count(g->t.isa, inst);
    for (size_t k = 0; k < n; k++) {
        gisa_modifier m;
        if (gisa_inst_modifier(g->t.isa, inst, k, &m) == GISA_OK && m.value && !strcasecmp(m.value, spell))
            return 1;
    }
    return 0;
}

static int modifiers_present(const gisa_gen *g, const gisa_inst *inst, const gen_modsel *s)
{
    for (int i = 0; i < s->nmods; i++)
        if (!modifier_present(g, inst, s->mods[i]))
            return 0;
    return 1;
}

int gen_mods_ok(const gisa_gen *g, const gisa_inst *inst, const gen_modsel *req)
{
    if (req && !modifiers_present(g, inst, req))
        return 0;
    for (int i = 0; i < g->o.nsel; i++) {
        const gen_modsel *s = &g->o.sel[i];
        if (s->weight == 0 && gen_in_scope(&g->t, s->level, s->idx, inst->opcode) && modifiers_present(g, inst, s))
            return 0;
    }
    return 1;
}

const gen_modsel *gen_requirement(const gisa_gen *g, gen_run *r, int opcode)
{
    if (gen_opcode_plain(g, opcode))
        return NULL;
    int n = 0;
    for (int i = 0; i < g->o.nsel; i++)
        n += g->o.sel[i].weight < 0 && gen_sel_covers(&g->t, &g->o.sel[i], opcode);
    int k = n > 1 ? (int)gen_below(&r->rng, (uint64_t)n) : 0;
    for (int i = 0; i < g->o.nsel; i++)
        if (g->o.sel[i].weight < 0 && gen_sel_covers(&g->t, &g->o.sel[i], opcode) && k-- == 0)
            return &g->o.sel[i];
    return NULL;
}

/* ------------------------------------------------------------ the draw */

/* Cumulative optype weights and, per optype, its allowed opcodes by class. */
int gen_select_prepare(const gisa_gen *g, gen_run *r)
{
    const gisa_isa *isa = g->t.isa;
    int nsel = g->o.nsel;
    free(r->cum);
    free(r->cls_ops);
    free(r->cls_at);
    free(r->sel_ops);
    free(r->sel_at);
    r->cum = malloc((size_t)(isa->noptypes + nsel + 1) * sizeof *r->cum);
    r->cls_ops = malloc((size_t)(isa->nopcodes + 1) * sizeof *r->cls_ops);
    r->cls_at = malloc((size_t)(isa->noptypes + 1) * (CLS_COUNT + 1) * sizeof *r->cls_at);
    r->sel_ops = malloc(((size_t)nsel * (size_t)isa->nopcodes + 1) * sizeof *r->sel_ops);
    r->sel_at = malloc((size_t)(nsel + 1) * sizeof *r->sel_at);
    if (!r->cum || !r->cls_ops || !r->cls_at || !r->sel_ops || !r->sel_at)
        return -1;
    uint64_t total = 0;
    int n = 0;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        r->cum[t] = total += gen_optype_weight(g, t);
        for (int c = 0; c < CLS_COUNT; c++) {
            r->cls_at[t * (CLS_COUNT + 1) + c] = n;
            for (int k = 0; k < ot->nopcodes; k++)
                if (g->t.ops[ot->opcodes[k]].cls == c && gen_opcode_allowed(g, ot->opcodes[k]))
                    r->cls_ops[n++] = ot->opcodes[k];
        }
        r->cls_at[t * (CLS_COUNT + 1) + CLS_COUNT] = n;
    }
    /* after the optypes, the NAME.VALUE=W entries of --weights: the allowed
     * opcodes each covers */
    n = 0;
    for (int i = 0; i < nsel; i++) {
        const gen_modsel *s = &g->o.sel[i];
        r->sel_at[i] = n;
        for (int k = 0; s->weight > 0 && k < isa->nopcodes; k++)
            if (gen_opcode_allowed(g, k) && gen_sel_covers(&g->t, s, k))
                r->sel_ops[n++] = k;
        r->cum[isa->noptypes + i] = total += n > r->sel_at[i] ? (uint64_t)s->weight : 0;
    }
    r->sel_at[nsel] = n;
    r->total = total;
    return 0;
}

int gen_select_optype(const gisa_gen *g, gen_run *r)
{
    uint64_t x = gen_below(&r->rng, r->total);
    int lo = 0, hi = g->t.isa->noptypes + g->o.nsel - 1;
    while (lo < hi) { /* the first optype whose cumulative weight exceeds x */
        int mid = (lo + hi) / 2;
        if (r->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* An opcode of optype t: a class by the rates among the classes it has
 * (registers-only takes what the other rates leave), then one of them. */
int gen_select_opcode(const gisa_gen *g, gen_run *r, int t)
{
    const int *at = &r->cls_at[t * (CLS_COUNT + 1)];
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
    uint64_t x = gen_below(&r->rng, total);
    while (x >= w[cls])
        x -= w[cls++];
    return r->cls_ops[at[cls] + (int)gen_below(&r->rng, (uint64_t)(at[cls + 1] - at[cls]))];
}

/* ------------------------------------------------------------ what was asked */

/* Some opcode in the scope of (lv, idx), or covered by s, is allowed (a
 * weight of 0 may still turn an included name off: that is asked) */
static int emits_some(const gisa_gen *g, name_level lv, int idx, const gen_modsel *s)
{
    for (int o = 0; o < g->t.isa->nopcodes; o++)
        if ((s ? gen_sel_covers(&g->t, s, o) : gen_in_scope(&g->t, lv, idx, o)) && gen_opcode_allowed(g, o))
            return 1;
    return 0;
}

static const char *level_name(const gisa_gen *g, name_level lv, int idx)
{
    return lv == NAME_FAMILY ? g->t.families[idx] : lv == NAME_OPTYPE ? g->t.isa->optypes[idx].name
                                                                    : g->t.isa->opcodes[idx].name;
}

static void put_sel(const gisa_gen *g, const gen_modsel *s, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "%s", level_name(g, s->level, s->idx));
    for (int i = 0; i < s->nmods && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, ".%s", s->mods[i]);
}

/* The options ask for something no program of theirs can have: an
 * --include name all of whose instructions are excluded or of weight 0, a
 * NAME.VALUE=W that no allowed instruction matches, a named stream whose
 * instructions are not allowed (or --stream-rate 0), a --stream-rate with
 * no stream to emit, integer immediate classes (--int-values imm:) for
 * instructions that have none. Called after gen_select_prepare. */
const char *gen_options_unsatisfiable(const gisa_gen *g, const gen_run *r, char *buf, size_t cap)
{
    const gen_options *o = &g->o;
    const gisa_isa *isa = g->t.isa;
    int sizes[3] = {g->t.nfamilies, isa->noptypes, isa->nopcodes};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < sizes[l]; i++)
            if (o->inc[l][i] && !emits_some(g, (name_level)l, i, NULL)) {
                snprintf(buf, cap, "--include %s: all its instructions are excluded (see --exclude)", level_name(g, (name_level)l, i));
                return buf;
            }
    char name[128];
    for (int i = 0; i < o->nsel; i++) {
        const gen_modsel *s = &o->sel[i];
        if (s->weight < 0 && !emits_some(g, s->level, s->idx, s)) {
            put_sel(g, s, name, sizeof name);
            snprintf(buf, cap, "--include %s: all its instructions are excluded (see --exclude)", name);
            return buf;
        }
        if (s->weight > 0 && r->sel_at[i + 1] == r->sel_at[i]) {
            put_sel(g, s, name, sizeof name);
            snprintf(buf, cap, "--weights %s=%lld: no instruction the other options allow has these values", name,
                     (long long)s->weight);
            return buf;
        }
    }
    if (o->values_given[VS_IMM]) {
        int any = 0;
        for (int k = 0; k < isa->nopcodes && !any; k++)
            any = g->t.ops[k].int_imm && gen_opcode_allowed(g, k);
        if (!any) {
            snprintf(buf, cap, "--int-values imm:...: no instruction the options allow has an integer immediate");
            return buf;
        }
    }
    int avail = 0, target_has = 0;
    for (int s = 0; s < gen_nstreams; s++) {
        target_has |= g->t.stream_ok[s];
        int asked = o->streams_given && o->stream_on[s];
        if (gen_stream_allowed(g, s))
            avail += !o->streams_given || o->stream_on[s];
        else if (asked) {
            const char *why = "";
            for (int i = 0; i < GEN_STREAM_LINES && g->t.stream_ops[s][i] >= 0 && !*why; i++) {
                int opc = g->t.stream_ops[s][i];
                if (!gen_opcode_plain(g, opc) || !gen_optype_weight(g, (int)(isa->opcodes[opc].optype - isa->optypes)))
                    why = isa->opcodes[opc].optype->name;
            }
            snprintf(buf, cap, "--streams %s: it uses %s, which --include, --exclude or --weights leave out (or allow "
                     "only with modifier values)", gen_stream_defs[s].name, why);
            return buf;
        }
        if (asked && o->stream == 0) {
            snprintf(buf, cap, "--streams %s with --stream-rate 0: no stream would be emitted", gen_stream_defs[s].name);
            return buf;
        }
    }
    if (!avail && target_has && o->stream > 0 && o->stream_rate_given) { /* a target without streams: the rate is moot */
        snprintf(buf, cap, "--stream-rate: no directed stream is left to emit (%s)",
                 o->streams_given ? "--streams none" : "--include, --exclude or --weights leave out their instructions");
        return buf;
    }
    return NULL;
}
