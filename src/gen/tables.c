/* The model as the generator sees it, built once per handle: each
 * optype's family (the file that defines it), each opcode's class (the
 * operand kind that sets it apart) and what each of its operands writes,
 * whether the model has uniform registers and indexed operands, how far
 * its constant operands reach; and the questions about names that the
 * options and the draw both ask (is an opcode in a name's scope, does a
 * syntax form carry modifier values). The directed streams' templates are
 * here too: the target's streams are probed once (streams.c). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/gen.h"

const gen_stream_def gen_stream_defs[] = {
    {"add64", "a2 b2 c2", "IADD R%a0, %p, R%b0, R%c0\nIADD.X R%a1, PT, R%b1, R%c1, %p"},
    {"sub64", "a2 b2 c2", "IADD R%a0, %p, R%b0, -R%c0\nIADD.X R%a1, PT, R%b1, ~R%c1, %p"},
    {"add128", "a4 b4 c4",
     "IADD R%a0, %p, R%b0, R%c0\nIADD.X R%a1, %p, R%b1, R%c1, %p\nIADD.X R%a2, %p, R%b2, R%c2, %p\n"
     "IADD.X R%a3, PT, R%b3, R%c3, %p"},
    {"mad64", "a2 b1 c2", "IMAD.U32 R%a0, %p, R%b0, %i, R%c0\nIMAD.HI.X.U32 R%a1, R%b0, %i, R%c1, %p"},
    {"mad64s", "a2 b1 c2 d1", "IMAD R%a0, %p, R%b0, R%d0, -R%c0\nIMAD.HI.X R%a1, R%b0, R%d0, ~R%c1, %p"},
    {"wide128", "a4 b1 c2 d1",
     "IMAD.WIDE.U32 R[%a0:%a1], %p, R%b0, R%d0, R[%c0:%c1]\nIMAD.WIDE.X.U32 R[%a2:%a3], RZ, RZ, RZ, %p"},
    {"cmp64", "a1 b2 c2", "ISETP%C.U32.AND %p, PT, R%b0, R%c0, PT\nISETP%C%T.AND.X %p, PT, R%b1, R%c1, PT, %p"},
    {"lea64", "a2 b2 c2", "LEA R%a0, %p, R%b0, R%c0, %s\nLEA.HI.X R%a1, R%b0, R%c1, R%b1, %s, %p"},
};
const int gen_nstreams = (int)(sizeof gen_stream_defs / sizeof *gen_stream_defs);
_Static_assert(sizeof gen_stream_defs / sizeof *gen_stream_defs <= GEN_MAX_STREAMS, "room for every stream");

/* ------------------------------------------------------------ the model's view */

/* "falu" from ".../falu.isa.txt": the family is the file an optype is defined in */
static char *family_of(const isa_optype *ot)
{
    const char *f = ot->def && ot->def->loc.file ? ot->def->loc.file : "";
    const char *slash = strrchr(f, '/');
    f = slash ? slash + 1 : f;
    size_t n = strcspn(f, ".");
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++)
        s[i] = (char)(f[i] >= 'a' && f[i] <= 'z' ? f[i] - 'a' + 'A' : f[i]);
    s[n] = 0;
    return s;
}

static int add_family(gen_tables *g, const isa_optype *ot)
{
    char *name = family_of(ot);
    if (!name)
        return -1;
    for (int i = 0; i < g->nfamilies; i++)
        if (!strcmp(g->families[i], name)) {
            free(name);
            return i;
        }
    g->families[g->nfamilies] = name;
    return g->nfamilies++;
}

/* counts[kind]: constants, uniform sources, immediates of one form */
static void count_kinds(const gisa_isa *isa, int opc, int form, int counts[3])
{
    const syntax_form *F = &isa->opcodes[opc].forms[form];
    gisa_inst probe = {.opcode = opc, .form = form};
    counts[0] = counts[1] = counts[2] = 0;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *s = &F->ops[k];
        gisa_operand o;
        gisa_inst_operand(isa, &probe, (size_t)k, &o);
        if (s->kind == OK_CMEM)
            counts[0]++;
        else if (s->kind == OK_REG && !o.written && (s->type->rclass == RC_UGPR || s->type->rclass == RC_UPRED))
            counts[1]++;
        else if (s->kind == OK_IMM)
            counts[2]++;
    }
}

/* The class of each opcode: the kind of operand it has more of than the
 * optype's other opcodes (FFMA_RRC: a constant; FFMA_RRU: a uniform
 * register; FFMA_RRI: an immediate; FFMA_RRR: none). */
