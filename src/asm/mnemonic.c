/* Finding a statement's mnemonic among the model's: the parser's one call
 * into the model, made as soon as it has read the mnemonic (asm.h). The
 * matcher (encode.c) then starts from st->me_idx. */
#include "asm/asm.h"

void asm_find_mnemonic(const gisa_isa *isa, statement *st)
{
    /* the longest dotted prefix that names a mnemonic: IMAD.WIDE.X -> IMAD.WIDE;
     * most names are no prefix of a longer one (FFMA.RZ -> FFMA at once) */
    size_t base = st->nwords ? (size_t)(st->words[0].s - 1 - st->mnem) : st->mnem_len;
    int me_idx = strmap_get(&isa->mnemonic_by_name, st->mnem, base), k = 0;
    if (me_idx < 0 || isa->mnemonics[me_idx].longer)
        for (me_idx = -1, k = st->nwords < isa->mnemonic_dots ? st->nwords : isa->mnemonic_dots; k >= 0; k--) {
            size_t len = k ? (size_t)(st->words[k - 1].s + st->words[k - 1].n - st->mnem) : base;
            if ((me_idx = strmap_get(&isa->mnemonic_by_name, st->mnem, len)) >= 0)
                break;
        }
    st->me_idx = me_idx;
    st->first_word = k;
    if (me_idx < 0)
        return;
    /* what matching the first candidate reads first, requested now: the
     * loads overlap the parsing of the operands */
    const mnemonic_entry *me = &isa->mnemonics[me_idx];
    const asm_mnemonic *am = &isa->asm_model->mnem[me_idx];
    const asm_form *f = am->enc[0];
    __builtin_prefetch(&isa->opcodes[me->opcode[0]]);
    __builtin_prefetch(isa->opcodes[me->opcode[0]].absent);
    __builtin_prefetch(f);
    __builtin_prefetch((const char *)f + 64);
    __builtin_prefetch(f->steps);
    __builtin_prefetch(f->written.x);
    __builtin_prefetch(am->pairs);
}
