/* Builds the assembler's per-form tables (asm_form in asm.h). */
#include <string.h>

#include "asm/asm.h"

static uint64_t letter(char c) { return UINT64_C(1) << (32 + ((unsigned char)c & 31)); }

static uint8_t value_index(int field) { return field >= 0 && field < SPEC_MAXF ? (uint8_t)field : SPEC_MAXF; }

/* Which decorations of the operand apply_decorations may just store: '-',
 * '|x|', '!' where allowed and encoded, '-' not standing for '~' (.X). */
static uint32_t simple_decorations(const opnd_slot *s)
{
    src_opnd o;
    o.deco = 0;
    o.neg = (char)(s->allow_neg && s->neg_field >= 0 && s->inv_field < 0 ? -1 : 0);
    o.abs = (char)(s->allow_abs && s->abs_field >= 0 ? -1 : 0);
    o.not_ = (char)(s->allow_not && s->not_field >= 0 ? -1 : 0);
    return o.deco;
}

static asm_slot slot_of(const opnd_slot *s)
{
    const expr *bw = s->bitwidth;
    const deco_fields d = deco_fields_of(s); /* copied: the matcher's slots stay small */
    asm_slot a = {.s = s, .group = (uint8_t)s->group, .nsrc = 1, .pair = (int8_t)(!bw ? 0 : bw->kind == EX_NUM ? bw->num == 64 : -1),
                  .neg = d.neg, .abs = d.abs, .not_ = d.not_, .simple = simple_decorations(s)};
    switch (s->kind) {
    case OK_IMM:
        a.accept = UINT64_C(1) << SRC_NUMBER;
        a.nsrc = s->type->fmt == IMM_F16X2 ? 2 : 1;
        break;
    case OK_CMEM: a.accept = UINT64_C(1) << SRC_CMEM; break;
    case OK_INDEXED: a.accept = UINT64_C(1) << SRC_INDEXED; break;
    case OK_PR: a.accept = ~UINT64_C(0) << 32; break; /* any name */
    case OK_REG: a.accept = letter(s->type->prefix[0]) | letter(s->type->zero[0]); break;
    }
    return a;
}

