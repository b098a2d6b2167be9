/* The bins beyond the universe's items (docs/coverage.md, "Value, result
 * and pattern bins"): integer value classes of sources, result classes and
 * predicate outcomes of destinations, guard and exec-mask patterns,
 * read-after-write distances, and the crosses. Each is derived from what
 * universe.c found in the model (operand kinds, formats, modifier groups
 * and the combinations that encode): no opcode is named here. */
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "cov/cov.h"

const char *const cov_int_names[I_COUNT] = {"0", "1", "-1", "MIN", "MAX", "2^n", "small", "other"};
const char *const cov_raw_names[R_COUNT] = {"1", "2", "3-4", "5-8", ">8", "none"};
static const char *const guard_names[] = {"true", "false", "mixed"};
static const char *const exec_names[] = {"all", "none", "partial", "single"};
static const char *const outcome_names[] = {"false", "true"};

int cov_int_class(uint64_t v, int bits)
{
    uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1, sign = UINT64_C(1) << (bits - 1);
    v &= mask;
    if (!v)
        return I_ZERO;
    if (v == 1)
        return I_ONE;
    if (v == mask)
        return I_MONE;
    if (v == sign)
        return I_MIN;
    if (v == sign - 1)
        return I_MAX;
    if (!(v & (v - 1)))
        return I_POW2;
    if (v < COV_SMALL || v > mask - COV_SMALL + 1)
        return I_SMALL;
    return I_OTHER;
}

gisa_cov_figure cov_bins_figure(const cov_bins *b)
{
    gisa_cov_figure f = {0, 0};
    for (int i = 0; i < b->nbins; i++) {
        f.hit += b->hits[i] != 0;
        f.total += b->hits[i] || b->possible[i];
    }
    return f;
}

/* ------------------------------------------------------------ building */

typedef struct bbuild {
    gisa_cov *c;
    int failed;
} bbuild;

static const char *bname(bbuild *b, const char *a, const char *sep, const char *z)
{
    strbuf s;
    sb_init(&s);
    sb_printf(&s, "%s%s%s", a, sep, z);
    const char *r = s.failed ? NULL : arena_strdup(&b->c->a, s.s);
    sb_free(&s);
    if (!r)
        b->failed = 1;
    return r ? r : "";
}

/* A new group of n bins named names[] (or left for the caller), none possible yet. */
static int new_bins(bbuild *b, cov_optype *t, const char *name, int kind, int n, const char *const *names, int possible)
{
    cov_bins *grown = arena_append(&b->c->a, t->bins, (size_t)t->nbins, sizeof *t->bins);
    if (!grown) {
        b->failed = 1;
        return -1;
    }
    t->bins = grown;
    cov_bins *g = &t->bins[t->nbins];
    g->name = name;
    g->kind = kind;
    g->nbins = n;
    g->names = arena_alloc(&b->c->a, sizeof *g->names * (size_t)(n ? n : 1));
    g->possible = arena_alloc(&b->c->a, (size_t)(n ? n : 1));
    g->hits = arena_alloc(&b->c->a, sizeof *g->hits * (size_t)(n ? n : 1));
    if (!g->names || !g->possible || !g->hits) {
        b->failed = 1;
        return -1;
    }
    for (int i = 0; i < n && names; i++)
        g->names[i] = names[i];
    memset(g->possible, possible, (size_t)n);
    return t->nbins++;
}

/* A cross of two name lists: "a x b" names, none possible */
static int cross_bins(bbuild *b, cov_optype *t, const char *name, const char *const *an, int na,
                      const char *const *bn, int nb)
{
    int i = new_bins(b, t, name, B_CROSS, na * nb, NULL, 0);
    for (int x = 0; i >= 0 && x < na && !b->failed; x++)
        for (int y = 0; y < nb; y++)
            t->bins[i].names[x * nb + y] = bname(b, an[x], " x ", bn[y]);
    return i;
}

