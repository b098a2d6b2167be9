/* libFuzzer harness: arbitrary source text through the assembler (first
 * byte: the target). Properties: a failure has at least one error, and every
 * error points into the text; on success every word disassembles as a valid
 * instruction whose text assembles back to the same word. */
#include <string.h>

#include "fuzz_target.h"

static void check_word(const gisa_isa *isa, gisa_word w, gisa_diags *d)
{
    char text[1024];
    gisa_word again;
    if (gisa_disassemble(isa, w, text, sizeof text) != GISA_OK)
        abort(); /* the assembler produced a word the disassembler rejects */
    gisa_diags_clear(d);
    if (gisa_assemble_one(isa, text, &again, d) != GISA_OK || memcmp(&again, &w, sizeof w))
        abort(); /* the canonical text does not round-trip */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    gisa_diags *d = gisa_diags_new();
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(isa, "fuzz.s", text, len, &words, &n, d);
    if (st != GISA_OK) {
        if (words || gisa_diags_errors(d) == 0 || !fuzz_diags_placed(d, text, len, st == GISA_ERR_NOMEM))
            abort();
    } else {
        for (size_t i = 0; i < n; i++)
            check_word(isa, words[i], d);
    }
    free(words);
    gisa_diags_free(d);
    return 0;
}
