/* Reading whole inputs and writing outputs all-or-nothing.
 *
 * An output file is written to FILE.tmpXXXXXX in the same directory and
 * renamed over FILE only once every byte is on disk, so a failed or
 * interrupted run never leaves a half-written or truncated FILE behind. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

#define CLI_MAX_INPUT ((size_t)1 << 30) /* 1 GiB: far beyond any real program */

const char *cli_input_name(const char *path) { return !path || !strcmp(path, "-") ? "<stdin>" : path; }

/* Reads all of f into a malloc'd, NUL-terminated buffer. Returns 0, an
 * errno value, or -1 over the size limit (-2 out of memory). */
static int read_all(FILE *f, char **buf, size_t *len)
{
    char *b = NULL;
    size_t n = 0, cap = 0;
    /* a file's size is known: one buffer, one read (and the end seen by
     * the next, empty one) */
    struct stat st;
    if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size <= CLI_MAX_INPUT)
        cap = (size_t)st.st_size + 65536 + 1;
    if (cap && !(b = malloc(cap)))
        return -2;
    for (;;) {
        if (cap - n < 65536 + 1) {
            size_t nc = cap ? cap * 2 : 131072;
            int over = nc > CLI_MAX_INPUT + 131072;
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

int cli_read_input(const cli_cmd *cmd, const char *path, char **buf, size_t *len)
{
    int from_stdin = !path || !strcmp(path, "-");
    const char *name = cli_input_name(path);
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    *buf = NULL;
    *len = 0;
    if (!f) {
        cli_error(cmd, "cannot open '%s': %s", name, strerror(errno));
        return EXIT_USAGE;
    }
    int e = read_all(f, buf, len);
    if (!from_stdin)
        fclose(f);
    if (e == -1 || e == -2) {
        cli_error(cmd, e == -1 ? "'%s' is too large (the limit is 1 GiB)" : "'%s': out of memory", name);
        return EXIT_INPUT;
    }
    if (e) {
        cli_error(cmd, "cannot read '%s': %s", name, strerror(e));
        return EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

/* ------------------------------------------------------------ .include */

/* What the reader allocates for one included file. */
typedef struct included {
    char *path, *id, *text;
} included;

gisa_status cli_read_include(void *user, const char *from, const char *name, gisa_include *inc, char *why, size_t why_cap)
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
    if (!stat(path, &st) && S_ISDIR(st.st_mode))
        e = EISDIR;
    else if (!(f = fopen(path, "rb")))
        e = errno;
    else {
        e = read_all(f, &h->text, &inc->len);
        fclose(f);
    }
    if (e) {
        if (e == -1 || e == -2)
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

void cli_release_include(void *user, gisa_include *inc)
{
    (void)user;
    included *h = inc->handle;
    free(h->path);
    free(h->id);
    free(h->text);
    free(h);
}

int cli_write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The temporary file a signal handler must remove (see on_signal). */
static char tmp_path[PATH_MAX + 16];
static volatile sig_atomic_t tmp_live;

static void on_signal(int sig)
{
    if (tmp_live)
        unlink(tmp_path); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define NCAUGHT (sizeof caught / sizeof *caught)

static void catch_signals(struct sigaction *old, int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++) {
        if (on)
            sigaction(caught[i], &sa, &old[i]);
        else
            sigaction(caught[i], &old[i], NULL);
    }
}

/* An output being written: standard output, a file written in place (a
 * device, a FIFO, a file whose directory takes no new file), or a
 * temporary file renamed over the target at the end. One at a time (the
 * signal handler knows one temporary file). */
struct cli_out {
    const cli_cmd *cmd;
    int fd;
    int temp;          /* fd is tmp_path, renamed over target on commit */
    int err;           /* the first errno of a failed write */
    mode_t mode;
    char *target;      /* where it goes (a symbolic link's file) */
    const char *shown; /* the path as the user wrote it */
    struct sigaction old[NCAUGHT];
};

static int out_fail(cli_out *o, const char *what, int e)
{
    cli_error(o->cmd, "cannot %s '%s': %s", what, o->shown, strerror(e));
    return EXIT_USAGE;
}

/* Opens the temporary file beside the target; 0, or an errno value. */
static int open_temp(cli_out *o)
{
    if (snprintf(tmp_path, sizeof tmp_path, "%s.tmpXXXXXX", o->target) >= (int)sizeof tmp_path)
        return ENAMETOOLONG;
    catch_signals(o->old, 1);
    tmp_live = 1;
    o->fd = mkstemp(tmp_path);
    if (o->fd >= 0) {
        o->temp = 1;
        return 0;
    }
    int e = errno;
    tmp_live = 0;
    catch_signals(o->old, 0);
    return e;
}

int cli_out_open(const cli_cmd *cmd, const char *path, cli_out **out)
{
    cli_out *o = calloc(1, sizeof *o);
    *out = o;
    if (!o) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    o->cmd = cmd;
    o->shown = path;
    o->fd = -1;
    if (!strcmp(path, "-")) {
        o->shown = "<stdout>";
        fflush(stdout);
        o->fd = STDOUT_FILENO;
        return CLI_CONTINUE;
    }
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    o->mode = 0666 & ~mask;
    int in_place = 0;
    if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
        /* replace the file the link points to, not the link; a dangling
         * link is written through (creating its target) */
        o->target = realpath(path, NULL);
        in_place = !o->target;
    }
    if (!o->target && !(o->target = strdup(path))) {
        cli_error(cmd, "out of memory");
        return EXIT_INPUT;
    }
    int exists = !stat(o->target, &st);
    if (exists && S_ISREG(st.st_mode))
        o->mode = st.st_mode & 0777; /* keep the permissions of the file replaced */
    int e = in_place || (exists && !S_ISREG(st.st_mode)) ? -1 : open_temp(o);
    if (e > 0 && !exists)
        return out_fail(o, "create", e);
    if (e) { /* nothing to rename over, or no file can be made beside it: the file itself says why not */
        o->fd = open(o->target, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (o->fd < 0)
            return out_fail(o, "write", errno);
    }
    return CLI_CONTINUE;
}

int cli_out_write(cli_out *o, const char *buf, size_t len)
{
    if (!o->err && len && cli_write_all(o->fd, buf, len))
        o->err = errno ? errno : EIO;
    return o->err ? -1 : 0;
}

int cli_out_close(cli_out *o, int commit)
{
    if (!o)
        return EXIT_INPUT;
    int e = commit ? o->err : ECANCELED;
    if (o->temp) {
        if (!e && (fchmod(o->fd, o->mode) || fsync(o->fd)))
            e = errno;
        if (close(o->fd) && !e)
            e = errno;
        if (!e && rename(tmp_path, o->target))
            e = errno;
        if (e)
            unlink(tmp_path);
        tmp_live = 0;
        catch_signals(o->old, 0);
    } else if (o->fd >= 0 && o->fd != STDOUT_FILENO && close(o->fd) && !e) {
        e = errno;
    }
    int r = !e || e == ECANCELED ? EXIT_OK : out_fail(o, "write", e);
    free(o->target);
    free(o);
    return r;
}

int cli_write_output(const cli_cmd *cmd, const char *path, const char *buf, size_t len)
{
    cli_out *o;
    int r = cli_out_open(cmd, path, &o);
    if (r != CLI_CONTINUE) {
        cli_out_close(o, 0);
        return r;
    }
    cli_out_write(o, buf, len);
    return cli_out_close(o, 1);
}
