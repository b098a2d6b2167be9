/* gisa_isa_manual through the public API: one page per optype and opcode
 * plus the six fixed ones, in the documented order, with plain names; the
 * same bytes on every run; a callback's error stops it at once and is
 * returned; a hostile description (markup in names is impossible, in
 * descriptions and examples escaped) never reaches the pages unescaped;
 * bad arguments are refused. The HTML itself is validated by
 * tests/cli/manual.sh. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

typedef struct pages {
    size_t n, stop_at;
    unsigned long long hash;
    int bad_name, saw_marker, in_order;
    char first[6][32];
    int found_script;
} pages;

static int contains(const char *data, size_t len, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= len; i++)
        if (!memcmp(data + i, what, n))
            return 1;
    return 0;
}

static gisa_status page(void *user, const char *name, const char *data, size_t len)
{
    pages *p = user;
    if (p->n < 6)
        snprintf(p->first[p->n], sizeof p->first[0], "%s", name);
    p->n++;
    p->bad_name |= !*name || name[0] == '.' || strchr(name, '/') != NULL;
    for (const char *c = name; *c; c++)
        p->hash = p->hash * 31 + (unsigned char)*c;
    for (size_t i = 0; i < len; i++)
        p->hash = p->hash * 131 + (unsigned char)data[i];
    if (strstr(name, ".html") && len >= 15 && memcmp(data, "<!DOCTYPE html>", 15))
        p->bad_name = 1;
    p->found_script |= contains(data, len, "<script>alert");
    if (p->stop_at && p->n == p->stop_at)
        return GISA_ERR_IO;
    return GISA_OK;
}

static void whole(const char *target)
{
    gisa_isa *isa = NULL;
    gisa_diags *d = api_diags();
    CHECK(api_load_embedded(target, &isa, d) == GISA_OK);
    pages a = {0}, b = {0};
    CHECK(gisa_isa_manual(isa, page, &a) == GISA_OK);
    CHECKF(a.n == 6 + gisa_isa_optype_count(isa) + gisa_isa_opcode_count(isa), "%s: %zu pages", target, a.n);
    CHECK(!a.bad_name);
    static const char *const fixed[6] = {"style.css", "search.js", "search-index.js", "index.html", "encoding.html",
                                         "errata.html"};
    for (int i = 0; i < 6; i++)
        CHECKF(!strcmp(a.first[i], fixed[i]), "page %d is %s", i, a.first[i]);
    CHECK(gisa_isa_manual(isa, page, &b) == GISA_OK);
    CHECK(a.hash == b.hash && a.n == b.n); /* deterministic */
    pages s = {.stop_at = 4};
    CHECK(gisa_isa_manual(isa, page, &s) == GISA_ERR_IO);
    CHECK(s.n == 4);
    CHECK(gisa_isa_manual(NULL, page, &s) == GISA_ERR_USAGE);
    CHECK(gisa_isa_manual(isa, NULL, &s) == GISA_ERR_USAGE);
    gisa_isa_free(isa);
    gisa_diags_free(d);
}

/* A description and an example that carry markup. */
static void escaped(void)
{
    static const char text[] =
        "__DefTarget t<64>\n"
        "__DefRegisterType Reg<6>\n    class = GPR;\n    prefix = R;\n    zero = RZ = 63;\n"
        "__DefRegisterType Pred<3>\n    class = PRED;\n    prefix = P;\n    zero = PT = 7;\n"
        "__DefBitFieldType PModi<1>\n    False = 0;\n    True = 1;\n"
        "__DefBitFieldType Op<6>\n    MOV = 1;\n"
        "__DefGroup U\n  __Encoding\n    field<0, 3> Pred pg = PT;\n    field<3, 1> PModi pg.not = False;\n"
        "__DefOptype MOV : [U]\n  __Description\n<script>alert(1)</script> & \"x\"\n"
        "  __Encoding\n    field<58, 6> Op op == MOV;\n    field<10, 6> Reg rd;\n    field<16, 6> Reg ra;\n"
        "  __Syntax\n```asm\nMOV Rd, Ra ;\n```\n"
        "  __Examples\n```asm\nMOV R1, R2 // <script>alert(2)</script>\n```\n"
        "__DefOpcode MOV_R : [MOV]\n  __OperandInfo\n    InList<pg, ra>;\n    OutList<rd>;\n";
    gisa_source src = {"t.isa", text, sizeof text - 1};
    gisa_isa *isa = NULL;
    gisa_diags *d = api_diags();
    gisa_status st = api_load_sources(&src, 1, &isa, d);
    for (size_t i = 0; st != GISA_OK && i < gisa_diags_count(d); i++) {
        char *m = api_diag_text(gisa_diags_get(d, i), 1);
        fprintf(stderr, "%s\n", m);
        gisa_free(m);
    }
    CHECK(st == GISA_OK);
    if (st == GISA_OK) {
        pages p = {0};
        CHECK(gisa_isa_manual(isa, page, &p) == GISA_OK);
        CHECK(p.n == 8 && !p.found_script);
    }
    gisa_isa_free(isa);
    gisa_diags_free(d);
}

int main(void)
{
    for (size_t t = 0; t < gisa_target_count(); t++)
        whole(gisa_target_name(t));
    escaped();
    return test_summary();
}
