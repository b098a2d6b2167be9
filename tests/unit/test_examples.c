/* Every line of the documents' __Examples blocks either assembles and
 * round-trips (dis -> asm gives the same bits), or is one of the errata
 * listed below with the reason. The list must be exact: an erratum that
 * starts to assemble, or one that is no longer among the examples, fails
 * the test (the list is out of date). The corrected idioms of
 * SPEC-RULINGS.md must assemble and round-trip too. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

typedef struct erratum {
    const char *line; /* normalised: comment dropped, blanks collapsed */
    const char *why;
} erratum;

static const erratum errata[] = {
    {"FFMA.FTZ.SAT.RZ R0, |R1|, 0f405A7EFA, |c[0x0][0x100]|;",
     "no FFMA opcode encodes an immediate SrcB with a c[][] SrcC (no RIC stype)"},
    {"FSET.LE.AND R0, R4, R6 ;", "FSET's syntax line requires pp ({!}pp is not optional)"},
    {"IADD.X R0, P0, R2, -R4 ;",
     "with .X the operand is written '~' (CvtINegX); the rulings say this line is plain IADD"},
    {"IMAD.U32 R0, P0, R2, 0x114514, R4, ;", "trailing comma: an empty operand"},
    {"LEA R0, R1, 0x10, R3;", "LEA examples do not match LEA's syntax (rulings): the shift must be the last UImm5"},
    {"LEA R0, P0, R2, c[0x0][0x160], R7, RZ ;", "LEA examples do not match LEA's syntax (rulings)"},
    {"LEA.HI.X R1, R2, c[0x0][0x160], R7, RZ, P0 ;", "LEA examples do not match LEA's syntax (rulings)"},
    {"LEA R0, P0, -R2, R3, R4 ;", "LEA examples do not match LEA's syntax (rulings)"},
    {"LEA.HI.X.SX32 R1, ~R2, R3, R5, P0 ;", "LEA examples do not match LEA's syntax (rulings)"},
};
#define NERRATA (sizeof errata / sizeof *errata)
static int seen[NERRATA]; /* how often each erratum occurs among the examples */

/* The idioms SPEC-RULINGS.md gives in corrected form. */
static const char *const idioms[] = {
    "IADD R0, P0, R2, R4",
    "IADD.X R1, PT, R3, R5, P0",
    "IADD R0, P0, R2, -R4",
    "IADD.X R1, PT, R3, ~R5, P0",
    "IMAD.U32 R0, P0, R2, 0x114514, R4",
    "IMAD.HI.X.U32 R1, R2, 0x114514, R5, P0",
    "IMAD R0, P0, R2, R3, -R4",
    "IMAD.HI.X R1, R2, R3, ~R5, P0",
    "IMAD.WIDE.U32 R[0:1], P0, R4, R5, R[6:7]",
    "IMAD.WIDE.X.U32 R[2:3], RZ, RZ, RZ, P0",
    "ISETP.LT.U32.AND P0, PT, R2, R4, PT",
    "ISETP.LT.AND.X P0, PT, R3, R5, PT, P0",
    "ISETP.LT.AND.U32.X P0, PT, R3, R5, PT, P0",
    "LEA R0, P0, R2, R4, 0x3",
    "LEA.HI.X R1, R2, R5, R3, 0x3, P0",
};

static void normalise(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    int space = 0;
    for (const char *p = in; *p && n + 2 < cap; p++) {
        if (p[0] == '/' && p[1] == '/')
            break;
        if (isspace((unsigned char)*p)) {
            space = n > 0;
            continue;
        }
        if (space)
            out[n++] = ' ';
        space = 0;
        out[n++] = *p;
    }
    out[n] = 0;
}

