/* The pseudo-code and semantic patches a user's description file adds, as
 * a user loads them (gisa_isa_load with sources: the shipped gisa128 files and a
 * file `user.isa` holding one __DefRuling), run under the doc engine: what
 * fuzz/fuzz_docsem.c found, each a case that failed before its fix. Every
 * case must end within the alarm (a hang kills the test) and either say
 * why at user.isa:line:col or run; a diagnostic's column lies in the line
 * it shows. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec/embedded.h"
#include "testlib.h"

#define MAX_FILES 16

/* Loads gisa128 with `ruling` as one more file; NULL (with the errors in d)
 * when the load fails. */
static gisa_isa *load_with(const char *ruling, gisa_diags *d)
{
    gisa_source src[MAX_FILES];
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count && n + 1 < MAX_FILES; i++)
        if (!strcmp(gisa_embedded_files[i].target, "gisa128"))
            src[n++] = (gisa_source){gisa_embedded_files[i].name, gisa_embedded_files[i].text,
                                     gisa_embedded_files[i].len};
    src[n++] = (gisa_source){"user.isa", ruling, strlen(ruling)};
    gisa_isa *isa = NULL;
    if (api_load_sources(src, n, &isa, d) != GISA_OK)
        return NULL;
    return isa;
}

/* Assembles `text` and runs it under the doc engine from a zero state;
 * returns the fault message ("" when it ran), in buf. */
static const char *run_doc_r0(const gisa_isa *isa, const char *text, char *buf, size_t cap, uint32_t *r0)
{
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_sim *sim = NULL;
    snprintf(buf, cap, "does not assemble");
    if (gisa_assemble(isa, "t.s", text, strlen(text), NULL, &w, &n, NULL) != GISA_OK ||
        gisa_sim_new(isa, 8, 1, &sim) != GISA_OK) {
        free(w);
        return buf;
    }
    gisa_sim_set_threads(sim, 1);
    gisa_sim_set_engine(sim, GISA_ENGINE_DOC);
    gisa_sim_load(sim, w, n);
    gisa_sim_fault f;
    buf[0] = 0;
    if (gisa_sim_run(sim, &f) != GISA_OK)
        snprintf(buf, cap, "%s", f.message);
    if (r0 && gisa_sim_get(sim, 0, GISA_RF_R, 0, 0, r0) != GISA_OK)
        *r0 = 0xdeadbeefu;
    gisa_sim_free(sim);
    free(w);
    return buf;
}

static const char *run_doc(const gisa_isa *isa, const char *text, char *buf, size_t cap)
{
    return run_doc_r0(isa, text, buf, cap, NULL);
}

typedef struct run_case {
    const char *what;
    const char *ruling; /* user.isa */
    const char *program;
    const char *fault; /* a part of the fault message; "" when it must run */
} run_case;

static const run_case cases[] = {
    {"nested loops unroll 64^4 times: a hang before the unroll budget",
     "__DefRuling IADD\n  __Semantics\n```asm\nIADD Rd, Ra, SrcB:\n"
     "    for (i = 0; i < 64; i++)\n        for (j = 0; j < 64; j++)\n"
     "            for (k = 0; k < 64; k++)\n                for (m = 0; m < 64; m++)\n"
     "                    t = i + j;\n    Rd = Ra + SrcB;\n```\n",
     "IADD R0, R1, R2 ;", "user.isa:8:17: the loops run more than 1024 times in all"},
    {"a loop within the budget runs",
     "__DefRuling IADD\n  __Semantics\n```asm\nIADD Rd, Ra, SrcB:\n"
     "    t = 0;\n    for (i = 0; i < 16; i++)\n        for (j = 0; j < 16; j++)\n            t = t + 1;\n"
     "    Rd = Ra + t;\n```\n",
     "IADD R0, R1, R2 ;", ""},
};

/* Loads that must give a diagnostic containing `message`, placed in the
 * line it shows (a column at most one past its end). */
typedef struct diag_case {
    const char *what;
    const char *ruling;
    const char *message;
} diag_case;

static const diag_case diag_cases[] = {
    {"an unterminated patch string on a line ending in \\r\\r\\r\\n: the column was past the shown text",
     "__DefRuling IADD\n  __SemanticPatch\nreplace \"Rd = t;\" with \"Rd = t + 1;\r\r\r\n",
     "expected replace \"ANCHOR\" with \"TEXT\""},
};