static int dest_of(bbuild *b, cov_optype *t, const char *name, int pred)
{
    int i;
    for (i = 0; i < t->ndests && strcmp(t->dests[i].name, name); i++)
        ;
    if (i < t->ndests)
        return i;
    cov_dest *grown = arena_append(&b->c->a, t->dests, (size_t)t->ndests, sizeof *t->dests);
    if (!grown) {
        b->failed = 1;
        return -1;
    }
    t->dests = grown;
    cov_dest *d = &t->dests[t->ndests];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->pred = pred;
    for (int f = 0; f <= F_COUNT; f++)
        d->result[f] = -1;
    return t->ndests++;
}

/* The format a register destination's result is classed in (F_COUNT: integer) */
static int dest_format(const cov_optype *t, const cov_opcode *oc, const gisa_operand *go, const uint64_t *field)
{
    if (!t->fp)
        return F_COUNT;
    if (t->fp - 1 == F_F16)
        return oc->bf16_field >= 0 && field[oc->bf16_field] == oc->bf16_value ? F_BF16 : F_F16;
    return go->pair ? F_F64 : F_F32;
}

static int result_bins(bbuild *b, cov_optype *t, int d, int fmt)
{
    cov_dest *D = &t->dests[d];
    if (D->result[fmt] >= 0)
        return D->result[fmt];
    const char *name = bname(b, D->name, " ", fmt == F_COUNT ? "result" : fmt == F_F32 ? "F32 result"
                                                                 : fmt == F_F64 ? "F64 result"
                                                                 : fmt == F_F16 ? "F16 result"
                                                                                : "BF16 result");
    int i = fmt == F_COUNT ? new_bins(b, t, name, B_RESULT, I_COUNT, cov_int_names, 1)
                           : new_bins(b, t, name, B_RESULT, C_COUNT, cov_class_names, 1);
    t->dests[d].result[fmt] = i;
    return i;
}

/* The destinations of every form, from each form's fields as the form
 * leaves them and, for a half-precision optype, with the BF16 field set. */
static void find_dests(bbuild *b, cov_optype *t, int ti)
{
    const gisa_isa *isa = b->c->isa;
    for (int opc = 0; opc < b->c->nopcodes && !b->failed; opc++) {
        cov_opcode *oc = &b->c->opcodes[opc];
        const isa_opcode *op = &isa->opcodes[opc];
        if (oc->optype != ti)
            continue;
        for (int f = 0; f < op->nforms && !b->failed; f++) {
            const syntax_form *F = &op->forms[f];
            cov_form *cf = &oc->forms[f];
            cf->dest = arena_alloc(&b->c->a, sizeof *cf->dest * (size_t)(F->nops ? F->nops : 1));
            if (!cf->dest) {
                b->failed = 1;
                return;
            }
            gisa_inst inst;
            memset(&inst, 0, sizeof inst);
            inst.opcode = opc;
            inst.form = f;
            memcpy(inst.field, F->base, sizeof *inst.field * (size_t)op->nfields);
            for (int k = 0; k < F->nops; k++) {
                gisa_operand go;
                gisa_inst_operand(isa, &inst, (size_t)k, &go);
                cf->dest[k] = -1;
                int reg = go.kind == GISA_OPND_REG || go.kind == GISA_OPND_PAIR || go.kind == GISA_OPND_UREG ||
                          go.kind == GISA_OPND_UPAIR;
                int pred = go.kind == GISA_OPND_PRED || go.kind == GISA_OPND_UPRED;
                if (!go.written || (!reg && !pred))
                    continue;
                int d = cf->dest[k] = dest_of(b, t, F->ops[k].name, pred);
                if (d < 0)
                    return;
                if (pred) {
                    if (t->dests[d].result[0] < 0)
                        t->dests[d].result[0] =
                            new_bins(b, t, bname(b, t->dests[d].name, " ", "outcome"), B_RESULT, 2, outcome_names, 1);
                    continue;
                }
                result_bins(b, t, d, dest_format(t, oc, &go, inst.field));
                if (oc->bf16_field >= 0) {
                    inst.field[oc->bf16_field] = oc->bf16_value;
                    result_bins(b, t, d, dest_format(t, oc, &go, inst.field));
                    inst.field[oc->bf16_field] = F->base[oc->bf16_field];
                }
            }
        }
    }
}

