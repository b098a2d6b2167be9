/* libFuzzer harness: arbitrary bytes as instruction words. Byte 0 picks the
 * target, byte 1 how the rest becomes words: a binary image or hex text
 * (both through gisa_words_parse), or raw words. Properties: a word printed
 * as valid assembles back to exactly its bits; any other prints `.invalid`;
 * gisa_decode/encode/print and the accessors agree with that (check_inst);
 * a short buffer receives a NUL-terminated prefix of the text; a rejected
 * image has at least one error. */
#include <string.h>

#include "fuzz_target.h"

/* The decoded-instruction API agrees with the text: decode fails exactly
 * for `.invalid` words, with the reason the text gives; otherwise encode
 * gives the word back, print gives the text, the accessors walk every
 * operand and modifier, and a field changed to `noise` either encodes to a
 * word that decodes or is refused. */
static void check_inst(const gisa_isa *isa, gisa_word w, gisa_status st, const char *text, uint64_t noise)
{
    gisa_inst in;
    gisa_status ds = gisa_decode(isa, w, &in);
    if ((ds == GISA_OK) != (st == GISA_OK))
        abort();
    if (ds != GISA_OK) {
        const char *why = strstr(text, " // ");
        if (!why || strcmp(why + 4, in.why))
            abort(); /* decode's reason is the one `.invalid` prints */
        return;
    }
    char printed[1024];
    gisa_word back;
    gisa_inst e = in;
    if (gisa_encode(isa, &e, &back) != GISA_OK || memcmp(&back, &w, sizeof w) ||
        gisa_print(isa, &in, printed, sizeof printed) != GISA_OK || strcmp(printed, text))
        abort();
    gisa_operand o;
    gisa_modifier m;
    for (size_t i = 0; i < gisa_inst_operand_count(isa, &in); i++)
        if (gisa_inst_operand(isa, &in, i, &o) != GISA_OK || !o.name)
            abort();
    for (size_t i = 0; i < gisa_inst_modifier_count(isa, &in); i++)
        if (gisa_inst_modifier(isa, &in, i, &m) != GISA_OK || !m.name)
            abort();
    size_t nf = gisa_inst_field_count(isa, &in);
    if (nf) {
        e = in;
        e.field[noise % nf] = noise >> 8;
        gisa_status es = gisa_encode(isa, &e, &back);
        gisa_inst again;
        if (es == GISA_OK && gisa_decode(isa, back, &again) != GISA_OK)
            abort(); /* encode accepted what decode refuses */
        if (es != GISA_OK && !e.why[0])
            abort(); /* a refusal always says why */
    }
}

static void check_word(const gisa_isa *isa, gisa_word w, size_t small_cap, gisa_diags *d)
{
    char text[1024], small[64];
    gisa_status st = gisa_disassemble(isa, w, text, sizeof text, NULL);
    check_inst(isa, w, st, text, w.w[0] ^ w.w[1] >> 7);
    if (st == GISA_OK) {
        gisa_word again;
        gisa_diags_clear(d);
        if (api_asm_one(isa, text, &again, d) != GISA_OK || memcmp(&again, &w, sizeof w))
            abort(); /* printed as valid but does not re-assemble to the same bits */
    } else if (st != GISA_ERR_INPUT || strncmp(text, ".invalid ", 9)) {
        abort();
    }
    memset(small, 'x', sizeof small);
    gisa_status ss = gisa_disassemble(isa, w, small, small_cap, NULL);
    size_t sl = strnlen(small, small_cap);
    if (sl >= small_cap || strncmp(small, text, sl))
        abort(); /* not terminated within the buffer, or not a prefix */
    if ((ss == GISA_ERR_TRUNCATED) != (strlen(text) >= small_cap) || (ss != GISA_ERR_TRUNCATED && ss != st))
        abort(); /* cut exactly when the text does not fit, else the word's own status */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    unsigned mode = data[1] % 3;
    size_t small_cap = 1 + data[1] / 3 % 63;
    data += 2;
    size -= 2;
    gisa_diags *d = api_diags();
    gisa_word *words = NULL;
    size_t n = 0;
    if (mode < 2) {
        gisa_status st = gisa_words_parse(isa, (const char *)data, size, mode == 1, &words, &n, d);
        if (st != GISA_OK && (words || gisa_diags_errors(d) == 0))
            abort();
    } else {
        /* raw words; a 64-bit target's word lives in w[0] alone */
        n = size / 16;
        words = calloc(n ? n : 1, sizeof *words);
        for (size_t i = 0; i < n; i++) {
            memcpy(words[i].w, data + 16 * i, 16);
            if (gisa_isa_word_bits(isa) == 64)
                words[i].w[1] = 0;
        }
    }
    for (size_t i = 0; i < n; i++)
        check_word(isa, words[i], small_cap, d);
    free(words);
    gisa_diags_free(d);
    return 0;
}
