/* Replays saved inputs through a harness's LLVMFuzzerTestOneInput without
 * libFuzzer, so the corpus and every past finding run with the ordinary
 * build as a test. Arguments: files or directories (a missing directory is
 * skipped: a harness may have no regressions yet). Each input's name is
 * printed first, so a crash names the input that caused it. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            char *p = realloc(buf, cap);
            if (!p) {
                fprintf(stderr, "replay: %s: out of memory\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = p;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!bad) {
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
        LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
    } else {
        fprintf(stderr, "replay: cannot read %s\n", path);
    }
    free(buf);
    return bad;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static int not_hidden(const struct dirent *e) { return e->d_name[0] != '.'; }

/* Replays the regular files of `dir` in name order; *count adds them. */
static int replay_dir(const char *dir, size_t *count)
{
    struct dirent **list;
    int n = scandir(dir, &list, not_hidden, by_name), failed = 0;
    if (n < 0) {
        fprintf(stderr, "replay: cannot list %s: %s\n", dir, strerror(errno));
        return 1;
    }
    for (int i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(list[i]->d_name) + 2;
        char *path = malloc(len);
        struct stat st;
        if (path) {
            snprintf(path, len, "%s/%s", dir, list[i]->d_name);
            if (!stat(path, &st) && S_ISREG(st.st_mode)) {
                failed |= replay_file(path);
                ++*count;
            }
        }
        failed |= !path;
        free(path);
        free(list[i]);
    }
    free(list);
    return failed;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st))
            continue; /* no such directory: nothing to replay there */
        if (S_ISDIR(st.st_mode)) {
            failed |= replay_dir(argv[i], &count);
        } else {
            failed |= replay_file(argv[i]);
            count++;
        }
    }
    printf("replayed %zu inputs%s\n", count, failed ? " (some could not be read)" : "");
    if (count == 0) {
        printf("FAIL: no input to replay (a harness needs a seed corpus)\n");
        return 1;
    }
    return failed;
}