/* Whether group g is a mnemonic modifier (in combinations) of some form */
static int mnemonic_group(const gisa_cov *c, int ti, int g)
{
    for (int opc = 0; opc < c->nopcodes; opc++) {
        if (c->opcodes[opc].optype != ti)
            continue;
        const isa_opcode *op = &c->isa->opcodes[opc];
        for (int f = 0; f < op->nforms; f++)
            for (int j = 0; j < op->forms[f].nmods; j++)
                if (c->opcodes[opc].forms[f].slots[j].group == g && op->forms[f].mods[j].operand < 0)
                    return 1;
    }
    return 0;
}

/* Modifier x modifier: per pair of groups that some form has together, the
 * value pairs of the combinations that encode (both in combinations), else
 * every pair of the two slots' values. */
static void modmod(bbuild *b, cov_optype *t, int ti)
{
    int ng = t->ngroups;
    t->modmod = arena_alloc(&b->c->a, sizeof *t->modmod * (size_t)(ng ? ng * ng : 1));
    if (!t->modmod) {
        b->failed = 1;
        return;
    }
    for (int i = 0; i < ng * ng; i++)
        t->modmod[i] = -1;
    const gisa_isa *isa = b->c->isa;
    for (int opc = 0; opc < b->c->nopcodes && !b->failed; opc++) {
        if (b->c->opcodes[opc].optype != ti)
            continue;
        const isa_opcode *op = &isa->opcodes[opc];
        for (int f = 0; f < op->nforms && !b->failed; f++) {
            const syntax_form *F = &op->forms[f];
            const cov_form *cf = &b->c->opcodes[opc].forms[f];
            for (int j1 = 0; j1 < F->nmods; j1++)
                for (int j2 = 0; j2 < F->nmods && !b->failed; j2++) {
                    const cov_slot *s1 = &cf->slots[j1], *s2 = &cf->slots[j2];
                    if (s1->group < 0 || s2->group < 0 || s1->group >= s2->group || s1->group >= 64 ||
                        s2->group >= 64)
                        continue;
                    const cov_group *g1 = &t->groups[s1->group], *g2 = &t->groups[s2->group];
                    int *at = &t->modmod[s1->group * ng + s2->group];
                    if (*at < 0)
                        *at = cross_bins(b, t, bname(b, g1->name, " x ", g2->name), g1->values, g1->nvalues,
                                         g2->values, g2->nvalues);
                    if (*at < 0)
                        return;
                    cov_bins *x = &t->bins[*at];
                    if (s1->stride && s2->stride && cf->combo_of) {
                        for (int tu = 0; tu < cf->ntuples; tu++)
                            if (cf->combo_of[tu] >= 0 && t->combo_encodes[cf->combo_of[tu]])
                                x->possible[s1->value[tu / s1->stride % s1->noptions] * g2->nvalues +
                                            s2->value[tu / s2->stride % s2->noptions]] = 1;
                    } else {
                        for (int k1 = 0; k1 < s1->noptions; k1++)
                            for (int k2 = 0; k2 < s2->noptions; k2++)
                                x->possible[s1->value[k1] * g2->nvalues + s2->value[k2]] = 1;
                    }
                }
        }
    }
}

/* A source that is only ever an immediate narrower than 32 bits (a shift
 * count, a LUT) holds no -1 unless signed, no MIN or MAX, and nothing
 * "other" unless it reaches past the small range. */
static void narrow_immediate(const gisa_cov *c, int ti, int o, uint8_t *possible)
{
    int width = 0, is_signed = 0;
    for (int opc = 0; opc < c->nopcodes; opc++) {
        if (c->opcodes[opc].optype != ti)
            continue;
        const isa_opcode *op = &c->isa->opcodes[opc];
        for (int f = 0; f < op->nforms; f++)
            for (int k = 0; k < op->forms[f].nops; k++) {
                if (c->opcodes[opc].forms[f].operand[k] != o)
                    continue;
                const opnd_slot *sl = &op->forms[f].ops[k];
                if (sl->kind != OK_IMM || !sl->type || sl->type->width >= 32)
                    return;
                width = sl->type->width > width ? sl->type->width : width;
                is_signed |= sl->type->fmt == IMM_SIGNED;
            }
    }
    if (!width)
        return;
    possible[I_MONE] = (uint8_t)is_signed;
    possible[I_MIN] = possible[I_MAX] = 0;
    possible[I_POW2] = width > 1;
    possible[I_OTHER] = width - is_signed > 8;
}

