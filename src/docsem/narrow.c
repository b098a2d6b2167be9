/* The narrowest lanes a compiled program can run on (prog.h's lane_bits):
 * 32, 64 or 128 bits.
 *
 * The language's integers are 128 bits wide; most programs never need more
 * than 32 or 64 of them. A slot held in L bits keeps its true value t as v
 * with v == t mod 2^L where nothing wrong came in, and v == t (as a signed
 * L-bit number) when also t lies in [-2^(L-1), 2^(L-1)): then the slot is
 * exact. Additions, multiplications, bitwise operations, left shifts, bit
 * fields and insertions below bit L, the floating-point operations and the
 * output ports only look at the low bits of what they read, so they need
 * only those to be right; comparisons, divisions, conditions and indices
 * look at the whole value, so what they read must be exact. A right shift
 * by k brings the wrong bits of an inexact value k places down. So each
 * slot gets a bound on its signed width and the number of its low bits that
 * are right, computed the way opt.c computes unsigned widths: forward,
 * until they settle, over every definition of the slot; then every read is
 * checked against what its operation needs. */
#include <string.h>

#include "docsem/compile.h"

typedef struct widths {
    int nslots;
    uint8_t sbits[DS_MAX_SLOTS]; /* every value is in [-2^(n-1), 2^(n-1)); 128: any */
    uint8_t good[DS_MAX_SLOTS];  /* the low bits of the L held that are right */
    int lane;                    /* L */
} widths;

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* the signed width of a constant */
static int sbits_of(ds_int v)
{
    int n = 1;
    while (n < 128 && !(v >= -((ds_int)1 << (n - 1)) && v < ((ds_int)1 << (n - 1))))
        n++;
    return n;
}

static int slot_bits(const widths *w, int s) { return s >= 0 && s < w->nslots ? w->sbits[s] : 128; }
static int slot_good(const widths *w, int s) { return s >= 0 && s < w->nslots ? w->good[s] : 0; }

/* a bound on the signed width of o's result */
static int result_sbits(const ds_op *o, const widths *w)
{
    const int a = slot_bits(w, o->a), c = slot_bits(w, o->c);
    const int b = o->bk ? sbits_of(o->imm) : slot_bits(w, o->b);
    const int fmt = ds_fmt_bits(o->fmt);
    switch ((ds_opcode)o->code) {
    case DO_CONST: return sbits_of(o->imm);
    case DO_IN: case DO_OLD: return o->width == 64 ? 65 : 33;
    case DO_INPRED: case DO_OLDPRED: case DO_LT: case DO_LE: case DO_GT: case DO_GE: case DO_EQ: case DO_NE:
    case DO_LAND: case DO_LOR: case DO_LNOT: case DO_FCMP: case DO_FISNAN: case DO_FISSUB:
        return 2;
    case DO_MOV: case DO_NOT: return a;
    case DO_STORE: return o->bk ? sbits_of(o->imm) : a;
    case DO_ADD: case DO_SUB: return imax(a, b) + 1;
    case DO_MUL: return a + b;
    case DO_AND:
        if (o->bk && o->imm >= 0)
            return b; /* a non-negative mask bounds the result */
        return imax(a, b);
    case DO_OR: case DO_XOR: case DO_MIN: case DO_MAX: case DO_FMIN: case DO_FMAX: return imax(a, b);
    case DO_NEG: case DO_ABS: return a + 1;
    case DO_SHL: return o->bk && o->imm >= 0 && o->imm < 128 ? a + (int)o->imm : 128;
    case DO_SHR: /* o->width: the value is in [0, 2^width) (opt.c), and so is the result */
        return imin(o->bk && o->imm >= 0 ? imax(a - (int)imin(127, (int)o->imm), 1) : a, o->width ? o->width + 1 : 128);
    case DO_DIV: case DO_CDIV: return a + 1;
    case DO_MOD: return b;
    case DO_BITS: return o->width + 1;
    case DO_SEXT: return o->width;
    case DO_INSERT: return imax(a, o->k + o->width + 1);
    case DO_SEL: return imax(b, c);
    case DO_LUT3: return o->width + 1;
    case DO_FADD: case DO_FMUL: case DO_FFMA: case DO_FCVT: return fmt + 1;
    case DO_LANEMASK: case DO_RGET: return 33;
    case DO_CTZ: return 9;
    case DO_INPFILE: return 9;
    case DO_LANE: return a;
    default: return 128;
    }
}