static void check_diag_case(const diag_case *c)
{
    gisa_diags *d = api_diags();
    gisa_isa *isa = load_with(c->ruling, d);
    int found = 0;
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        const gisa_diag *g = gisa_diags_get(d, i);
        if (!strstr(g->message, c->message))
            continue;
        found = 1;
        CHECKF(!strcmp(g->file, "user.isa") && g->line > 0 && g->col > 0 && g->source_line &&
                   (size_t)g->col <= strlen(g->source_line) + 1,
               "%s: %s:%d:%d is not in the line shown (\"%s\")", c->what, g->file, g->line, g->col,
               g->source_line ? g->source_line : "");
    }
    CHECKF(found, "%s: no diagnostic \"%s\"", c->what, c->message);
    if (!found)
        test_dump_diags(d);
    gisa_isa_free(isa);
    gisa_diags_free(d);
}

/* Division and shifts at their edges (docs/semantics-language.md): `code`
 * is IADD's body (from a zero state: Ra = SrcB = 0, so that `Ra + 7` is a
 * lane value and `7` a constant the compiler folds). A divisor of 0 or a
 * negative shift count faults, located at the operator, on a lane that
 * meets it; -2^127 / -1 wraps. Before, each of these gave 0 silently or
 * was undefined behaviour (UBSan: the folder and the executor). */
typedef struct arith_case {
    const char *code;
    const char *fault; /* a part of the fault message, or NULL: R0 must be r0 */
    uint32_t r0;
} arith_case;

#define MIN128 "t = (0 - (1 << 126)) - (1 << 126);\n    "
static const arith_case arith_cases[] = {
    /* per lane */
    {"Rd = (Ra + 7) / Ra;", "user.isa:5:19: division by zero in lane 0", 0},
    {"Rd = (Ra + 7) % Ra;", "user.isa:5:19: division by zero in lane 0", 0},
    {"Rd = ceil((Ra + 7) / Ra);", "user.isa:5:10: division by zero in lane 0", 0},
    {"Rd = (Ra + 7) << (Ra - 1);", "user.isa:5:19: negative shift count in lane 0", 0},
    {"Rd = (Ra + 7) >> (Ra - 1);", "user.isa:5:19: negative shift count in lane 0", 0},
    {MIN128 "Rd = ((t + Ra) / (Ra - 1)) >> 96;", NULL, 0x80000000u},
    {MIN128 "Rd = ((t + Ra) % (Ra - 1)) + 5;", NULL, 5},
    {MIN128 "Rd = ceil((t + Ra) / (Ra - 1)) >> 96;", NULL, 0x80000000u},
    {"Rd = (Ra - 7) % (Ra - 3);", NULL, 2},
    {"Rd = (Ra - 7) % (Ra + 3);", NULL, 2},
    {"Rd = (Ra + 7) << (Ra + 200);", NULL, 0},
    {MIN128 "Rd = (t + Ra) >> (Ra + 200);", NULL, 0xffffffffu},
    {"if (Ra != 0)\n        Rd = 7 / Ra;\n    else\n        Rd = 4;", NULL, 4}, /* lanes outside the mask */
    /* folded */
    {MIN128 "Rd = (t / -1) >> 96;", NULL, 0x80000000u},
    {MIN128 "Rd = (t % -1) + 5;", NULL, 5},
    {MIN128 "Rd = ceil(t / -1) >> 96;", NULL, 0x80000000u},
    {"Rd = 7 / 0;", "user.isa:5:12: division by zero in lane 0", 0},
    {"Rd = 7 % 0;", "user.isa:5:12: division by zero in lane 0", 0},
    {"Rd = ceil(7 / 0);", "user.isa:5:10: division by zero in lane 0", 0},
    {"Rd = 7 << -1;", "user.isa:5:12: negative shift count in lane 0", 0},
    {"Rd = 7 >> -1;", "user.isa:5:12: negative shift count in lane 0", 0},
    {"t = 7;\n    t <<= -1;\n    Rd = t;", "user.isa:6:7: negative shift count in lane 0", 0},
    {"if (Ra != 0)\n        Rd = 7 / 0;\n    else\n        Rd = 3;", NULL, 3}, /* no lane gets there */
};

static char *ruling_with(const char *code)
{
    static const char head[] = "__DefRuling IADD\n  __Semantics\n```asm\nIADD Rd, Ra, SrcB:\n    ";
    char *r = malloc(sizeof head + strlen(code) + 16);
    if (r)
        sprintf(r, "%s%s\n```\n", head, code);
    return r;
}