static void build_one(bbuild *b, int ti)
{
    gisa_cov *c = b->c;
    cov_optype *t = &c->optypes[ti];
    int guarded = 0;
    for (int opc = 0; opc < c->nopcodes; opc++)
        guarded |= c->opcodes[opc].optype == ti && c->isa->opcodes[opc].guard >= 0;
    t->guard_bins = guarded ? new_bins(b, t, "guard", B_GUARD, 3, guard_names, 1) : -1;
    t->exec_bins = new_bins(b, t, "exec mask", B_GUARD, 4, exec_names, 1);
    const uint32_t valued = 1u << K_R | 1u << K_RZ | 1u << K_RPAIR | 1u << K_UR | 1u << K_URZ | 1u << K_URPAIR |
                            1u << K_IMM | 1u << K_CBANK;
    const uint32_t regs = 1u << K_R | 1u << K_RPAIR | 1u << K_UR | 1u << K_URPAIR | 1u << K_P | 1u << K_UP;
    t->fma_a = t->fma_b = -1;
    int nfp = 0;
    for (int o = 0; o < t->nops && !b->failed; o++) {
        cov_operand *op = &t->ops[o];
        op->value_bins = !t->fp && (op->kinds & valued)
                             ? new_bins(b, t, bname(b, op->name, " ", "value"), B_VALUE, I_COUNT, cov_int_names, 1)
                             : -1;
        if (op->value_bins >= 0)
            narrow_immediate(c, ti, o, t->bins[op->value_bins].possible);
        op->raw_bins = op->kinds & regs ? new_bins(b, t, bname(b, op->name, " ", "RAW distance"), B_RAW, R_COUNT,
                                                   cov_raw_names, 1)
                                        : -1;
        if (op->fmts && o < COV_REC_OPS) {
            nfp++;
            if (t->fma_a < 0)
                t->fma_a = o;
            else if (t->fma_b < 0)
                t->fma_b = o;
        }
    }
    /* fused multiply-add: an FP optype with three FP sources; the cross
     * is of the two that multiply (inf x 0) */
    for (int f = 0; f < F_COUNT; f++)
        t->fma_cross[f] = -1;
    if (nfp >= 3)
        for (int f = 0; f < F_COUNT && !b->failed; f++)
            if (t->ops[t->fma_a].fmts & t->ops[t->fma_b].fmts & 1u << f) {
                strbuf s;
                sb_init(&s);
                sb_printf(&s, "%s x %s %s", t->ops[t->fma_a].name, t->ops[t->fma_b].name, cov_fmt_names[f]);
                const char *name = s.failed ? NULL : arena_strdup(&c->a, s.s);
                sb_free(&s);
                if (!name) {
                    b->failed = 1;
                    return;
                }
                int i = t->fma_cross[f] = cross_bins(b, t, name, cov_class_names, C_COUNT, cov_class_names, C_COUNT);
                if (i >= 0)
                    memset(t->bins[i].possible, 1, C_COUNT * C_COUNT);
            }
    if (!b->failed)
        find_dests(b, t, ti);
    /* modifier x result class of the first register destination */
    t->res_dest = -1;
    for (int d = 0; d < t->ndests && t->res_dest < 0; d++)
        if (!t->dests[d].pred)
            t->res_dest = d;
    t->modres = arena_alloc(&c->a, sizeof *t->modres * (size_t)(t->ngroups * F_COUNT + 1));
    if (!t->modres) {
        b->failed = 1;
        return;
    }
    for (int i = 0; i < t->ngroups * F_COUNT; i++)
        t->modres[i] = -1;
    for (int g = 0; t->fp && t->res_dest >= 0 && g < t->ngroups && g < 64 && !b->failed; g++) {
        const cov_group *grp = &t->groups[g];
        if (!grp->encoded || grp->nvalues < 2 || !mnemonic_group(c, ti, g))
            continue;
        for (int f = 0; f < F_COUNT && !b->failed; f++) {
            int r = t->dests[t->res_dest].result[f];
            if (r < 0)
                continue;
            int i = cross_bins(b, t, bname(b, grp->name, " x ", t->bins[r].name), grp->values, grp->nvalues,
                               cov_class_names, C_COUNT);
            if (i >= 0)
                memset(t->bins[i].possible, 1, (size_t)t->bins[i].nbins);
            t->modres[g * F_COUNT + f] = i;
        }
    }
    if (!b->failed)
        modmod(b, t, ti);
}

