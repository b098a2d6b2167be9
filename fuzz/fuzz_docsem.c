/* libFuzzer harness: the documents' pseudo-code and the rulings' semantic
 * patches (docs/semantics-language.md). Byte 0 picks the target, byte 1 the
 * optype, byte 2 seeds the words and the state; the rest is
 *   SEMANTICS "\n@@@\n" PATCHES
 * which the harness writes as a description file holding one
 *   __DefRuling OPTYPE  __Semantics ```SEMANTICS```  __SemanticPatch PATCHES
 * (no __Semantics section when SEMANTICS is empty: the patches then apply to
 * the document's block), parsed by the loader's own parser and applied
 * after the shipped rulings, as a user's file would be. Only that optype's
 * semantics are rebuilt (ds_optype_rebuild); the model loads once.
 * In SEMANTICS, `@N{TEXT}` stands for TEXT repeated N times (N up to
 * 1,000,000, the file up to 8 MiB): a mutation of a few bytes then makes
 * the long and deep trees (`t = Ra@5000{ + Ra};`, `@100000{(}`) that the
 * inputs libFuzzer grows one byte at a time never reach; the Makefile
 * raises -max_len for the written ones (fuzz/fuzz_docsem.options).
 * Properties: every problem is an error diagnostic at a file:line:col that
 * exists; lint's notes and warnings for the optype are made; when the
 * code compiles, up to 4 random words of the optype run
 * under the doc engine from a random state, and either finish or fault
 * with a reason, the same state and fault whether programs run on the
 * narrowest lanes that hold them or on 128-bit lanes; the optype's reference text (gisa doc) is written. ASan
 * and UBSan watch all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "docsem/docsem.h"
#include "fuzz_target.h"
#include "sim/docexec.h"
#include "spec/model.h"

#define SEPARATOR "\n@@@\n"
#define FILE_NAME "fuzz.isa"
#define WORDS 4
#define REPEAT_MAX 1000000
#define EXPANDED_MAX (8u << 20)
#define SHOWN_MAX 4096 /* the most of a line a diagnostic shows (src/common/diag.c) */
#define REGS 16

static uint64_t next(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9E3779B97F4A7C15u; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Du;
}

static const uint32_t hard[] = {0,           0xffffffffu, 0x80000000u, 0x7fffffffu, 1,          0x7f800000u,
                                0x7fc00000u, 0x00000001u, 0x3f800000u, 0x7c00fc00u, 0x80008000u, 0x7ff00000u};

static uint32_t value(uint64_t *s)
{
    uint64_t r = next(s);
    return r & 1 ? hard[(r >> 1) % (sizeof hard / sizeof hard[0])] : (uint32_t)(r >> 32);
}

/* Every error is placed: a file, a line that exists (in the generated file,
 * when it is that one) and a column at most one past the end of the line
 * the diagnostic shows. FUZZ_DOCSEM_SHOW=1 prints the file and the
 * diagnostics (for triage). */
static void check_placed(const gisa_diags *d, const char *text, size_t len)
{
    if (getenv("FUZZ_DOCSEM_SHOW")) { /* for triage: the file and what was said about it */
        fprintf(stderr, "%.*s---\n", (int)len, text);
        for (size_t i = 0; i < gisa_diags_count(d); i++) {
            const gisa_diag *g = gisa_diags_get(d, i);
            fprintf(stderr, "%s:%d:%d: %s [%s]\n", g->file, g->line, g->col, g->message,
                    g->source_line ? g->source_line : "");
        }
    }
    fuzz_lines L = {text, len, NULL, 0, 0};
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        const gisa_diag *g = gisa_diags_get(d, i);
        if (g->severity != GISA_ERROR)
            continue;
        if (!g->file || !g->file[0] || g->line < 1 || g->col < 1)
            abort();
        /* a longer line is shown cut, its column still exact: checked in the text below */
        const int cut = g->source_line && strlen(g->source_line) >= SHOWN_MAX;
        if (g->source_line && !cut && (size_t)g->col > strlen(g->source_line) + 1)
            abort();
        if (strcmp(g->file, FILE_NAME))
            continue;
        /* a line a `replace` made keeps the location of the anchor's line
         * and shows its own text, which the column is checked against */
        gisa_diag line1 = *g;
        line1.col = 1;
        if (!fuzz_diag_placed_in(&line1, &L, 0) || ((!g->source_line || cut) && !fuzz_diag_placed_in(g, &L, 0)))
            abort();
    }
    fuzz_lines_free(&L);
}

