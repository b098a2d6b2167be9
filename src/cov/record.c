/* Recording commit records into the coverage tables, and adding tables.
 * A commit that executed no lane (skipped by its guard, or a word that
 * does not decode) is counted as skipped and covers nothing. Sources are
 * the values before the instruction: a register the commit wrote reads
 * its old value from the commit, any other the simulator's state (which
 * the instruction did not change). */
#include <string.h>

#include "common/fpenv.h"
#include "cov/cov.h"

int cov_classify(uint64_t bits, int fmt)
{
    static const struct {
        int ebits, mbits;
    } shape[F_COUNT] = {{8, 23}, {11, 52}, {5, 10}, {8, 7}};
    int eb = shape[fmt].ebits, mb = shape[fmt].mbits;
    uint64_t mant = bits & ((UINT64_C(1) << mb) - 1), emax = (UINT64_C(1) << eb) - 1;
    uint64_t exp = bits >> mb & emax;
    int neg = (int)(bits >> (mb + eb) & 1);
    if (exp == emax)
        return mant ? (mant >> (mb - 1) ? C_QNAN : C_SNAN) : neg ? C_NINF : C_PINF;
    if (exp)
        return neg ? C_NNORM : C_PNORM;
    return mant ? (neg ? C_NSUB : C_PSUB) : neg ? C_NZERO : C_PZERO;
}

/* Lane values of register `index` of file rf before the commit. */
static void before(const gisa_sim *sim, const gisa_sim_commit *c, gisa_regfile rf, unsigned index, uint32_t *v)
{
    for (unsigned e = 0; e < c->neffects; e++)
        if (c->effect[e].rf == rf && c->effect[e].index == index) {
            for (int l = 0; l < GISA_SIM_LANES; l++)
                v[l] = c->effect[e].old_value[rf == GISA_RF_UR ? 0 : l];
            return;
        }
    if (rf == GISA_RF_UR) { /* warp-wide; URZ and registers out of range read 0 */
        uint32_t u = 0;
        gisa_sim_get(sim, c->warp, rf, index, 0, &u);
        for (int l = 0; l < GISA_SIM_LANES; l++)
            v[l] = u;
        return;
    }
    for (int l = 0; l < GISA_SIM_LANES; l++)
        if (gisa_sim_get(sim, c->warp, rf, index, (unsigned)l, &v[l]) != GISA_OK)
            v[l] = 0;
}

/* The 64-bit lane values a source held before the commit: 0 with *ok
 * when it holds none (a predicate, PR, an integer immediate, R[UR+imm]). */
int cov_source_values(const gisa_sim *sim, const gisa_sim_commit *c, const gisa_operand *go, uint64_t *v)
{
    uint32_t lo[GISA_SIM_LANES], hi[GISA_SIM_LANES];
    memset(hi, 0, sizeof hi);
    switch (go->kind) {
    case GISA_OPND_REG:
    case GISA_OPND_PAIR:
    case GISA_OPND_UREG:
    case GISA_OPND_UPAIR: {
        gisa_regfile rf = go->kind == GISA_OPND_REG || go->kind == GISA_OPND_PAIR ? GISA_RF_R : GISA_RF_UR;
        if (go->is_zero) {
            memset(v, 0, sizeof *v * GISA_SIM_LANES);
            return 1;
        }
        before(sim, c, rf, go->reg, lo);
        if (go->pair)
            before(sim, c, rf, go->reg + 1, hi); /* the zero register's number reads 0 */
        break;
    }
    case GISA_OPND_F32:
    case GISA_OPND_F64:
    case GISA_OPND_F16X2:
        for (int l = 0; l < GISA_SIM_LANES; l++)
            v[l] = (uint64_t)go->value;
        return 1;
    case GISA_OPND_CBANK: {
        uint32_t w0 = 0, w1 = 0;
        gisa_sim_get_const(sim, go->bank, go->offset, &w0);
        if (go->pair)
            gisa_sim_get_const(sim, go->bank, go->offset + 4, &w1);
        for (int l = 0; l < GISA_SIM_LANES; l++)
            v[l] = (uint64_t)w1 << 32 | w0;
        return 1;
    }
    default: return 0;
    }
    for (int l = 0; l < GISA_SIM_LANES; l++)
        v[l] = (uint64_t)hi[l] << 32 | lo[l];
    return 1;
}