/* does o write slot d (as opt.c's shape() says)? */
static int defines(const ds_op *o)
{
    switch ((ds_opcode)o->code) {
    case DO_IF: case DO_ELSE: case DO_ENDIF: case DO_FAULT: case DO_OUT: case DO_OUTPRED: case DO_OUTPFILE:
    case DO_RSET: case DO_COUNT:
        return 0;
    default: return 1;
    }
}

enum { EXACT = 128 };

/* What o needs of what it reads (need[0..2] for a, b, c): 0 nothing, n in
 * 1..64 its low n bits, EXACT the whole value; an immediate b is checked as
 * a slot would be. Returns 0 when o cannot run on lanes that wide at all. */
static int needs(const ds_op *o, int need[3], int lane)
{
    need[0] = need[1] = need[2] = 0;
    switch ((ds_opcode)o->code) {
    case DO_CONST: case DO_IN: case DO_INPRED: case DO_OLD: case DO_OLDPRED: case DO_MOV: case DO_STORE:
    case DO_ADD: case DO_SUB: case DO_MUL: case DO_AND: case DO_OR: case DO_XOR: case DO_NOT: case DO_NEG:
    case DO_ELSE: case DO_ENDIF: case DO_LANEMASK: case DO_INPFILE:
        return 1;
    case DO_SHL: need[1] = EXACT; return 1; /* the amount decides whether anything is left */
    case DO_SHR:
        if (!(o->bk && o->imm >= 0 && o->imm <= 127)) {
            /* a value in [0, 2^width) whose lane bits are right is what a
             * logical shift of the lane needs (the executor's, for such a
             * shift) */
            need[0] = o->width && o->width <= lane && lane <= 64 ? lane : EXACT;
            need[1] = EXACT;
        }
        return 1;
    case DO_BITS: case DO_INSERT: return o->k >= 0 && o->k + o->width <= lane;
    case DO_SEXT: return o->width > 0 && o->width <= lane;
    case DO_LUT3: return o->width <= lane;
    case DO_FADD: case DO_FMUL: case DO_FFMA: case DO_FCMP: case DO_FMIN: case DO_FMAX:
        need[0] = need[1] = ds_fmt_bits(o->fmt);
        need[2] = o->code == DO_FFMA ? need[0] : 0;
        return 1;
    case DO_FISNAN: case DO_FISSUB: need[0] = ds_fmt_bits(o->fmt); return 1;
    case DO_FCVT: need[0] = ds_fmt_bits(o->k); return 1;
    case DO_OUT: need[0] = o->width == 64 ? 64 : 32; return 1;
    case DO_OUTPFILE: need[0] = need[1] = 8; return 1;
    case DO_RSET: need[0] = EXACT; need[1] = 32; return 1;
    case DO_SEL: case DO_IF: case DO_FAULT: case DO_OUTPRED: case DO_LNOT: case DO_ABS: case DO_CTZ: case DO_RGET:
        need[0] = EXACT;
        return 1;
    case DO_LANE: need[1] = EXACT; return 1;
    case DO_DIV: case DO_CDIV: case DO_MOD: case DO_LT: case DO_LE: case DO_GT: case DO_GE: case DO_EQ: case DO_NE:
    case DO_MIN: case DO_MAX: case DO_LAND: case DO_LOR:
        need[0] = need[1] = EXACT;
        return 1;
    default: return 0;
    }
}

