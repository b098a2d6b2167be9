/* Reading whole inputs and writing outputs all-or-nothing.
 *
 * An output file is written to FILE.tmpXXXXXX in the same directory and
 * renamed over FILE only once every byte is on disk, so a failed or
 * interrupted run never leaves a half-written or truncated FILE behind. */
#include <errno.h>
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
        size_t r = fread(b + n, 1, 65536, f);
        n += r;
        if (r < 65536) {
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

static int write_all(int fd, const char *buf, size_t len)
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

static int write_stream(const cli_cmd *cmd, FILE *f, const char *name, const char *buf, size_t len)
{
    if ((len && fwrite(buf, 1, len, f) != len) || fflush(f)) {
        cli_error(cmd, "cannot write '%s': %s", name, strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
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

static void catch_signals(struct sigaction *old, int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
        if (on)
            sigaction(caught[i], &sa, &old[i]);
        else
            sigaction(caught[i], &old[i], NULL);
    }
}

/* Writes over an existing file (a device, or a file whose directory takes
 * no new file): what the system then says is the real reason of a failure. */
static int write_in_place(const cli_cmd *cmd, const char *target, const char *shown, const char *buf, size_t len)
{
    FILE *f = fopen(target, "wb");
    int r = EXIT_USAGE;
    if (!f)
        cli_error(cmd, "cannot write '%s': %s", shown, strerror(errno));
    else {
        r = write_stream(cmd, f, shown, buf, len);
        if (fclose(f) && r == EXIT_OK) {
            cli_error(cmd, "cannot write '%s': %s", shown, strerror(errno));
            r = EXIT_USAGE;
        }
    }
    return r;
}

static int write_atomic(const cli_cmd *cmd, const char *target, const char *shown, mode_t mode, const char *buf,
                        size_t len)
{
    if (snprintf(tmp_path, sizeof tmp_path, "%s.tmpXXXXXX", target) >= (int)sizeof tmp_path) {
        cli_error(cmd, "cannot write '%s': path too long", shown);
        return EXIT_USAGE;
    }
    struct sigaction old[sizeof caught / sizeof *caught];
    catch_signals(old, 1);
    tmp_live = 1;
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        int e = errno;
        tmp_live = 0;
        catch_signals(old, 0);
        struct stat st;
        if (!stat(target, &st)) /* no file can be made beside it: the file itself says why not */
            return write_in_place(cmd, target, shown, buf, len);
        cli_error(cmd, "cannot create '%s': %s", shown, strerror(e));
        return EXIT_USAGE;
    }
    int e = 0;
    if (write_all(fd, buf, len) || fchmod(fd, mode) || fsync(fd))
        e = errno;
    if (close(fd) && !e)
        e = errno;
    if (!e && rename(tmp_path, target))
        e = errno;
    if (e)
        unlink(tmp_path);
    tmp_live = 0;
    catch_signals(old, 0);
    if (e) {
        cli_error(cmd, "cannot write '%s': %s", shown, strerror(e));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cli_write_output(const cli_cmd *cmd, const char *path, const char *buf, size_t len)
{
    if (!strcmp(path, "-"))
        return write_stream(cmd, stdout, "<stdout>", buf, len);
    struct stat st;
    char *real = NULL;
    const char *target = path;
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = 0666 & ~mask;
    int in_place = 0;
    if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
        /* replace the file the link points to, not the link; a dangling
         * link is written through (creating its target) */
        real = realpath(path, NULL);
        target = real ? real : path;
        in_place = !real;
    }
    if (in_place || !stat(target, &st)) {
        if (in_place || !S_ISREG(st.st_mode)) {
            /* /dev/null, a FIFO, a terminal: nothing to rename over; write in place */
            int r = write_in_place(cmd, target, path, buf, len);
            free(real);
            return r;
        }
        mode = st.st_mode & 0777; /* keep the permissions of the file replaced */
    }
    int r = write_atomic(cmd, target, path, mode, buf, len);
    free(real);
    return r;
}
