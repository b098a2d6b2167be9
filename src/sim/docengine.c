/* The doc engine's side of the simulator: a pre-decoded word becomes a
 * compiled program (the operands the pre-decoder placed are its ports, one
 * per operand role), and the program's sim_fn hands it the lanes that
 * fetch() prepared, the current values of its results, and the result
 * arrays that write_back() writes. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "docsem/docsem.h"
#include "sim/docexec.h"
#include "sim/doclower.h"
#include "sim/engine.h"

static int is_result(int role) { return role == RO_D || role == RO_PU || role == RO_PV; }

/* P0..P6 of each lane as a byte, PT (bit 7) set: a predicate at a time,
 * so that each step is a loop over the lanes */
static void pack_pfile(const sim_warp *w, uint8_t *pf)
{
    memset(pf, 0x80, LANES);
    for (int i = 0; i < SIM_PT; i++) {
        uint8_t lanes[LANES];
        sim_unpack_pred(w->p[i], lanes);
        for (int l = 0; l < LANES; l++)
            pf[l] |= (uint8_t)(lanes[l] << i);
    }
}

/* bit i of each lane's byte, as a lane mask */
static uint32_t byte_bit(const uint8_t *bytes, int i)
{
    uint8_t lanes[LANES];
    for (int l = 0; l < LANES; l++)
        lanes[l] = bytes[l] >> i & 1;
    return sim_pack_pred(lanes);
}

/* Results beyond the ports, once the program has run without a fault: the
 * predicate file (R2P), a register written by index (SETGPR, one write per
 * row), a uniform result (R2UR: the lowest executing lane's value, as for
 * uniform predicates). */
static void write_extra(sim_exec *x, const ds_prog *p, const ds_io *io)
{
    const sim_insn *in = x->in;
    if (p->pfile_out)
        for (int i = 0; i < SIM_PT; i++)
            sim_write_pred(x, (unsigned)i, byte_bit(io->out_pfile, i), byte_bit(io->out_pfile_we, i) & x->mask);
    for (uint32_t left = io->rset_mask & x->mask; left;) {
        const uint32_t row = io->rset_row[__builtin_ctz(left)];
        uint8_t is_row[LANES];
        for (int l = 0; l < LANES; l++)
            is_row[l] = io->rset_row[l] == row;
        const uint32_t same = sim_pack_pred(is_row) & left;
        sim_write_gpr(x, row, io->rset_val, same);
        left &= ~same;
    }
    const sim_opnd *d = &in->op[RO_D];
    if (d->kind == SK_UR && (p->outs & 1u << RO_D)) {
        const int l = __builtin_ctz(x->mask);
        sim_write_ur(x, d->wr_lo, x->d[l]);
        if (d->pair)
            sim_write_ur(x, d->wr_hi, x->dh[l]);
    }
}

/* What every program reads: the ports, the mask, the warp */
static void bind_io(sim_exec *x, const sim_hot *h, ds_io *io)
{
    io->mask = x->mask;
    io->fault = NULL;
    const uint32_t *a = x->a, *b = x->b, *c = x->c, *ah = x->ah, *bh = x->bh, *ch = x->ch;
#if defined(__GNUC__)
    /* one load each: fetch() has just stored them one by one, and a load
     * of two at once (which the compiler would make) cannot take them from
     * the store buffer and waits until they reach the cache */
    __asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(ah), "+r"(bh), "+r"(ch));
#endif
    io->lo[RO_A] = a;
    io->hi[RO_A] = ah;
    io->lo[RO_B] = b;
    io->hi[RO_B] = bh;
    io->lo[RO_C] = c;
    io->hi[RO_C] = ch;
    io->pred[RO_PP] = x->pp;
    io->pred[RO_PQ] = x->pq;
    io->pred[RO_PA] = x->pa;
    io->pred[RO_PB] = x->pb;
    io->pred[RO_PC] = x->pc;
    io->out_lo[RO_D] = x->d;
    io->out_hi[RO_D] = x->dh;
    io->out_pred[RO_PU] = x->pu;
    io->out_pred[RO_PV] = x->pv;
    io->active = x->w->active;
    io->guard = h->guard_not ? ~x->w->p[h->guard] : x->w->p[h->guard];
    io->regs = x->w->r;
    io->nregs = x->regs;
}

