#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int test_passed, test_failed;

int test_summary(void)
{
    printf("%d passed, %d failed\n", test_passed, test_failed);
    if (test_passed + test_failed == 0) {
        printf("FAIL: no check was made (a test that checks nothing cannot pass)\n");
        return 1;
    }
    return test_failed ? 1 : 0;
}

int test_skip(const char *reason)
{
    printf("SKIP: %s\n", reason);
    fflush(stdout);
    return TEST_SKIPPED;
}

gisa_isa *test_isa_target(const char *target)
{
    static struct {
        const char *name;
        gisa_isa *isa;
    } cache[8];
    int k;
    for (k = 0; k < 8 && cache[k].name; k++)
        if (!strcmp(cache[k].name, target ? target : ""))
            return cache[k].isa;
    gisa_isa *isa;
    gisa_diags *d = api_diags();
    if (k == 8 || api_load_embedded(target, &isa, d) != GISA_OK) {
        test_dump_diags(d);
        fprintf(stderr, "cannot load the embedded ISA %s\n", target ? target : "(default)");
        exit(2);
    }
    gisa_diags_free(d);
    cache[k].name = target ? target : "";
    cache[k].isa = isa;
    return isa;
}

gisa_isa *test_isa(void) { return test_isa_target(NULL); }

const char *test_path(const char *rel)
{
    static char buf[8][4096];
    static int k;
    const char *root = getenv("GISA_SOURCE_DIR");
    char *b = buf[k++ & 7];
    snprintf(b, sizeof buf[0], "%s/%s", root && *root ? root : ".", rel);
    return b;
}

const char *test_shared_dir(void)
{
    const char *p = test_path("../shared");
    struct stat st;
    char seeds[4200];
    snprintf(seeds, sizeof seeds, "%s/seeds", p);
    return stat(seeds, &st) == 0 && S_ISDIR(st.st_mode) ? p : NULL;
}

void test_dump_diags(const gisa_diags *d)
{
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        char *s = api_diag_text(gisa_diags_get(d, i), 1);
        fprintf(stderr, "%s\n", s ? s : "?");
        free(s);
    }
}

int test_diags_contain(const gisa_diags *d, const char *needle)
{
    for (size_t i = 0; i < gisa_diags_count(d); i++) {
        char *s = api_diag_text(gisa_diags_get(d, i), 0);
        int hit = s && strstr(s, needle);
        free(s);
        if (hit)
            return 1;
    }
    return 0;
}