/* A random word of one of ot's opcodes that decodes as that opcode; 0 when
 * none was found. Its registers may be any of the target's: only the first
 * REGS hold random values. */
static int random_word(const gisa_isa *isa, const isa_optype *ot, uint64_t *s, gisa_word *w)
{
    if (!ot->nopcodes)
        return 0;
    const isa_opcode *op = &isa->opcodes[ot->opcodes[next(s) % (uint64_t)ot->nopcodes]];
    for (int tries = 0; tries < 32; tries++) {
        for (int k = 0; k < 2; k++)
            w->w[k] = (next(s) & op->covered.w[k] & ~op->mask.w[k]) | op->match.w[k];
        gisa_inst in;
        if (gisa_decode(isa, *w, &in) == GISA_OK && in.opcode == op->index)
            return 1;
    }
    return 0;
}

/* Every register, predicate and uniform register of warp 0, and the
 * fault, after running w from the state `seed` gives, under the doc engine
 * with programs on lanes of at least `bits` bits; returns the values kept. */
static size_t run_state(const gisa_isa *isa, const gisa_word *w, size_t n, uint64_t seed, int bits, uint32_t *out,
                        size_t cap, char *fault, size_t fault_cap)
{
    gisa_sim *sim;
    if (gisa_sim_new(isa, gisa_sim_max_regs(isa), 1, &sim) != GISA_OK)
        abort();
    gisa_sim_set_threads(sim, 1);
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    for (unsigned r = 0; r < REGS; r++)
        for (int l = 0; l < GISA_SIM_LANES; l += 8)
            for (int k = 0; k < 8; k++)
                gisa_sim_set(sim, 0, GISA_RF_R, r, l + k, value(&seed));
    for (unsigned p = 0; p < 7; p++)
        gisa_sim_set(sim, 0, GISA_RF_P, p, -1, (uint32_t)next(&seed) & 1);
    for (unsigned r = 0; r < 8; r++)
        gisa_sim_set(sim, 0, GISA_RF_UR, r, -1, value(&seed));
    gisa_sim_set_active(sim, 0, (uint32_t)next(&seed) | 1);
    gisa_sim_load(sim, w, n);
    gisa_sim_fault f;
    sim_doc_lane_bits_min = bits;
    gisa_status st = gisa_sim_run(sim, &f);
    sim_doc_lane_bits_min = 0;
    if (st != GISA_OK && (st != GISA_ERR_SIM || !f.message[0] || !f.insn[0] || f.pc >= n))
        abort();
    snprintf(fault, fault_cap, "%d %s", (int)st, st == GISA_OK ? "" : f.message);
    size_t k = 0;
    static const gisa_regfile files[3] = {GISA_RF_R, GISA_RF_P, GISA_RF_UR};
    for (int rf = 0; rf < 3; rf++)
        for (unsigned i = 0;; i++) {
            uint32_t v;
            if (gisa_sim_get(sim, 0, files[rf], i, 0, &v) != GISA_OK)
                break;
            for (unsigned l = 0; l < (files[rf] == GISA_RF_UR ? 1u : (unsigned)GISA_SIM_LANES) && k < cap; l++)
                if (gisa_sim_get(sim, 0, files[rf], i, l, &out[k]) == GISA_OK)
                    k++;
        }
    gisa_sim_free(sim);
    return k;
}

/* The words run twice: programs on the narrowest lanes that hold their
 * values (docsem/narrow.c), then all on 128-bit lanes; the two must end
 * in the same state and the same fault, whatever the pseudo-code says. */