/* The program's fault, if it faulted, as the word's (returns 1 then); its
 * message may live in io: the warp's buffer keeps it */
static int take_fault(sim_exec *x, const ds_io *io)
{
    if (!io->fault)
        return 0;
    snprintf(x->fault_buf, sizeof x->fault_buf, "%s", io->fault);
    x->fault = io->fault == io->fault_buf ? x->fault_buf : io->fault;
    x->fault_lane = io->fault_lane;
    return 1;
}

/* A word whose program needs nothing beyond bind_io (doc_is_plain): the
 * usual case, which reads no line of its sim_insn */
static void op_doc_plain(sim_exec *x)
{
    ds_io io;
    bind_io(x, x->hot, &io);
    sim_doc_run(x->hot->doc, &io);
    take_fault(x, &io);
}

static void op_doc(sim_exec *x)
{
    const sim_insn *in = x->in;
    const ds_prog *p = in->doc;
    ds_io io;
    /* the port arrays are set for the ports the program uses and read for
     * no others; the lane arrays after rset_row are written before they are
     * read: only the fields between are cleared */
    memset(&io.mask, 0, offsetof(ds_io, rset_row) - offsetof(ds_io, mask));
    bind_io(x, x->hot, &io);
    const sim_opnd *d = &in->op[RO_D];
    if (p->olds & 1u << RO_D) {
        io.old_lo[RO_D] = x->w->r + (size_t)d->rd_lo * LANES;
        io.old_hi[RO_D] = x->w->r + (size_t)d->rd_hi * LANES;
    }
    uint8_t old_pu[LANES], old_pv[LANES];
    if (p->pred_olds & 1u << RO_PU) {
        sim_unpack_pred(x->w->p[in->op[RO_PU].rd_lo], old_pu);
        io.old_pred[RO_PU] = old_pu;
    }
    if (p->pred_olds & 1u << RO_PV) {
        sim_unpack_pred(x->w->p[in->op[RO_PV].rd_lo], old_pv);
        io.old_pred[RO_PV] = old_pv;
    }
    /* results the program leaves alone keep their values (which they have
     * where the program writes the rows themselves: SIM_HOT_DIRECT) */
    if (d->kind == SK_GPR && !(p->outs & 1u << RO_D) && x->d == x->d_buf) {
        memcpy(x->d, x->w->r + (size_t)d->rd_lo * LANES, LANES * sizeof *x->d);
        memcpy(x->dh, x->w->r + (size_t)d->rd_hi * LANES, LANES * sizeof *x->dh);
    }
    if (!(p->pred_outs & 1u << RO_PU) && in->op[RO_PU].kind == SK_PRED)
        sim_unpack_pred(x->w->p[in->op[RO_PU].rd_lo], x->pu);
    if (!(p->pred_outs & 1u << RO_PV) && in->op[RO_PV].kind == SK_PRED)
        sim_unpack_pred(x->w->p[in->op[RO_PV].rd_lo], x->pv);
    uint8_t pfile[LANES], out_pfile[LANES], out_pfile_we[LANES];
    uint32_t idx[LANES];
    if (p->pfile_in) {
        pack_pfile(x->w, pfile);
        io.pfile = pfile;
    }
    io.out_pfile = out_pfile;
    io.out_pfile_we = out_pfile_we;
    if (in->op[RO_IDX].kind == SK_INDEXED) { /* URb of R[URb+SImm9] */
        for (int l = 0; l < LANES; l++)
            idx[l] = x->w->ur[in->op[RO_IDX].rd_lo];
        io.lo[RO_IDX] = io.hi[RO_IDX] = idx;
    }
    uint32_t old_ur[2][LANES];
    if (d->kind == SK_UR && (p->olds & 1u << RO_D)) {
        for (int l = 0; l < LANES; l++) {
            old_ur[0][l] = x->w->ur[d->rd_lo];
            old_ur[1][l] = x->w->ur[d->rd_hi];
        }
        io.old_lo[RO_D] = old_ur[0];
        io.old_hi[RO_D] = old_ur[1];
    }
    sim_doc_run(p, &io);
    if (!take_fault(x, &io))
        write_extra(x, p, &io);
}