static int is_exact(const widths *w, int s) { return slot_bits(w, s) <= w->lane && slot_good(w, s) >= w->lane; }

/* how many low bits of o's result are right (L: all of them, modulo 2^L) */
static int result_good(const ds_op *o, const widths *w)
{
    const int L = w->lane, a = slot_good(w, o->a), b = o->bk ? L : slot_good(w, o->b), c = slot_good(w, o->c);
    const int k = o->k, width = o->width;
    switch ((ds_opcode)o->code) {
    case DO_MOV: case DO_NOT: case DO_NEG: case DO_LANE: return a;
    case DO_STORE: return o->bk ? L : a;
    case DO_AND:
        if (o->bk && o->imm >= 0 && sbits_of(o->imm) - 1 <= a)
            return L; /* the mask clears every bit that may be wrong */
        return imin(a, b);
    case DO_ADD: case DO_SUB: case DO_MUL: case DO_OR: case DO_XOR: case DO_FMIN: case DO_FMAX: return imin(a, b);
    case DO_SEL: return imin(b, c);
    case DO_SHL: return o->bk && o->imm >= 0 && o->imm <= 127 ? imin(a + (int)o->imm, L) : a;
    case DO_SHR:
        if (!(o->bk && o->imm >= 0 && o->imm <= 127) || is_exact(w, o->a))
            return L;
        return imax(a - (int)o->imm, 0); /* the arithmetic shift brings wrong bits down */
    case DO_BITS: return a >= k + width ? L : imax(a - k, 0);
    case DO_INSERT: return imin(a, b >= width ? L : k + b);
    case DO_SEXT: return a >= width ? L : a;
    case DO_LUT3: return imin(imin(a, b), c) >= width ? L : imin(imin(a, b), c);
    default: return L;
    }
}

/* whether p runs on lanes of `lane` bits */
static int fits(const ds_prog *p, int lane)
{
    widths w;
    w.nslots = p->nslots;
    w.lane = lane;
    /* a slot nobody writes holds anything; one that is written starts empty */
    memset(w.sbits, 128, sizeof w.sbits);
    memset(w.good, 0, sizeof w.good);
    for (int i = 0; i < p->nops; i++)
        if (defines(&p->ops[i]) && p->ops[i].d < DS_MAX_SLOTS) {
            w.sbits[p->ops[i].d] = 1;
            w.good[p->ops[i].d] = (uint8_t)lane;
        }
    /* widths only grow and right bits only shrink: sweeps until they settle */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < p->nops; i++) {
            const ds_op *o = &p->ops[i];
            if (!defines(o) || o->d >= DS_MAX_SLOTS)
                continue;
            const int r = imin(result_sbits(o, &w), 128), g = result_good(o, &w);
            if (r > w.sbits[o->d]) {
                w.sbits[o->d] = (uint8_t)r;
                changed = 1;
            }
            if (g < w.good[o->d]) {
                w.good[o->d] = (uint8_t)g;
                changed = 1;
            }
        }
    }
    for (int i = 0; i < p->nops; i++) {
        const ds_op *o = &p->ops[i];
        int need[3];
        if (!needs(o, need, lane))
            return 0;
        const int reads[3] = {o->a, o->b, o->c};
        for (int r = 0; r < 3; r++) {
            if (!need[r])
                continue;
            if (r == 1 && o->bk) { /* an immediate: whole, or cut to L bits */
                if (need[r] == EXACT && sbits_of(o->imm) > lane)
                    return 0;
                continue;
            }
            if (need[r] == EXACT ? !is_exact(&w, reads[r]) : need[r] > lane || slot_good(&w, reads[r]) < need[r])
                return 0;
        }
    }
    return 1;
}

int ds_lane_bits(const ds_prog *p)
{
    return fits(p, 32) ? 32 : fits(p, 64) ? 64 : 128;
}