/* Assembles `text`; every word must disassemble and re-assemble to itself. */
static int assemble_roundtrip(const gisa_isa *isa, const char *text, size_t *nwords)
{
    gisa_diags *d = api_diags();
    gisa_word *w = NULL;
    size_t n = 0;
    gisa_status s = gisa_assemble(isa, "<example>", text, strlen(text), NULL, &w, &n, d);
    *nwords = n;
    if (s != GISA_OK) {
        gisa_diags_free(d);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char t[512];
        gisa_word back;
        CHECKF(gisa_disassemble(isa, w[i], t, sizeof t, NULL) == GISA_OK, "%s: word %zu does not disassemble: %s", text, i, t);
        gisa_diags_clear(d);
        CHECKF(api_asm_one(isa, t, &back, d) == GISA_OK && back.w[0] == w[i].w[0] && back.w[1] == w[i].w[1],
               "%s: '%s' does not re-assemble to the same bits", text, t);
    }
    free(w);
    gisa_diags_free(d);
    return 1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(f);
    return b;
}

/* The lines inside the code fence of each __Examples section of `text`. */
static int collect_examples(char *text, char **lines, int max)
{
    int n = 0, in_examples = 0, in_fence = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        char *p = l;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, "```", 3)) {
            in_fence = !in_fence;
            if (!in_fence)
                in_examples = 0; /* one fence per __Examples section */
            continue;
        }
        if (!in_fence && !strncmp(p, "__", 2)) {
            in_examples = !strncmp(p, "__Examples", 10);
            continue;
        }
        if (in_examples && in_fence && *p && *p != '\r' && n < max)
            lines[n++] = l;
    }
    return n;
}

int main(void)
{
    const gisa_isa *isa = test_isa();
    static const char *const docs[4] = {"falu", "dalu", "halu", "ialu"};
    const char *shared = test_shared_dir();
    int total = 0, passed = 0, erratic = 0;
    for (int i = 0; i < 4; i++) {
        char path[4300];
        if (shared)
            snprintf(path, sizeof path, "%s/seeds/%s.isa.txt", shared, docs[i]);
        else /* the transcription in the source tree carries the examples unchanged */
            snprintf(path, sizeof path, "%s/isa/gisa128/%s.isa", test_path("."), docs[i]);
        char *text = read_file(path);
        CHECKF(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        char *lines[256];
        int n = collect_examples(text, lines, 256);
        CHECKF(n >= 10, "%s: only %d example lines", path, n);
        for (int k = 0; k < n; k++) {
            char norm[512];
            normalise(lines[k], norm, sizeof norm);
            int e = -1;
            for (size_t j = 0; j < NERRATA; j++)
                if (!strcmp(errata[j].line, norm))
                    e = (int)j;
            size_t nw = 0;
            int ok = assemble_roundtrip(isa, lines[k], &nw);
            total++;
            if (e >= 0) {
                seen[e]++;
                erratic++;
                CHECKF(!ok, "erratum now assembles (update the list): %s", norm);
                continue;
            }
            CHECKF(ok, "%s example does not assemble: %s", docs[i], lines[k]);
            if (!ok) { /* show why */
                gisa_diags *d = api_diags();
                gisa_word *w = NULL;
                size_t m = 0;
                gisa_assemble(isa, "<example>", lines[k], strlen(lines[k]), NULL, &w, &m, d);
                test_dump_diags(d);
                free(w);
                gisa_diags_free(d);
            }
            CHECKF(!ok || nw == 1, "%s: %zu instructions in one example line", norm, nw);
            passed += ok;
        }
        free(text);
    }
    for (size_t j = 0; j < NERRATA; j++)
        CHECKF(seen[j] == 1, "erratum seen %d times among the examples: %s (%s)", seen[j], errata[j].line,
               errata[j].why);
    for (size_t j = 0; j < sizeof idioms / sizeof *idioms; j++) {
        size_t nw = 0;
        CHECKF(assemble_roundtrip(isa, idioms[j], &nw) && nw == 1, "rulings idiom does not assemble: %s", idioms[j]);
    }
    printf("examples: %d lines, %d assemble and round-trip, %d errata (%zu listed); %zu rulings idioms\n", total, passed,
           erratic, NERRATA, sizeof idioms / sizeof *idioms);
    CHECK(total >= 90);
    return test_summary();
}