static int popcount(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Whether hashing with mul puts no two ids of the spellings in one of the
 * 1 << bits entries (the spellings of an id after its first are not
 * entered: the look-up finds the first, as a search would). */
static int hash_fits(const asm_form *f, uint32_t mul, int bits)
{
    int32_t at[256];
    for (int i = 0; i < 1 << bits; i++)
        at[i] = ASM_NO_ID;
    for (int i = 0; i < f->nspellings; i++) {
        int32_t id = f->spelling[i].id;
        uint32_t h = (uint32_t)id * mul >> (32 - bits);
        if (at[h] != ASM_NO_ID && at[h] != id)
            return 0;
        at[h] = id;
    }
    return 1;
}

/* The spellings by id, for match_mods: a word's spelling in one look-up
 * instead of a search (the search stays for what the table cannot tell:
 * a slot taken twice, a modifier without a field). */
static int build_by_id(gisa_isa *isa, asm_form *f)
{
    static const asm_spelling none = {.id = ASM_NO_ID};
    int bits = 1;
    while (1 << bits < f->nspellings)
        bits++;
    for (int b = bits; b <= 8 && b <= bits + 2; b++)
        for (uint32_t t = 0; t < 256; t++) {
            uint32_t mul = UINT32_C(0x9E3779B1) * (2 * t + 1);
            if (!hash_fits(f, mul, b))
                continue;
            asm_spelling *e = arena_alloc(&isa->a, sizeof *e << b);
            if (!e)
                return -1;
            for (int i = 0; i < 1 << b; i++)
                e[i] = none;
            for (int i = f->nspellings - 1; i >= 0; i--) /* the first of each id last */
                e[(uint32_t)f->spelling[i].id * mul >> (32 - b)] = f->spelling[i];
            f->by_id = e;
            f->id_mul = mul;
            f->id_shift = 32 - b;
            return 0;
        }
    f->by_id = &none; /* no table: always the search */
    f->id_shift = 31;
    return 0;
}

/* The spellings of the modifiers written after the mnemonic, and which
 * of them are required. */
static int build_spellings(gisa_isa *isa, const syntax_form *F, asm_form *f)
{
    int n = 0;
    for (int j = 0; j < F->nmods; j++)
        n += F->mods[j].operand < 0 ? F->mods[j].nchoices : 0;
    asm_spelling *sp = arena_alloc(&isa->a, sizeof *sp * (size_t)(n ? n : 1));
    if (!sp)
        return -1;
    for (int j = 0; j < F->nmods && j < 64; j++) {
        const mod_slot *m = &F->mods[j];
        if (m->operand >= 0)
            continue;
        for (int k = 0; k < m->nchoices; k++)
            sp[f->nspellings++] = (asm_spelling){m->choices[k].id, (uint8_t)j, (uint8_t)k, (uint8_t)(m->field < SPEC_MAXF && (m->field >= 0 || k == m->def_choice)),
                                                 (uint8_t)(m->field >= 0 && m->field < SPEC_MAXF ? m->field : SPEC_MAXF), m->choices[k].value};
        if (!m->optional)
            f->required |= UINT64_C(1) << j;
    }
    f->spelling = sp;
    return build_by_id(isa, f);
}

static void mark(uint8_t *w, int field)
{
    if (field >= 0)
        w[field] = 1;
}

/* Marks the fields the form writes: those of its modifiers, operands,
 * controls and guard. */
static void mark_written(const isa_opcode *op, const syntax_form *F, uint8_t *n)
{
    for (int j = 0; j < F->nmods; j++)
        mark(n, F->mods[j].field);
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        const int fields[] = {s->field, s->neg_field, s->abs_field, s->not_field, s->kind == OK_INDEXED ? s->index_field : -1};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            mark(n, fields[i]);
    }
    for (int k = 0; k < 3; k++)
        mark(n, F->ctl[k]);
    mark(n, op->guard);
    mark(n, op->guard_not);
}

/* Encoding packs only the fields the form can write (modifier, operand,
 * control and guard fields) over a word holding the absent values of the
 * others: the same word as packing them all, in fewer steps. */
static int build_packing(gisa_isa *isa, const isa_opcode *op, const uint8_t *w, asm_form *f)
{
    const field_reads *all = &isa->decoder->op[op->index].all;
    uint64_t vals[SPEC_NVALS];
    int n = 0;
    for (int i = 0; i < op->nfields; i++) {
        vals[i] = w[i] ? 0 : op->absent[i];
        n += w[i];
    }
    f->base = fields_write(all, vals);
    field_rd *x = arena_alloc(&isa->a, sizeof *x * (size_t)(n ? n : 1));
    uint64_t *mask = arena_alloc(&isa->a, sizeof *mask * (size_t)(n ? n : 1));
    if (!x || !mask)
        return -1;
    n = 0;
    for (int part = 0, i = 0; part < 3; part++) /* all's order: in w[0], in w[1], straddling */
        for (int end = i + all->n[part]; i < end; i++)
            if (w[all->x[i].field]) {
                x[n] = all->x[i];
                mask[n++] = all->mask[i];
                f->written.n[part]++;
            }
    f->written.x = x;
    f->written.mask = mask;
    return 0;
}

/* What try_form needs after the operands: controls, guard, exceptions. */
static void build_tail(const gisa_isa *isa, const isa_opcode *op, const syntax_form *F, asm_form *f)
{
    for (int k = 0; k < 3; k++) {
        int w = F->ctl[k] >= 0 ? op->fields[F->ctl[k]].width : 0;
        f->ctl_field[k] = value_index(F->ctl[k]);
        f->ctl_max[k] = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    }
    f->guard = value_index(op->guard);
    f->guard_not = value_index(op->guard_not);
    f->guard_type = op->guard >= 0 ? op->fields[op->guard].type : NULL;
    f->raised = op->nexceptions ? &isa->decoder->op[op->index].raised : NULL;
}

