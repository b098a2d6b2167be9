/* libFuzzer harness: arbitrary source text through the assembler (first
 * byte: the target). The rest is one or more files separated by lines
 * "%%": the first is fuzz.s, the others f1.s, f2.s, ..., which
 * `.include "fN.s"` reads through an in-memory reader (any other name is
 * a missing file). Properties: a failure has at least one error, and every
 * error points into the text of the file it names; on success every word,
 * an instruction or a raw word of .inst/.word/.invalid, disassembles to a
 * text (canonical, or `.invalid 0x... // why`) that assembles back to the
 * same word; the line callback sees the main file's lines in order and
 * accounts for every word once. */
#include <stdio.h>
#include <string.h>

#include "fuzz_target.h"

#define MAX_FILES 8

typedef struct files {
    const char *text[MAX_FILES];
    size_t len[MAX_FILES];
    char name[MAX_FILES][8];
    int n;
    /* the line callback's view */
    size_t words_seen;
    int last_main_line;
} files;

/* The first "\n%%\n" in text[len], or NULL. */
static const char *separator(const char *text, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(text + i, "\n%%\n", 4))
            return text + i;
    return NULL;
}

static void split(files *fs, const char *text, size_t len)
{
    fs->n = 0;
    while (fs->n < MAX_FILES - 1) {
        const char *p = separator(text, len);
        if (!p)
            break;
        fs->text[fs->n] = text;
        fs->len[fs->n++] = (size_t)(p - text) + 1;
        len -= (size_t)(p - text) + 4;
        text = p + 4;
    }
    fs->text[fs->n] = text;
    fs->len[fs->n++] = len;
    for (int i = 0; i < fs->n; i++)
        snprintf(fs->name[i], sizeof fs->name[i], i ? "f%d.s" : "fuzz.s", i);
}

static int find(const files *fs, const char *name)
{
    for (int i = 0; i < fs->n; i++)
        if (!strcmp(fs->name[i], name))
            return i;
    return -1;
}

static gisa_status reader(void *user, const char *from, const char *name, gisa_include *inc, char *why, size_t cap)
{
    const files *fs = user;
    int i = find(fs, name);
    if (find(fs, from) < 0)
        abort(); /* `from` is a name the reader gave (or the main file's) */
    if (i < 0) {
        snprintf(why, cap, "no such file");
        return GISA_ERR_IO;
    }
    inc->name = fs->name[i];
    inc->text = fs->text[i];
    inc->len = fs->len[i];
    return GISA_OK;
}

static gisa_status on_line(void *user, const gisa_asm_line *l)
{
    files *fs = user;
    if (l->first_word != fs->words_seen || (l->nwords && !l->words))
        abort(); /* words are accounted for in order, each once */
    fs->words_seen += l->nwords;
    if (l->depth == 0) {
        if (l->line < fs->last_main_line || strcmp(l->file, "fuzz.s"))
            abort();
        fs->last_main_line = l->line;
    }
    return GISA_OK;
}

static void check_word(const gisa_isa *isa, gisa_word w, gisa_diags *d)
{
    char text[1024];
    gisa_word again;
    gisa_status st = gisa_disassemble(isa, w, text, sizeof text, NULL);
    if (st != GISA_OK && st != GISA_ERR_INPUT)
        abort();
    gisa_diags_clear(d);
    if (api_asm_one(isa, text, &again, d) != GISA_OK || memcmp(&again, &w, sizeof w))
        abort(); /* the text (canonical or .invalid) does not round-trip */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[0]);
    files fs;
    memset(&fs, 0, sizeof fs);
    split(&fs, (const char *)data + 1, size - 1);
    gisa_asm_options opt = GISA_ASM_OPTIONS_INIT;
    opt.include = reader;
    opt.line = on_line;
    opt.user = &fs;
    gisa_diags *d = api_diags();
    gisa_word *words = NULL;
    size_t n = 0;
    gisa_status st = gisa_assemble(isa, "fuzz.s", fs.text[0], fs.len[0], &opt, &words, &n, d);
    if (st != GISA_OK) {
        if (words || gisa_diags_errors(d) == 0)
            abort();
        for (size_t i = 0; i < gisa_diags_count(d); i++) {
            const gisa_diag *g = gisa_diags_get(d, i);
            int f = g->line > 0 ? find(&fs, g->file) : 0;
            if (f < 0 || !fuzz_diag_placed(g, fs.text[f], fs.len[f], st == GISA_ERR_NOMEM))
                abort();
        }
    } else {
        if (fs.words_seen != n)
            abort();
        for (size_t i = 0; i < n; i++)
            check_word(isa, words[i], d);
    }
    free(words);
    gisa_diags_free(d);
    return 0;
}