int cov_build_bins(gisa_cov *c)
{
    bbuild b = {c, 0};
    for (int i = 0; i < c->noptypes && !b.failed; i++)
        build_one(&b, i);
    return b.failed ? -1 : 0;
}

/* ------------------------------------------------------------ recording */

static int exec_pattern(uint32_t exec)
{
    if (exec == UINT32_MAX)
        return 0;
    if (!exec)
        return 1;
    return exec & (exec - 1) ? 2 : 3;
}

static cov_warp *warp_of(gisa_cov *c, unsigned w)
{
    if (w >= GISA_SIM_MAX_WARPS)
        return NULL;
    if (w >= c->nwarps) {
        unsigned n = w + 1 > 2 * c->nwarps ? w + 1 : 2 * c->nwarps;
        cov_warp **grown = realloc(c->warps, sizeof *grown * n);
        if (!grown)
            return NULL;
        memset(grown + c->nwarps, 0, sizeof *grown * (n - c->nwarps));
        c->warps = grown;
        c->nwarps = n;
    }
    if (!c->warps[w])
        c->warps[w] = calloc(1, sizeof *c->warps[w]);
    return c->warps[w];
}

void cov_raw_reset(gisa_cov *c)
{
    for (unsigned w = 0; w < c->nwarps; w++)
        free(c->warps[w]);
    free(c->warps);
    c->warps = NULL;
    c->nwarps = 0;
}

void cov_record_patterns(gisa_cov *c, cov_optype *t, const gisa_sim_commit *cm)
{
    if (t) {
        t->bins[t->exec_bins].hits[exec_pattern(cm->exec)]++;
        if (t->guard_bins >= 0 && cm->active)
            t->bins[t->guard_bins].hits[cm->exec == cm->active ? 0 : !cm->exec ? 1 : 2]++;
    }
    cov_warp *w = warp_of(c, cm->warp);
    if (w)
        w->n++;
}

static int raw_bucket(uint64_t d)
{
    return d <= 1 ? R_1 : d == 2 ? R_2 : d <= 4 ? R_4 : d <= 8 ? R_8 : R_MORE;
}

static gisa_regfile regfile(gisa_operand_kind k)
{
    switch (k) {
    case GISA_OPND_PRED: return GISA_RF_P;
    case GISA_OPND_UPRED: return GISA_RF_UP;
    case GISA_OPND_UREG:
    case GISA_OPND_UPAIR: return GISA_RF_UR;
    default: return GISA_RF_R;
    }
}

static int is_register(gisa_operand_kind k)
{
    return k == GISA_OPND_REG || k == GISA_OPND_PAIR || k == GISA_OPND_UREG || k == GISA_OPND_UPAIR ||
           k == GISA_OPND_PRED || k == GISA_OPND_UPRED;
}

static void record_raw(cov_optype *t, cov_warp *w, const gisa_operand *go, const cov_operand *o)
{
    if (o->raw_bins < 0 || !go->present || go->is_zero || !is_register(go->kind))
        return;
    gisa_regfile rf = regfile(go->kind);
    uint64_t last = 0;
    for (unsigned r = go->reg; r <= go->reg + (go->pair ? 1u : 0u) && r < COV_RAW_REGS; r++)
        if (w->last[rf][r] > last)
            last = w->last[rf][r];
    t->bins[o->raw_bins].hits[last ? raw_bucket(w->n - last) : R_NONE]++;
}

/* Classes of source o, lane by lane, into L, the value bins and the
 * floating-point classes (each half of a half-precision source counts) */