static int build_form(gisa_isa *isa, const isa_opcode *op, const syntax_form *F, const asm_form **out)
{
    int ng = F->ngroups < ASM_MAX_GROUPS ? F->ngroups : ASM_MAX_GROUPS;
    asm_form *f = arena_alloc(&isa->a, sizeof *f);
    asm_slot *slot = arena_alloc(&isa->a, sizeof *slot * (size_t)(F->nops ? F->nops : 1));
    uint8_t *choice = arena_alloc(&isa->a, (size_t)1 << ng), *nsrc = arena_alloc(&isa->a, (size_t)1 << ng);
    int fits = op->nfields <= SPEC_MAXF; /* else never encoded: try_candidate refuses it */
    uint8_t written[SPEC_NVALS] = {0};
    if (fits)
        mark_written(op, F, written);
    if (!f || !slot || !choice || !nsrc || build_spellings(isa, F, f) || (fits && build_packing(isa, op, written, f)))
        return -1;
    if (fits)
        build_tail(isa, op, F, f);
    for (int k = 0; k < F->nops; k++)
        slot[k] = slot_of(&F->ops[k]);
    /* most groups first; among equals, earlier groups first (so that in
     * "{, pp}{, pq}" a lone trailing operand is pp) */
    for (int pop = ng; pop >= 0; pop--)
        for (unsigned present = 0; present < 1u << ng; present++) {
            if (popcount(present) != pop)
                continue;
            int n = 0;
            for (int k = 0; k < F->nops; k++)
                if (!slot[k].group || (slot[k].group <= ng && present >> (slot[k].group - 1) & 1))
                    n += slot[k].nsrc;
            choice[f->npresent] = (uint8_t)present;
            nsrc[f->npresent++] = (uint8_t)n;
        }
    /* each choice's slots in order */
    uint16_t *at = arena_alloc(&isa->a, sizeof *at * (size_t)(f->npresent + 1));
    asm_slot *steps = arena_alloc(&isa->a, sizeof *steps * (size_t)(f->npresent * F->nops + 1));
    if (!at || !steps)
        return -1;
    int n = 0;
    for (int j = 0; j < f->npresent; j++) {
        at[j] = (uint16_t)n;
        for (int k = 0; k < F->nops; k++)
            if (!slot[k].group || (slot[k].group <= ng && choice[j] >> (slot[k].group - 1) & 1))
                steps[n++] = slot[k];
    }
    at[f->npresent] = (uint16_t)n;
    f->steps = steps;
    f->steps_at = at;
    f->slot = slot;
    f->nops = F->nops;
    f->min_src = F->min_src;
    f->max_src = F->max_src;
    f->present = choice;
    f->present_nsrc = nsrc;
    *out = f;
    return 0;
}

/* Folds the 64 operand classes into codes: two classes share a code when
 * every slot of the model accepts both or neither (refined slot by slot). */
static void build_class_codes(const gisa_isa *isa, asm_model *am)
{
    uint8_t code[64] = {0};
    int ncodes = 1;
    for (int e = 0; e < isa->nmnemonics; e++)
        for (int i = 0; i < isa->mnemonics[e].n; i++) {
            const asm_form *f = am->mnem[e].enc[i];
            for (int q = 0; q < f->nops; q++) {
                int map[128], n = 0;
                for (int x = 0; x < 128; x++)
                    map[x] = -1;
                for (int x = 0; x < 64; x++) {
                    int key = code[x] * 2 + (int)(f->slot[q].accept >> x & 1);
                    if (map[key] < 0)
                        map[key] = n++;
                    code[x] = (uint8_t)map[key];
                }
                ncodes = n;
            }
        }
    memcpy(am->code, code, sizeof code);
    am->ncodes = ncodes;
}

/* Marks in accept[] the codes that the pair's operands accept, position by
 * position (an F16x2 slot's second value is a number too). */