static void classify(gen_tables *g)
{
    const gisa_isa *isa = g->isa;
    for (int t = 0; t < isa->noptypes; t++) {
        const isa_optype *ot = &isa->optypes[t];
        int lo[3] = {1 << 20, 1 << 20, 1 << 20};
        for (int k = 0; k < ot->nopcodes; k++) {
            int c[3];
            count_kinds(isa, ot->opcodes[k], 0, c);
            for (int j = 0; j < 3; j++)
                lo[j] = c[j] < lo[j] ? c[j] : lo[j];
        }
        for (int k = 0; k < ot->nopcodes; k++) {
            int c[3];
            count_kinds(isa, ot->opcodes[k], 0, c);
            g->ops[ot->opcodes[k]].cls = c[0] > lo[0] ? CLS_C : c[1] > lo[1] ? CLS_U : c[2] > lo[2] ? CLS_I : CLS_R;
        }
    }
}

int gen_tables_init(gen_tables *g, const gisa_isa *isa)
{
    g->isa = isa;
    g->ops = calloc((size_t)isa->nopcodes + 1, sizeof *g->ops);
    g->types = calloc((size_t)isa->noptypes + 1, sizeof *g->types);
    g->families = calloc((size_t)isa->noptypes + 1, sizeof *g->families);
    if (!g->ops || !g->types || !g->families)
        return -1;
    for (int t = 0; t < isa->noptypes; t++)
        if ((g->types[t].family = add_family(g, &isa->optypes[t])) < 0)
            return -1;
    g->max_regs = gisa_sim_max_regs(isa);
    g->cmem_banks = 64;
    g->cmem_bytes = 65536;
    for (int i = 0; i < isa->nopcodes; i++) {
        const isa_opcode *op = &isa->opcodes[i];
        gen_opcode *go = &g->ops[i];
        go->written = calloc((size_t)op->nforms * GEN_MAX_OPS + 1, 1);
        if (!go->written)
            return -1;
        for (int f = 0; f < op->nforms; f++) {
            const syntax_form *F = &op->forms[f];
            gisa_inst probe = {.opcode = i, .form = f};
            for (int k = 0; k < F->nops && k < GEN_MAX_OPS; k++) {
                const opnd_slot *s = &F->ops[k];
                gisa_operand o;
                gisa_inst_operand(isa, &probe, (size_t)k, &o);
                go->written[f * GEN_MAX_OPS + k] = (uint8_t)o.written;
                if (s->kind == OK_REG && (s->type->rclass == RC_UGPR || s->type->rclass == RC_UPRED))
                    g->has_uniform = 1;
                if (s->kind == OK_IMM && (s->type->fmt == IMM_SIGNED || s->type->fmt == IMM_UNSIGNED))
                    go->int_imm = 1;
                if (s->kind == OK_INDEXED)
                    g->has_indexed = g->has_uniform = 1;
                if (s->kind == OK_CMEM) {
                    uint64_t banks = UINT64_C(1) << s->type->bank_bits, bytes = UINT64_C(1) << s->type->offs_w;
                    g->cmem_banks = banks < g->cmem_banks ? (unsigned)banks : g->cmem_banks;
                    g->cmem_bytes = bytes < g->cmem_bytes ? (unsigned)bytes : g->cmem_bytes;
                }
            }
        }
    }
    classify(g);
    return 0;
}

void gen_tables_free(gen_tables *g)
{
    for (int i = 0; g->ops && i < g->isa->nopcodes; i++)
        free(g->ops[i].written);
    for (int i = 0; g->families && i < g->nfamilies; i++)
        free((char *)g->families[i]);
    free(g->ops);
    free(g->types);
    free(g->families);
}

/* ------------------------------------------------------------ names and modifier values */

int gen_in_scope(const gen_tables *g, name_level lv, int idx, int opcode)
{
    int t = (int)(g->isa->opcodes[opcode].optype - g->isa->optypes);
    return lv == NAME_OPCODE ? opcode == idx : lv == NAME_OPTYPE ? t == idx : g->types[t].family == idx;
}

const mod_choice *gen_form_choice(const syntax_form *F, const char *s, size_t n, int *slot)
{
    for (int j = 0; j < F->nmods; j++)
        for (int c = 0; F->mods[j].operand < 0 && c < F->mods[j].nchoices; c++)
            if ((size_t)F->mods[j].choices[c].len == n && !strncasecmp(F->mods[j].choices[c].spell, s, n))
                return *slot = j, &F->mods[j].choices[c];
    return NULL;
}

/* each value in a modifier of its own (FFMA.RM.RZ: two values of one) */
int gen_form_carries(const syntax_form *F, const gen_modsel *s)
{
    int slots[GEN_SEL_MODS];
    for (int i = 0; i < s->nmods; i++) {
        if (!gen_form_choice(F, s->mods[i], strlen(s->mods[i]), &slots[i]))
            return 0;
        for (int k = 0; k < i; k++)
            if (slots[k] == slots[i])
                return 0;
    }
    return 1;
}

int gen_sel_covers(const gen_tables *g, const gen_modsel *s, int opcode)
{
    const isa_opcode *op = &g->isa->opcodes[opcode];
    for (int f = 0; gen_in_scope(g, s->level, s->idx, opcode) && f < op->nforms; f++)
        if (gen_form_carries(&op->forms[f], s))
            return 1;
    return 0;
}