static void source_lanes(cov_optype *t, const cov_opcode *oc, const gisa_sim *sim, const gisa_sim_commit *cm,
                         const gisa_inst *inst, const gisa_operand *go, int o, cov_lanes *L)
{
    uint64_t v[GISA_SIM_LANES];
    cov_operand *op = &t->ops[o];
    int rec = o < COV_REC_OPS;
    if (rec)
        L->src_fmt[o] = -1;
    if (!go->present)
        return;
    int have = cov_source_values(sim, cm, go, v);
    if (!have && go->kind == GISA_OPND_IMM && !t->fp) {
        for (int l = 0; l < GISA_SIM_LANES; l++)
            v[l] = (uint64_t)go->value;
        have = 1;
    }
    if (!have)
        return;
    if (!t->fp) {
        int bits = go->pair ? 64 : 32;
        uint64_t *hits = op->value_bins >= 0 ? t->bins[op->value_bins].hits : NULL;
        if (rec)
            L->src_fmt[o] = F_COUNT;
        for (int l = 0; l < GISA_SIM_LANES; l++) {
            int k = L->exec >> l & 1 ? cov_int_class(v[l], bits) : -1;
            if (rec) {
                L->src_class[o][0][l] = (int8_t)k;
                L->src_class[o][1][l] = -1;
            }
            if (k >= 0 && hits)
                hits[k]++;
        }
        return;
    }
    int half = t->fp - 1 == F_F16;
    int fmt = half ? (oc->bf16_field >= 0 && inst->field[oc->bf16_field] == oc->bf16_value ? F_BF16 : F_F16)
                   : go->pair ? F_F64 : F_F32;
    if (rec)
        L->src_fmt[o] = (int8_t)fmt;
    for (int l = 0; l < GISA_SIM_LANES; l++) {
        int k0 = -1, k1 = -1;
        if (L->exec >> l & 1) {
            if (half) {
                k0 = cov_classify(v[l] & 0xffff, fmt);
                k1 = cov_classify(v[l] >> 16 & 0xffff, fmt);
                op->class_hits[fmt][k1]++;
            } else {
                k0 = cov_classify(fmt == F_F64 ? v[l] : v[l] & 0xffffffffu, fmt);
            }
            op->class_hits[fmt][k0]++;
        }
        if (rec) {
            L->src_class[o][0][l] = (int8_t)k0;
            L->src_class[o][1][l] = (int8_t)k1;
        }
    }
}

static const gisa_sim_effect *effect_of(const gisa_sim_commit *cm, gisa_regfile rf, unsigned index)
{
    for (unsigned e = 0; e < cm->neffects; e++)
        if (cm->effect[e].rf == rf && cm->effect[e].index == index)
            return &cm->effect[e];
    return NULL;
}

/* Classes of destination d's results, lane by lane, into L and its bins */
static void dest_lanes(cov_optype *t, const cov_opcode *oc, const gisa_sim_commit *cm, const gisa_inst *inst,
                       const gisa_operand *go, int d, cov_lanes *L)
{
    const cov_dest *D = &t->dests[d];
    L->dst_fmt[d] = -1;
    if (!go->present || go->is_zero)
        return;
    gisa_regfile rf = regfile(go->kind);
    const gisa_sim_effect *lo = effect_of(cm, rf, go->reg), *hi = go->pair ? effect_of(cm, rf, go->reg + 1) : NULL;
    if (!lo || (go->pair && !hi))
        return;
    int uniform = rf == GISA_RF_UR || rf == GISA_RF_UP;
    uint32_t lanes = L->exec & (uniform ? UINT32_MAX : lo->mask);
    int fmt = D->pred ? 0 : dest_format(t, oc, go, inst->field);
    int bi = D->result[fmt];
    uint64_t *hits = bi >= 0 ? t->bins[bi].hits : NULL;
    L->dst_fmt[d] = (int8_t)(D->pred ? F_COUNT + 1 : fmt);
    for (int l = 0; l < GISA_SIM_LANES; l++) {
        int k0 = -1, k1 = -1;
        if (lanes >> l & 1) {
            int s = uniform ? 0 : l;
            uint64_t v = (uint64_t)(hi ? hi->value[s] : 0) << 32 | lo->value[s];
            if (D->pred)
                k0 = (int)(v & 1);
            else if (fmt == F_COUNT)
                k0 = cov_int_class(v, go->pair ? 64 : 32);
            else if (fmt == F_F16 || fmt == F_BF16) {
                k0 = cov_classify(v & 0xffff, fmt);
                k1 = cov_classify(v >> 16 & 0xffff, fmt);
            } else
                k0 = cov_classify(fmt == F_F64 ? v : v & 0xffffffffu, fmt);
            if (hits) {
                hits[k0]++;
                if (k1 >= 0)
                    hits[k1]++;
            }
        }
        L->dst_class[d][0][l] = (int8_t)k0;
        L->dst_class[d][1][l] = (int8_t)k1;
    }
}