static void mark_pair(const asm_model *am, const asm_form *f, unsigned present, uint64_t bit, uint64_t *accept)
{
    int pos = 0;
    for (int k = 0; k < f->nops; k++) {
        const asm_slot *sl = &f->slot[k];
        if (sl->group && !(sl->group <= ASM_MAX_GROUPS && present >> (sl->group - 1) & 1))
            continue;
        for (int q = 0; q < sl->nsrc; q++, pos++) {
            uint64_t mask = q ? UINT64_C(1) << SRC_NUMBER : sl->accept;
            for (int x = 0; x < 64; x++)
                if (mask >> x & 1)
                    accept[pos * am->ncodes + am->code[x]] |= bit;
        }
    }
}

/* A mnemonic's pairs of candidate and choice of groups, by the number of
 * source operands they take. */
static int build_pairs(gisa_isa *isa, const asm_model *am, const mnemonic_entry *me, asm_mnemonic *m)
{
    int max = 0;
    for (int i = 0; i < me->n; i++)
        for (int j = 0; j < m->enc[i]->npresent; j++)
            max = m->enc[i]->present_nsrc[j] > max ? m->enc[i]->present_nsrc[j] : max;
    asm_pairs *P = arena_alloc(&isa->a, sizeof *P * (size_t)(max + 1));
    if (!P)
        return -1;
    for (int n = 0; n <= max; n++) {
        int count = 0;
        for (int i = 0; i < me->n; i++)
            for (int j = 0; j < m->enc[i]->npresent; j++)
                count += m->enc[i]->present_nsrc[j] == n;
        if (count > ASM_MAX_PAIRS)
            continue; /* accept stays NULL */
        uint64_t *accept = arena_alloc(&isa->a, sizeof *accept * (size_t)(n * am->ncodes + 1));
        uint16_t *cand = arena_alloc(&isa->a, sizeof *cand * (size_t)(count + 1));
        uint8_t *choice = arena_alloc(&isa->a, (size_t)count + 1);
        if (!accept || !cand || !choice)
            return -1;
        int idx = 0;
        for (int i = 0; i < me->n; i++)
            for (int j = 0; j < m->enc[i]->npresent; j++) {
                if (m->enc[i]->present_nsrc[j] != n)
                    continue;
                cand[idx] = (uint16_t)i;
                choice[idx] = (uint8_t)j;
                P[n].all |= UINT64_C(1) << idx;
                mark_pair(am, m->enc[i], m->enc[i]->present[j], UINT64_C(1) << idx, accept);
                idx++;
            }
        P[n].accept = accept;
        P[n].cand = cand;
        P[n].choice = choice;
    }
    m->pairs = P;
    m->max_src = max;
    return 0;
}

int asm_plan_build(gisa_isa *isa)
{
    asm_model *am = arena_alloc(&isa->a, sizeof *am);
    asm_mnemonic *mnem = arena_alloc(&isa->a, sizeof *mnem * (size_t)(isa->nmnemonics ? isa->nmnemonics : 1));
    if (!am || !mnem)
        return -1;
    am->mnem = mnem;
    /* each mnemonic's candidates side by side: judging them touches no
     * opcode or form */
    for (int e = 0; e < isa->nmnemonics; e++) {
        const mnemonic_entry *me = &isa->mnemonics[e];
        const asm_form **enc = arena_alloc(&isa->a, sizeof *enc * (size_t)(me->n ? me->n : 1));
        if (!enc)
            return -1;
        for (int i = 0; i < me->n; i++) {
            const isa_opcode *op = &isa->opcodes[me->opcode[i]];
            if (build_form(isa, op, &op->forms[me->form[i]], &enc[i]))
                return -1;
        }
        mnem[e].enc = enc;
    }
    build_class_codes(isa, am);
    for (int e = 0; e < isa->nmnemonics; e++)
        if (build_pairs(isa, am, &isa->mnemonics[e], &mnem[e]))
            return -1;
    isa->asm_model = am;
    return 0;
}