static void run_words(const gisa_isa *isa, const isa_optype *ot, uint64_t seed)
{
    gisa_word w[WORDS];
    size_t n = 0;
    for (int k = 0; k < WORDS; k++)
        n += (size_t)random_word(isa, ot, &seed, &w[n]);
    if (!n)
        return;
    enum { CAP = 300 * GISA_SIM_LANES };
    static uint32_t narrow[CAP], wide[CAP];
    char fault_narrow[320], fault_wide[320];
    size_t kn = run_state(isa, w, n, seed, 0, narrow, CAP, fault_narrow, sizeof fault_narrow);
    size_t kw = run_state(isa, w, n, seed, 128, wide, CAP, fault_wide, sizeof fault_wide);
    if (kn != kw || memcmp(narrow, wide, kn * sizeof narrow[0]) || strcmp(fault_narrow, fault_wide))
        abort(); /* the narrow lanes compute something else than the 128-bit ones */
}

/* text[0..len) with every `@N{TEXT}` replaced by N copies of TEXT (TEXT
 * holds no '}'); one that is malformed, too large or would make the
 * output pass EXPANDED_MAX stays as written. */
static void put_expanded(strbuf *sb, const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t j = i + 1, n = 0;
        while (text[i] == '@' && j < len && text[j] >= '0' && text[j] <= '9' && n <= REPEAT_MAX)
            n = n * 10 + (size_t)(text[j++] - '0');
        const char *close = text[i] == '@' && j < len && text[j] == '{' && n <= REPEAT_MAX
                                ? memchr(text + j + 1, '}', len - j - 1)
                                : NULL;
        size_t unit = close ? (size_t)(close - (text + j + 1)) : 0;
        if (!close || (unit && (sb->len >= EXPANDED_MAX || n > (EXPANDED_MAX - sb->len) / unit))) {
            sb_putn(sb, text + i, 1);
            i++;
            continue;
        }
        for (size_t k = 0; k < n; k++)
            sb_putn(sb, text + j + 1, unit);
        i = (size_t)(close - text) + 1;
    }
}

/* The description file: the ruling for optype `name` with the input's
 * block (expanded) and patch lines. */
static char *ruling_file(const char *name, const char *text, size_t len, size_t *out_len)
{
    const char *sep = NULL;
    size_t sl = strlen(SEPARATOR);
    for (size_t i = 0; i + sl <= len && !sep; i++)
        if (!memcmp(text + i, SEPARATOR, sl))
            sep = text + i;
    size_t alen = sep ? (size_t)(sep - text) : len;
    const char *patches = sep ? sep + sl : text + len;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "__DefRuling %s\n  __Description\nfuzzed semantics\n", name);
    if (alen) {
        sb_puts(&sb, "  __Semantics\n```asm\n");
        put_expanded(&sb, text, alen);
        sb_puts(&sb, "\n```\n");
    }
    sb_puts(&sb, "  __SemanticPatch\n");
    sb_putn(&sb, patches, (size_t)(text + len - patches));
    sb_puts(&sb, "\n");
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    *out_len = sb.len;
    return sb_take(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gisa_isa *isa = fuzz_take_target(&data, &size);
    if (!isa || size < 2 || !isa->noptypes)
        return 0;
    int t = data[0] % isa->noptypes;
    uint64_t seed = data[1] * 0x100000001B3u + 1;
    const isa_optype *ot = &isa->optypes[t];
    size_t len;
    char *file = ruling_file(ot->name, (const char *)data + 2, size - 2, &len);
    if (!file)
        abort();
    arena a;
    arena_init(&a);
    raw_spec spec = {0};
    gisa_diags *d = api_diags();
    int perr = raw_parse_file(&a, &spec, FILE_NAME, file, len, d);
    if (perr ? gisa_diags_errors(d) == 0 : spec.ndefs < 1 || spec.defs[0]->kind != RAW_RULING)
        abort();
    if (!perr) {
        ds_optype s;
        int errors = ds_optype_rebuild(isa, t, spec.defs[0], &a, GISA_ERROR, d, &s);
        if (errors < 0 || (errors == 0) != (gisa_diags_errors(d) == 0))
            abort(); /* errors are reported (the first of each variant), and only errors count */
        if (!a.failed) {
            ds_lint_optype(&s, &a, d);
            ds_optype_swap(isa, t, &s);
            gisa_status st;
            char *doc = api_doc(isa, ot->name, &st);
            if (!doc)
                abort();
            free(doc);
            if (!errors)
                run_words(isa, ot, seed);
            ds_optype_swap(isa, t, &s);
        }
    }
    check_placed(d, file, len);
    gisa_diags_free(d);
    arena_free(&a);
    free(file);
    return 0;
}