static void check_arith(const arith_case *c)
{
    char *ruling = ruling_with(c->code), buf[300];
    gisa_diags *d = api_diags();
    gisa_isa *isa = ruling ? load_with(ruling, d) : NULL;
    CHECKF(isa && gisa_diags_errors(d) == 0, "%s: the load failed", c->code);
    if (isa) {
        uint32_t r0 = 0;
        const char *got = run_doc_r0(isa, "IADD R0, R1, R2 ;", buf, sizeof buf, &r0);
        if (c->fault)
            CHECKF(strstr(got, c->fault), "%s: fault \"%s\", expected \"%s\"", c->code, got, c->fault);
        else
            CHECKF(!got[0] && r0 == c->r0, "%s: fault \"%s\", R0 0x%x, expected 0x%x", c->code, got, r0, c->r0);
    }
    gisa_isa_free(isa);
    gisa_diags_free(d);
    free(ruling);
}

/* What lint sees without running: a constant divisor of 0 and a constant
 * negative shift count, at the operator; a lane value is not reported. */
typedef struct lint_case {
    const char *code;
    const char *warning; /* NULL: nothing about division or shifts */
} lint_case;

static const lint_case lint_cases[] = {
    {"Rd = Ra / 0;", "user.isa:5:13: warning: division by zero in the pseudo-code of IADD"},
    {"Rd = Ra % (1 - 1);", "user.isa:5:13: warning: division by zero in the pseudo-code of IADD"},
    {"Rd = ceil(Ra / 0);", "user.isa:5:18: warning: division by zero in the pseudo-code of IADD"},
    {"Rd = Ra << -1;", "user.isa:5:13: warning: negative shift count in the pseudo-code of IADD"},
    {"Rd = Ra >> (2 - 3);", "user.isa:5:13: warning: negative shift count in the pseudo-code of IADD"},
    {"t = Ra;\n    t >>= -2;\n    Rd = t;", "user.isa:6:7: warning: negative shift count in the pseudo-code of IADD"},
    {"Rd = Ra / SrcB + (Ra << SrcB) + (Ra << 200) + Ra % 3;", NULL},
};

static void check_lint(const lint_case *c)
{
    char *ruling = ruling_with(c->code);
    gisa_diags *d = api_diags(), *ld = api_diags();
    gisa_isa *isa = ruling ? load_with(ruling, d) : NULL;
    CHECKF(isa != NULL, "%s: the load failed", c->code);
    if (isa) {
        gisa_isa_lint(isa, ld);
        if (c->warning)
            CHECKF(test_diags_contain(ld, c->warning), "%s: no \"%s\"", c->code, c->warning);
        else
            CHECKF(!test_diags_contain(ld, "division by zero") && !test_diags_contain(ld, "negative shift"),
                   "%s: a warning about a lane value", c->code);
    }
    gisa_isa_free(isa);
    gisa_diags_free(d);
    gisa_diags_free(ld);
    free(ruling);
}

/* Generated pseudo-code: `t = EXPR;` in IADD's block, EXPR made of n
 * repetitions. Before the depth bound, a chain of 5,000 `+` (a left-deep
 * tree) overflowed the compiler's stack (cc_expr) when a word ran, and one
 * of 1,000,000 lint's (collect); the parser itself recursed once per
 * parenthesis, call, index or `?:`. */
typedef enum shape { SUM, PARENS, TERNARY, CALLS, INDEXES, NEGS } shape;

static char *deep_ruling(shape sh, size_t n)
{
    static const char head[] = "__DefRuling IADD\n  __Semantics\n```asm\nIADD Rd, Ra, SrcB:\n    t = ";
    static const char tail[] = ";\n    Rd = t;\n```\n";
    char *r = malloc(sizeof head + sizeof tail + n * 10 + 16);
    if (!r)
        return NULL;
    char *q = r + sprintf(r, "%s", head);
    for (size_t i = 0; i < n; i++)
        q += sprintf(q, "%s", sh == SUM ? (i ? " + Ra" : "Ra") : sh == PARENS ? "(" : sh == TERNARY ? "Ra ? 1 : "
                                                                  : sh == CALLS ? "min(1, " : sh == INDEXES ? "Ra["
                                                                                                             : "- ");
    if (sh != SUM)
        q += sprintf(q, "Ra");
    for (size_t i = 0; i < n && (sh == PARENS || sh == CALLS || sh == INDEXES); i++)
        *q++ = sh == INDEXES ? ']' : ')';
    sprintf(q, "%s", tail);
    return r;
}

