/* Reading whole files, and the reader of `.include` files that the
 * command line and the DPI wrapper give gisa_assemble (the library itself
 * never reads a source file: gisa_assemble reads includes only through
 * the reader its caller passes). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/readfile.h"

const char *file_not_input(int fd)
{
    struct stat st, null;
    if (fstat(fd, &st))
        return NULL; /* the read says why */
    if (S_ISDIR(st.st_mode))
        return "a directory";
    if (S_ISBLK(st.st_mode))
        return "a block device";
    if (S_ISCHR(st.st_mode) && !isatty(fd) && (stat("/dev/null", &null) || null.st_rdev != st.st_rdev))
        return "a character device";
    return NULL;
}

/* Asks for the large pages of a large buffer about to be filled: a 16 MB
 * input then costs 8 page faults instead of 4,096 (a third of the time of
 * a `gisa dis` beyond the disassembler's own). Only where the system has
 * them (Linux's transparent huge pages); a hint, so failure is harmless. */
static void huge_pages(void *p, size_t n)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1), end = ((uintptr_t)p + n) & ~(huge - 1);
    if (end > start)
        madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

int file_read_all(FILE *f, char **buf, size_t *len)
{
    char *b = NULL;
    size_t n = 0, cap = 0;
    if (file_not_input(fileno(f)))
        return FILE_NOT_INPUT;
    /* a file's size is known: one buffer, one read (and the end seen by
     * the next, empty one) */
    struct stat st;
    if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size <= FILE_MAX_INPUT)
        cap = (size_t)st.st_size + 65536 + 1;
    if (cap && !(b = malloc(cap)))
        return -2;
    huge_pages(b, cap);
    for (;;) {
        if (cap - n < 65536 + 1) {
            size_t nc = cap ? cap * 2 : 131072;
            int over = nc > FILE_MAX_INPUT + 131072;
            char *p = over ? NULL : realloc(b, nc);
            if (!p) {
                free(b);
                return over ? -1 : -2;
            }
            b = p;
            cap = nc;
        }
        size_t want = cap - n - 1, r = fread(b + n, 1, want, f);
        n += r;
        if (r < want) {
            if (ferror(f)) {
                int e = errno ? errno : EIO;
                free(b);
                return e;
            }
            break;
        }
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
}

/* What the reader allocates for one included file. */
typedef struct included {
    char *path, *id, *text;
} included;

gisa_status file_include_read(void *user, const char *from, const char *name, gisa_include *inc, char *why, size_t why_cap)
{
    (void)user;
    /* relative to the including file's directory (standard input: the
     * current one), as C's #include "..." */
    const char *slash = strrchr(from, '/');
    size_t dir = name[0] == '/' || !slash || !strcmp(from, "<stdin>") ? 0 : (size_t)(slash - from) + 1;
    included *h = calloc(1, sizeof *h);
    char *path = h ? malloc(dir + strlen(name) + 1) : NULL;
    if (!path) {
        free(h);
        snprintf(why, why_cap, "out of memory");
        return GISA_ERR_NOMEM;
    }
    memcpy(path, from, dir);
    strcpy(path + dir, name);
    h->path = path;
    struct stat st;
    FILE *f = NULL;
    int e;
    const char *kind = "a directory";
    if (!stat(path, &st) && S_ISDIR(st.st_mode))
        e = FILE_NOT_INPUT; /* fopen would open it, and only the read fail */
    else if (!(f = fopen(path, "rb")))
        e = errno;
    else {
        kind = file_not_input(fileno(f));
        e = file_read_all(f, &h->text, &inc->len);
        fclose(f);
    }
    if (e) {
        if (e == FILE_NOT_INPUT)
            snprintf(why, why_cap, "'%s' is not a regular file (%s)", path, kind);
        else if (e == -1 || e == -2)
            snprintf(why, why_cap, "'%s' %s", path, e == -1 ? "is too large (the limit is 1 GiB)" : "does not fit in memory");
        else
            snprintf(why, why_cap, "'%s': %s", path, strerror(e));
        free(h->text);
        free(path);
        free(h);
        return e == -2 ? GISA_ERR_NOMEM : GISA_ERR_IO;
    }
    h->id = realpath(path, NULL); /* the same file by any path, for cycles */
    inc->name = path;
    inc->id = h->id;
    inc->text = h->text;
    inc->handle = h;
    return GISA_OK;
}

void file_include_release(void *user, gisa_include *inc)
{
    (void)user;
    included *h = inc->handle;
    free(h->path);
    free(h->id);
    free(h->text);
    free(h);
}