/* Whether word in's program needs no more than op_doc_plain gives it: no
 * old value of a result, no predicate file, no register by index, no
 * uniform result, and every result it leaves alone one that write-back
 * does not write (absent, or PT) */
static int doc_is_plain(const sim_insn *in, const ds_prog *p)
{
    if (p->olds || p->pred_olds || p->pfile_in || p->pfile_out || p->rset || in->op[RO_IDX].kind != SK_NONE)
        return 0;
    const sim_opnd *d = &in->op[RO_D];
    if (d->kind != SK_NONE && (d->kind != SK_GPR || !(p->outs & 1u << RO_D)))
        return 0;
    static const sim_role preds[2] = {RO_PU, RO_PV};
    for (int i = 0; i < 2; i++) {
        const sim_opnd *o = &in->op[preds[i]];
        if ((o->kind == SK_PRED || o->kind == SK_UPRED) && o->wr_lo < SIM_PT && !(p->pred_outs & 1u << preds[i]))
            return 0;
    }
    return 1;
}

const sim_opdef sim_doc_opdef = {"(doc)", op_doc, NULL, 0, NULL, 0, 0, NULL, NULL, NULL};
static const sim_opdef doc_plain_opdef = {"(doc)", op_doc_plain, NULL, 0, NULL, 0, 0, NULL, NULL, NULL};

/* Words that compile to the same program (the same form and modifiers,
 * other registers) share one: a warp then runs one copy of its operations,
 * which stays in the caches near the core. A word looks for its program
 * among the SHARE_WINDOW words before it. */
#define SHARE_WINDOW 256

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * UINT64_C(0x100000001b3); }

static uint64_t prog_hash(const ds_prog *p)
{
    uint64_t h = mix(mix(UINT64_C(0xcbf29ce484222325), (uint64_t)p->nops), (uint64_t)p->nslots);
    h = mix(mix(h, p->outs | (uint64_t)p->pred_outs << 32), p->olds | (uint64_t)p->pred_olds << 32);
    h = mix(h, (uint64_t)p->lane_bits | (uint64_t)p->pfile_in << 8 | (uint64_t)p->pfile_out << 16 | (uint64_t)p->rset << 24);
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        h = mix(h, (uint64_t)o->code | (uint64_t)o->fmt << 8 | (uint64_t)o->rnd << 16 | (uint64_t)o->bk << 24 |
                       (uint64_t)o->width << 32 | (uint64_t)o->d << 40);
        h = mix(h, (uint64_t)o->a | (uint64_t)o->b << 16 | (uint64_t)o->c << 32 | (uint64_t)(uint32_t)o->k << 48);
        h = mix(mix(h, (uint64_t)o->imm), (uint64_t)((unsigned __int128)o->imm >> 64));
    }
    return h;
}

static int same_op(const ds_op *x, const ds_op *y)
{
    return x->code == y->code && x->fmt == y->fmt && x->rnd == y->rnd && x->bk == y->bk && x->width == y->width &&
           x->d == y->d && x->a == y->a && x->b == y->b && x->c == y->c && x->k == y->k && x->imm == y->imm;
}

static int same_prog(const ds_prog *x, const ds_prog *y)
{
    if (x->run_hash != y->run_hash || x->nops != y->nops || x->nslots != y->nslots || x->outs != y->outs ||
        x->pred_outs != y->pred_outs || x->olds != y->olds || x->pred_olds != y->pred_olds ||
        x->variant != y->variant || x->pfile_in != y->pfile_in || x->pfile_out != y->pfile_out ||
        x->rset != y->rset || x->lane_bits != y->lane_bits || x->nstrings != y->nstrings || x->fault || y->fault)
        return 0;
    for (int i = 0; i < x->nops; i++)
        if (!same_op(&x->ops[i], &y->ops[i]))
            return 0;
    for (int i = 0; i < x->nstrings; i++)
        if (strcmp(x->strings[i], y->strings[i]) != 0)
            return 0;
    return 1;
}