void cov_record_bins(gisa_cov *c, int ti, const cov_form *cf, const cov_opcode *oc, const gisa_sim *sim,
                     const gisa_sim_commit *cm, const gisa_inst *inst, const gisa_operand *go, int nops, cov_lanes *L)
{
    cov_optype *t = &c->optypes[ti];
    cov_warp *w = warp_of(c, cm->warp);
    L->exec = cm->exec;
    L->active = cm->active;
    L->nops = t->nops;
    for (int o = 0; o < t->nops && o < COV_REC_OPS; o++)
        L->src_fmt[o] = -1;
    for (int d = 0; d < t->ndests && d < COV_REC_OPS; d++)
        L->dst_fmt[d] = -1;
    for (int k = 0; k < nops; k++) {
        int o = cf->operand[k];
        if (o >= 0) {
            if (w)
                record_raw(t, w, &go[k], &t->ops[o]);
            source_lanes(t, oc, sim, cm, inst, &go[k], o, L);
        } else if (cf->dest && cf->dest[k] >= 0 && cf->dest[k] < COV_REC_OPS) {
            dest_lanes(t, oc, cm, inst, &go[k], cf->dest[k], L);
        }
    }
    /* crosses */
    int rd = t->res_dest < COV_REC_OPS ? t->res_dest : -1;
    int rf = rd >= 0 ? L->dst_fmt[rd] : -1;
    if (rf >= 0 && rf < F_COUNT)
        for (int g = 0; g < t->ngroups && g < 64; g++) {
            int bi = t->modres[g * F_COUNT + rf];
            if (bi < 0 || L->gval[g] < 0)
                continue;
            uint64_t *hits = t->bins[bi].hits + L->gval[g] * C_COUNT;
            for (int l = 0; l < GISA_SIM_LANES; l++)
                for (int h = 0; h < 2; h++)
                    if (L->dst_class[rd][h][l] >= 0)
                        hits[L->dst_class[rd][h][l]]++;
        }
    if (t->fma_b >= 0 && L->src_fmt[t->fma_a] >= 0 && L->src_fmt[t->fma_a] == L->src_fmt[t->fma_b] &&
        L->src_fmt[t->fma_a] < F_COUNT && t->fma_cross[L->src_fmt[t->fma_a]] >= 0) {
        uint64_t *hits = t->bins[t->fma_cross[L->src_fmt[t->fma_a]]].hits;
        for (int l = 0; l < GISA_SIM_LANES; l++)
            for (int h = 0; h < 2; h++) {
                int a = L->src_class[t->fma_a][h][l], b = L->src_class[t->fma_b][h][l];
                if (a >= 0 && b >= 0)
                    hits[a * C_COUNT + b]++;
            }
    }
    for (int g1 = 0; g1 < t->ngroups && g1 < 64; g1++)
        for (int g2 = g1 + 1; L->gval[g1] >= 0 && g2 < t->ngroups && g2 < 64; g2++) {
            int bi = t->modmod[g1 * t->ngroups + g2];
            if (bi >= 0 && L->gval[g2] >= 0)
                t->bins[bi].hits[L->gval[g1] * t->groups[g2].nvalues + L->gval[g2]]++;
        }
    if (c->nuser)
        cov_user_record(c, t, ti, L);
    /* the writes, for the reads after them (the count moved on in cov_record_patterns) */
    for (unsigned e = 0; w && e < cm->neffects; e++)
        if (cm->effect[e].index < COV_RAW_REGS && (unsigned)cm->effect[e].rf < 4)
            w->last[cm->effect[e].rf][cm->effect[e].index] = w->n;
}
