/* libFuzzer harness: arbitrary bytes as ISA description files. Byte 0 picks
 * the target, byte 1 what the text is loaded with:
 *   0: alone (split into files at each "\n@@@\n");
 *   1: after the target's types.isa;
 *   2: replacing one of the target's files (byte 1 / 4 picks which);
 *   3: added to all of the target's files.
 * Properties: a failed load has at least one error; a good one lints, and
 * documents the list and every optype and opcode, without crashing. */
#include <string.h>

#include "fuzz_target.h"
#include "spec/embedded.h"

#define MAX_FILES 64
#define SEPARATOR "\n@@@\n"

/* Splits text into files at SEPARATOR; returns how many were added. */
static size_t split(const char *text, size_t len, gisa_source *src, size_t room)
{
    static const char *const names[] = {"fuzz0.isa", "fuzz1.isa", "fuzz2.isa", "fuzz3.isa"};
    size_t n = 0, sl = strlen(SEPARATOR);
    while (n < room) {
        const char *sep = NULL;
        for (size_t i = 0; i + sl <= len && !sep; i++)
            if (!memcmp(text + i, SEPARATOR, sl))
                sep = text + i;
        size_t part = sep ? (size_t)(sep - text) : len;
        src[n] = (gisa_source){names[n % 4], text, part};
        n++;
        if (!sep)
            break;
        text = sep + sl;
        len -= part + sl;
    }
    return n;
}

/* The target's embedded files (or only its types.isa when `types_only`). */
static size_t target_files(const char *target, int types_only, gisa_source *src, size_t room)
{
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count && n < room; i++) {
        const gisa_embedded_file *f = &gisa_embedded_files[i];
        if (!strcmp(f->target, target) && (!types_only || !strcmp(f->name, "types.isa")))
            src[n++] = (gisa_source){f->name, f->text, f->len};
    }
    return n;
}

/* Every listed name, and the list itself, must have a reference text. */
static void document(const gisa_isa *isa, const char *name)
{
    gisa_status st;
    char *text = api_doc(isa, name, &st);
    if (!text)
        abort();
    free(text);
}

static void exercise(const gisa_isa *isa)
{
    gisa_diags *d = api_diags();
    gisa_isa_lint(isa, d);
    gisa_diags_free(d);
    document(isa, NULL);
    for (size_t i = 0; i < gisa_isa_optype_count(isa); i++)
        document(isa, gisa_isa_optype_name(isa, i));
    for (size_t i = 0; i < gisa_isa_opcode_count(isa); i++)
        document(isa, gisa_isa_opcode_name(isa, i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const char *target = gisa_target_name(fuzz_target_index(data[0]));
    unsigned mode = data[1] % 4, which = data[1] / 4;
    const char *text = (const char *)data + 2;
    size_t len = size - 2, n = 0;
    gisa_source src[MAX_FILES];
    if (mode == 1)
        n = target_files(target, 1, src, MAX_FILES);
    else if (mode >= 2)
        n = target_files(target, 0, src, MAX_FILES - 1);
    if (mode == 2 && n)
        src[which % n] = (gisa_source){src[which % n].name, text, len};
    else
        n += split(text, len, src + n, MAX_FILES - n);
    gisa_diags *d = api_diags();
    gisa_isa *isa = NULL;
    gisa_status st = api_load_sources(src, n, &isa, d);
    if (st != GISA_OK && (isa || gisa_diags_errors(d) == 0))
        abort(); /* a failed load must say why */
    if (isa)
        exercise(isa);
    gisa_isa_free(isa);
    gisa_diags_free(d);
    return 0;
}