static int kind_of(const gisa_operand *go)
{
    if (!go->present)
        return K_OMITTED;
    switch (go->kind) {
    case GISA_OPND_REG: return go->is_zero ? K_RZ : K_R;
    case GISA_OPND_PAIR: return go->is_zero ? K_RZ : K_RPAIR;
    case GISA_OPND_UREG: return go->is_zero ? K_URZ : K_UR;
    case GISA_OPND_UPAIR: return go->is_zero ? K_URZ : K_URPAIR;
    case GISA_OPND_PRED: return go->is_zero ? K_PT : K_P;
    case GISA_OPND_UPRED: return go->is_zero ? K_UPT : K_UP;
    case GISA_OPND_IMM: return K_IMM;
    case GISA_OPND_F32: return K_F32IMM;
    case GISA_OPND_F64: return K_F64IMM;
    case GISA_OPND_F16X2: return K_F16X2IMM;
    case GISA_OPND_CBANK: return K_CBANK;
    case GISA_OPND_INDEXED: return K_INDEXED;
    case GISA_OPND_PR: break;
    }
    return -1;
}

static gisa_status cov_record_unguarded(gisa_cov *cov, const gisa_sim *sim, const gisa_sim_commit *c)
{
    /* the opcodes and fields of another ISA's instructions would be counted
     * against this one's; a caller's record with more effects than the
     * array holds would be read past its end */
    if (!cov || !c || (sim && gisa_sim_isa(sim) != cov->isa) || c->neffects > GISA_SIM_MAX_EFFECTS)
        return GISA_ERR_USAGE;
    const gisa_isa *isa = cov->isa;
    /* decoded again from the word the record holds by value: c->inst points
     * into the simulator's program, which a gisa_sim_load since may have
     * freed (a caller keeping records, as Python's Commit does) */
    gisa_inst decoded;
    const gisa_inst *inst = gisa_decode(isa, c->word, &decoded) == GISA_OK ? &decoded : NULL;
    if (sim != cov->raw_sim) { /* another run: its writes are not this one's */
        cov_raw_reset(cov);
        cov->raw_sim = sim;
    }
    if (!inst || inst->opcode < 0 || inst->opcode >= cov->nopcodes || inst->form < 0 ||
        inst->form >= isa->opcodes[inst->opcode].nforms) {
        cov->skipped++; /* a word that does not decode executes nothing */
        cov_record_patterns(cov, NULL, c);
        return GISA_OK;
    }
    cov_opcode *oc = &cov->opcodes[inst->opcode];
    cov_optype *t = &cov->optypes[oc->optype];
    if (!c->exec) {
        cov->skipped++;
        oc->skipped++;
        t->skipped++;
        cov_record_patterns(cov, t, c);
        return GISA_OK;
    }
    if (!sim)
        return GISA_ERR_USAGE;
    cov_record_patterns(cov, t, c);
    cov_lanes L;
    for (int g = 0; g < 64; g++)
        L.gval[g] = -1;
    cov->executed++;
    oc->executed++;
    t->executed++;
    const syntax_form *F = &isa->opcodes[inst->opcode].forms[inst->form];
    const cov_form *cf = &oc->forms[inst->form];
    gisa_operand go[64];
    int nops = F->nops < 64 ? F->nops : 64;
    for (int k = 0; k < nops; k++)
        gisa_inst_operand(isa, inst, (size_t)k, &go[k]);
    int tuple = 0;
    for (int j = 0; j < F->nmods; j++) {
        const mod_slot *m = &F->mods[j];
        const cov_slot *cs = &cf->slots[j];
        if (cs->group < 0 || (m->operand >= 0 && m->operand < nops && !go[m->operand].present))
            continue;
        int k = cov_slot_option(m, cs, inst->field[m->field]);
        if (k < 0) {
            tuple = -1;
            continue;
        }
        t->groups[cs->group].hits[cs->value[k]]++;
        if (cs->group < 64)
            L.gval[cs->group] = cs->value[k];
        if (tuple >= 0)
            tuple += k * cs->stride;
    }
    if (cf->combo_of && tuple >= 0 && tuple < cf->ntuples && cf->combo_of[tuple] >= 0)
        t->combo_hits[cf->combo_of[tuple]]++;
    for (int k = 0; k < nops; k++) {
        if (cf->operand[k] < 0)
            continue;
        cov_operand *o = &t->ops[cf->operand[k]];
        int kind = kind_of(&go[k]);
        if (kind >= 0)
            o->kind_hits[kind]++;
        if (go[k].present)
            for (int d = 0; d < D_COUNT; d++)
                o->deco_hits[d] += go[k].deco >> d & 1; /* GISA_DECO_* are 1 << D_* */
    }
    cov_record_bins(cov, oc->optype, cf, oc, sim, c, inst, go, nops, &L);
    return GISA_OK;
}