/* Deeper than the bound: a located error from the load (a warning there),
 * from lint, and the fault of a word that reaches it; never a crash. A
 * million levels are more than the 65,536 tokens of one optype
 * (DS_MAX_TOKENS): refused by that before they are parsed. */
static void check_deep(shape sh, size_t n, const char *what)
{
    char *ruling = deep_ruling(sh, n);
    if (!ruling) {
        CHECKF(0, "%s: out of memory", what);
        return;
    }
    alarm(60);
    gisa_diags *d = api_diags();
    gisa_isa *isa = load_with(ruling, d);
    CHECKF(isa != NULL, "%s x %zu: the load failed", what, n);
    if (isa) {
        const char *msg = n > 20000 ? "the pseudo-code of this optype is too long: more than 65536 tokens"
                                    : "expression nested too deeply (more than 256 levels)";
        int placed = 0;
        for (size_t i = 0; i < gisa_diags_count(d); i++) {
            const gisa_diag *g = gisa_diags_get(d, i);
            placed |= strstr(g->message, msg) && !strcmp(g->file, "user.isa") && g->line == 5 && g->col > 1;
        }
        CHECKF(placed, "%s x %zu: no located \"%s\"", what, n, msg);
        gisa_diags *ld = api_diags();
        CHECKF(gisa_isa_lint(isa, ld) == GISA_ERR_INPUT && test_diags_contain(ld, "user.isa:5:") &&
                   test_diags_contain(ld, msg),
               "%s x %zu: lint does not report it", what, n);
        gisa_diags_free(ld);
        char buf[300];
        const char *got = run_doc(isa, "IADD R0, R1, R2 ;", buf, sizeof buf);
        CHECKF(strstr(got, "does not parse"), "%s x %zu: fault \"%s\"", what, n, got);
    }
    gisa_isa_free(isa);
    gisa_diags_free(d);
    alarm(0);
    free(ruling);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_docsem_limits: a case did not finish within the alarm (a hang)\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(3);
    _exit(2);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const run_case *c = &cases[i];
        alarm(30);
        gisa_diags *d = api_diags();
        gisa_isa *isa = load_with(c->ruling, d);
        CHECKF(isa != NULL, "%s: the load failed", c->what);
        if (!isa) {
            test_dump_diags(d);
        } else {
            char buf[300];
            const char *got = run_doc(isa, c->program, buf, sizeof buf);
            int ok = c->fault[0] ? strstr(got, c->fault) != NULL : got[0] == 0;
            CHECKF(ok, "%s: fault \"%s\", expected %s%s", c->what, got, c->fault[0] ? "" : "none",
                   c->fault);
        }
        gisa_isa_free(isa);
        gisa_diags_free(d);
        alarm(0);
    }
    for (size_t i = 0; i < sizeof diag_cases / sizeof diag_cases[0]; i++)
        check_diag_case(&diag_cases[i]);
    for (size_t i = 0; i < sizeof arith_cases / sizeof arith_cases[0]; i++)
        check_arith(&arith_cases[i]);
    for (size_t i = 0; i < sizeof lint_cases / sizeof lint_cases[0]; i++)
        check_lint(&lint_cases[i]);
    static const char *const shapes[] = {"a + a + ...", "((...))", "a ? 1 : a ? 1 : ...", "min(1, min(1, ...))",
                                         "Ra[Ra[...]]", "- - ... a"};
    for (int sh = SUM; sh <= NEGS; sh++) {
        check_deep((shape)sh, 5000, shapes[sh]);
        check_deep((shape)sh, 1000000, shapes[sh]);
    }
    /* within the bound the tree compiles and runs */
    char *ok = deep_ruling(SUM, 250), buf[300];
    gisa_diags *d = api_diags();
    gisa_isa *isa = ok ? load_with(ok, d) : NULL;
    CHECKF(isa && gisa_diags_errors(d) == 0 && !run_doc(isa, "IADD R0, R1, R2 ;", buf, sizeof buf)[0],
           "250 terms: \"%s\"", isa ? buf : "no load");
    gisa_isa_free(isa);
    gisa_diags_free(d);
    free(ok);
    ok = deep_ruling(PARENS, 250);
    d = api_diags();
    isa = ok ? load_with(ok, d) : NULL;
    CHECKF(isa && !strstr(run_doc(isa, "IADD R0, R1, R2 ;", buf, sizeof buf), "parse"), "250 parentheses: \"%s\"",
           isa ? buf : "no load");
    gisa_isa_free(isa);
    gisa_diags_free(d);
    free(ok);
    return test_summary();
}
