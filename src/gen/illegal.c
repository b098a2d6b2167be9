/* Words the decoder refuses, for --illegal-rate: each of the kinds of
 * reason gisa_decode reports (decoder_explain), made from a random word or
 * from a valid instruction of the model with one thing broken:
 *   fixed bits      a random word: "no opcode has these fixed bits"
 *   uncovered bit   a bit no field of the opcode covers, set: "OP: bit N is
 *                   set but no field covers it"
 *   unnamed value   an enumerated field given a value without a name: "OP:
 *                   field F = V is no value of T"
 *   syntax form     a field given a random value the forms refuse (an odd
 *                   register pair, a misaligned constant, an __Exception
 *                   rule, a pinned bit): "OP: why"
 * The word is judged by gisa_decode, and kept only when its reason is of
 * the kind drawn. */
#include <stdio.h>
#include <string.h>

#include "gen/gen.h"

const char *const gen_illegal_names[GEN_ILLEGAL_KINDS] = {"fixed bits", "uncovered bit", "unnamed value",
                                                          "syntax form"};

int gen_illegal_kind(const char *why)
{
    if (!strcmp(why, "no opcode has these fixed bits"))
        return IL_FIXED;
    if (strstr(why, " is set but no field covers it"))
        return IL_UNCOVERED;
    if (strstr(why, " is no value of "))
        return IL_UNNAMED;
    return IL_FORM;
}

static uint64_t mask_of(int width) { return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1; }

/* One attempt at a word of `kind`; 0 when gisa_decode refuses it for that kind. */
static int try_kind(const gisa_gen *g, gen_run *run, int kind, gisa_word *w, gisa_inst *out)
{
    const gisa_isa *isa = g->t.isa;
    gen_rng *r = &run->rng;
    int bits = isa->word_bits;
    if (kind == IL_FIXED) {
        w->w[0] = bits < 64 ? gen_next(r) & mask_of(bits) : gen_next(r);
        w->w[1] = bits > 64 ? gen_next(r) & mask_of(bits - 64) : 0;
    } else {
        int opc = (int)gen_below(r, (uint64_t)isa->nopcodes);
        const isa_opcode *op = &isa->opcodes[opc];
        if (!gen_opcode_allowed(g, opc) || gen_pick(g, run, opc, NULL, out))
            return -1;
        *w = out->word;
        if (kind == IL_UNCOVERED) {
            int b = (int)gen_below(r, (uint64_t)bits);
            if (word_get_bit(&op->covered, b))
                return -1;
            w->w[b >> 6] |= UINT64_C(1) << (b & 63);
        } else {
            int i = (int)gen_below(r, (uint64_t)op->nfields);
            const field_x *x = &op->fx[i];
            uint64_t v = gen_next(r);
            if (kind == IL_UNNAMED) {
                if (!x->named || !x->enum_width)
                    return -1;
                v &= mask_of(x->enum_width);
                if (x->named[v])
                    return -1;
            }
            word_set(w, x->off, x->width, v & mask_of(x->width));
        }
    }
    return gisa_decode(isa, *w, out) != GISA_OK && gen_illegal_kind(out->why) == kind ? 0 : -1;
}

int gen_illegal(const gisa_gen *g, gen_run *r, gisa_word *w, char *why, size_t cap)
{
    int first = (int)gen_below(&r->rng, GEN_ILLEGAL_KINDS);
    gisa_inst inst;
    for (int k = 0; k < GEN_ILLEGAL_KINDS; k++) { /* the kind drawn, else the next one the model allows */
        int kind = (first + k) % GEN_ILLEGAL_KINDS;
        for (int tries = 0; tries < 256; tries++)
            if (try_kind(g, r, kind, w, &inst) == 0) {
                snprintf(why, cap, "%s", inst.why);
                return kind;
            }
    }
    return -1;
}