/* p, or the program of an earlier word that computes the same (p freed) */
static ds_prog *share(const gisa_sim *s, const sim_insn *in, ds_prog *p)
{
    p->run_hash = prog_hash(p);
    if (!s->prog || in < s->prog || in >= s->prog + s->nprog)
        return p;
    const size_t pc = (size_t)(in - s->prog);
    for (size_t back = 1; back <= SHARE_WINDOW && back <= pc; back++) {
        ds_prog *q = s->prog[pc - back].doc;
        if (q && same_prog(p, q)) {
            ds_prog_free(p);
            q->run_shares++;
            return q;
        }
    }
    return p;
}

/* The engine's prepare: the compiled program of the word, whose ports are
 * the operands' roles */
static const char *doc_prepare(const gisa_sim *s, const isa_opcode *op, const syntax_form *F, const gisa_inst *inst,
                               const signed char *roles, const sim_opdef *def, sim_insn *in, char *why, size_t cap)
{
    (void)def;
    in->def = &sim_doc_opdef;
    ds_operand ops[2 * SIM_MAX_SLOTS]; /* R[URb+SImm9] is two */
    int n = 0;
    for (int k = 0; k < F->nops; k++) {
        const opnd_slot *sl = &F->ops[k];
        if (sl->kind == OK_PR) {
            ds_operand *d = &ops[n++];
            memset(d, 0, sizeof *d);
            d->name = sl->name;
            d->pfile = 1;
            continue;
        }
        if (sl->kind == OK_INDEXED && sl->index_field >= 0) { /* SImm9 of R[URb+SImm9], by its type's name */
            ds_operand *d = &ops[n++];
            memset(d, 0, sizeof *d);
            d->name = op->fields[sl->index_field].type->name;
            d->port = RO_IMM;
            d->is_const = 1;
            d->is_signed = 1;
            d->value = (uint64_t)(int64_t)in->op[RO_IDX].disp;
        }
        int r = roles[k];
        if (r < 0)
            continue;
        const sim_opnd *o = &in->op[r];
        ds_operand *d = &ops[n++];
        memset(d, 0, sizeof *d);
        d->name = sl->name;
        d->port = r;
        d->out = (uint8_t)is_result(r);
        d->pred = o->kind == SK_PRED || o->kind == SK_UPRED;
        d->pair = o->pair;
        d->neg = o->neg;
        d->abs = o->abs;
        d->inv = o->inv;
        d->is_const = o->kind == SK_CONST || o->kind == SK_CMEM;
        d->value = o->imm;
        /* RZ and PT read as constants, and what is written there is lost:
         * the compiler folds the one and drops the other */
        int pred = o->kind == SK_PRED || o->kind == SK_UPRED;
        if (!d->out && o->kind == SK_GPR && o->rd_lo == s->regs && (!o->pair || o->rd_hi == s->regs)) {
            d->is_const = 1;
            d->value = 0;
        } else if (!d->out && pred && o->rd_lo == SIM_PT) {
            d->is_const = 1;
            d->value = !o->pnot;
        }
        d->discard = (uint8_t)(d->out && ((pred && o->wr_lo >= SIM_PT) ||
                                          (o->kind == SK_GPR && o->wr_lo == s->regs + 1 &&
                                           (!o->pair || o->wr_hi == s->regs + 1))));
        if (d->out && o->kind != SK_GPR && o->kind != SK_UR && !d->pred) {
            snprintf(why, cap, "result %s of %s is not supported by the doc engine", sl->name, op->name);
            return why;
        }
    }
    ds_insn di = {s->isa, op, F, inst->field, ops, n};
    in->doc = ds_compile(&di, why, cap);
    if (!in->doc)
        return why;
    in->doc = share(s, in, in->doc);
    if (!in->doc->run_ops)
        sim_doc_lower(in->doc);
    if (doc_is_plain(in, in->doc))
        in->def = &doc_plain_opdef;
    return NULL;
}

static void doc_release(sim_insn *in)
{
    if (in->doc && in->doc->run_shares > 0)
        in->doc->run_shares--;
    else
        ds_prog_free(in->doc);
    in->doc = NULL;
}

const sim_engine sim_engine_doc = {"doc", GISA_ENGINE_DOC, doc_prepare, doc_release};