gisa_status gisa_cov_record(gisa_cov *cov, const gisa_sim *sim, const gisa_sim_commit *c)
{
    FPENV_RETURN(gisa_status, cov_record_unguarded(cov, sim, c));
}
_Static_assert(GISA_DECO_NEG == 1u << D_NEG && GISA_DECO_ABS == 1u << D_ABS && GISA_DECO_INV == 1u << D_INV &&
                   GISA_DECO_NOT == 1u << D_NOT,
               "deco_hits are indexed by the GISA_DECO_* bit");

static gisa_status commit_hook(void *user, const gisa_sim_commit *c)
{
    gisa_cov *cov = user;
    return gisa_cov_record(cov, cov->sim, c);
}

gisa_status gisa_cov_attach(gisa_cov *cov, gisa_sim *sim)
{
    if (!cov || !sim || gisa_sim_isa(sim) != cov->isa) /* as gisa_cov_record: the coverage is of one ISA */
        return GISA_ERR_USAGE;
    cov->sim = sim;
    cov_raw_reset(cov); /* a new run, maybe of a simulator at a freed one's address */
    cov->raw_sim = sim;
    return gisa_sim_set_commit_hook(sim, commit_hook, cov);
}

void cov_add(gisa_cov *into, const gisa_cov *from)
{
    into->executed = cov_sat_add(into->executed, from->executed);
    into->skipped = cov_sat_add(into->skipped, from->skipped);
    for (int i = 0; i < into->nopcodes; i++) {
        into->opcodes[i].executed = cov_sat_add(into->opcodes[i].executed, from->opcodes[i].executed);
        into->opcodes[i].skipped = cov_sat_add(into->opcodes[i].skipped, from->opcodes[i].skipped);
    }
    for (int i = 0; i < into->noptypes; i++) {
        cov_optype *t = &into->optypes[i];
        const cov_optype *u = &from->optypes[i];
        t->executed = cov_sat_add(t->executed, u->executed);
        t->skipped = cov_sat_add(t->skipped, u->skipped);
        for (int g = 0; g < t->ngroups; g++)
            for (int v = 0; v < t->groups[g].nvalues; v++)
                t->groups[g].hits[v] = cov_sat_add(t->groups[g].hits[v], u->groups[g].hits[v]);
        for (int k = 0; k < t->ncombos; k++)
            t->combo_hits[k] = cov_sat_add(t->combo_hits[k], u->combo_hits[k]);
        for (int o = 0; o < t->nops; o++) {
            cov_operand *a = &t->ops[o];
            const cov_operand *b = &u->ops[o];
            for (int k = 0; k < K_COUNT; k++)
                a->kind_hits[k] = cov_sat_add(a->kind_hits[k], b->kind_hits[k]);
            for (int d = 0; d < D_COUNT; d++)
                a->deco_hits[d] = cov_sat_add(a->deco_hits[d], b->deco_hits[d]);
            for (int f = 0; f < F_COUNT; f++)
                for (int k = 0; k < C_COUNT; k++)
                    a->class_hits[f][k] = cov_sat_add(a->class_hits[f][k], b->class_hits[f][k]);
        }
        for (int g = 0; g < t->nbins; g++)
            for (int k = 0; k < t->bins[g].nbins; k++)
                t->bins[g].hits[k] = cov_sat_add(t->bins[g].hits[k], u->bins[g].hits[k]);
    }
    for (int i = 0; i < from->nuser; i++) { /* by name: cov_user_adopt made every one */
        int j = cov_user_find(into, from->user[i].name);
        if (j >= 0)
            into->user[j].hits = cov_sat_add(into->user[j].hits, from->user[i].hits);
    }
}

gisa_status gisa_cov_merge(gisa_cov *into, const gisa_cov *from)
{
    if (!into || !from || into->isa != from->isa)
        return GISA_ERR_USAGE;
    if (cov_user_merge_check(into, from))
        return GISA_ERR_INPUT; /* a user bin of the same name defined otherwise */
    if (cov_user_adopt(into, from))
        return GISA_ERR_NOMEM;
    cov_add(into, from);
    return GISA_OK;
}
