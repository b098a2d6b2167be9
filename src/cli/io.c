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
#include "common/readfile.h"

const char *cli_input_name(const char *path) { return !path || !strcmp(path, "-") ? "<stdin>" : path; }

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
    const char *kind = file_not_input(fileno(f));
    int e = file_read_all(f, buf, len);
    if (!from_stdin)
        fclose(f);
    if (e == FILE_NOT_INPUT) {
        cli_error(cmd, "'%s' is not a regular file (%s)", name, kind);
        return EXIT_USAGE;
    }
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

static int write_stream(const cli_cmd *cmd, FILE *f, const char *name, const char *buf, size_t len)
{
    if ((len && fwrite(buf, 1, len, f) != len) || fflush(f)) {
        cli_error(cmd, "cannot write '%s': %s", name, strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The temporary files a signal handler must remove (see on_signal): a
 * command writes at most two outputs at once (run: the state and the trace). */
#define MAX_LIVE 2
static char tmp_path[MAX_LIVE][PATH_MAX + 16];
static volatile sig_atomic_t tmp_live[MAX_LIVE];
static struct sigaction saved[3];
static int nlive;

static void on_signal(int sig)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (tmp_live[i])
            unlink(tmp_path[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_signals(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
        if (on)
            sigaction(caught[i], &sa, &saved[i]);
        else
            sigaction(caught[i], &saved[i], NULL);
    }
}

struct cli_output {
    const cli_cmd *cmd;
    FILE *f;
    char *shown, *real;  /* the path as given; the file a link points to */
    const char *target;
    int slot;            /* tmp_path slot, -1: written in place */
    mode_t mode;
};

static cli_output *output_new(const cli_cmd *cmd, const char *path)
{
    cli_output *o = calloc(1, sizeof *o);
    if (o && !(o->shown = strdup(path))) {
        free(o);
        o = NULL;
    }
    if (!o)
        cli_error(cmd, "out of memory");
    else
        o->cmd = cmd;
    return o;
}

static void output_free(cli_output *o)
{
    free(o->shown);
    free(o->real);
    free(o);
}

/* A temporary file beside the target, renamed over it on success. */
static FILE *open_atomic(cli_output *o)
{
    int slot = 0;
    while (slot < MAX_LIVE && tmp_live[slot])
        slot++;
    if (slot == MAX_LIVE || snprintf(tmp_path[slot], sizeof tmp_path[slot], "%s.tmpXXXXXX", o->target) >= (int)sizeof tmp_path[slot]) {
        cli_error(o->cmd, "cannot write '%s': path too long", o->shown);
        return NULL;
    }
    if (nlive++ == 0)
        catch_signals(1);
    tmp_live[slot] = 1;
    int fd = mkstemp(tmp_path[slot]);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(tmp_path[slot]);
        }
        tmp_live[slot] = 0;
        if (--nlive == 0)
            catch_signals(0);
        struct stat st;
        if (!stat(o->target, &st)) { /* no file can be made beside it: the file itself says why not */
            if (!(f = fopen(o->target, "wb")))
                cli_error(o->cmd, "cannot write '%s': %s", o->shown, strerror(errno));
            return f; /* o->slot stays -1: written in place */
        }
        cli_error(o->cmd, "cannot create '%s': %s", o->shown, strerror(e));
        return NULL;
    }
    o->slot = slot;
    return f;
}

FILE *cli_output_open(const cli_cmd *cmd, const char *path, cli_output **out)
{
    *out = NULL;
    cli_output *o = output_new(cmd, path);
    if (!o)
        return NULL;
    o->slot = -1;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        *out = o;
        return o->f;
    }
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    o->mode = 0666 & ~mask;
    o->target = path;
    int in_place = 0;
    if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
        /* replace the file the link points to, not the link; a dangling
         * link is written through (creating its target) */
        o->real = realpath(path, NULL);
        o->target = o->real ? o->real : path;
        in_place = !o->real;
    }
    if (in_place || !stat(o->target, &st)) {
        if (in_place || !S_ISREG(st.st_mode)) {
            /* /dev/null, a FIFO, a terminal: nothing to rename over; write in place */
            o->f = fopen(o->target, "wb");
            if (!o->f) {
                cli_error(cmd, "cannot write '%s': %s", path, strerror(errno));
                output_free(o);
                return NULL;
            }
            *out = o;
            return o->f;
        }
        o->mode = st.st_mode & 0777; /* keep the permissions of the file replaced */
    }
    if (!(o->f = open_atomic(o))) {
        output_free(o);
        return NULL;
    }
    *out = o;
    return o->f;
}

int cli_output_close(cli_output *o, int ok)
{
    if (!o)
        return EXIT_USAGE;
    int e = 0, r = EXIT_OK;
    if (o->f == stdout) {
        if (fflush(stdout) || ferror(stdout))
            e = errno ? errno : EIO;
    } else if (o->slot < 0) {
        if (fclose(o->f))
            e = errno;
    } else {
        int fd = fileno(o->f);
        if (ok && (fflush(o->f) || ferror(o->f) || fchmod(fd, o->mode) || fsync(fd)))
            e = errno ? errno : EIO;
        if (fclose(o->f) && !e)
            e = errno;
        if (ok && !e && rename(tmp_path[o->slot], o->target))
            e = errno;
        if (e || !ok)
            unlink(tmp_path[o->slot]);
        tmp_live[o->slot] = 0;
        if (--nlive == 0)
            catch_signals(0);
    }
    if (e && ok) {
        cli_error(o->cmd, "cannot write '%s': %s", o->f == stdout ? "<stdout>" : o->shown, strerror(e));
        r = EXIT_USAGE;
    }
    output_free(o);
    return ok ? r : EXIT_USAGE;
}

int cli_write_output(const cli_cmd *cmd, const char *path, const char *buf, size_t len)
{
    if (!strcmp(path, "-"))
        return write_stream(cmd, stdout, "<stdout>", buf, len);
    cli_output *o;
    FILE *f = cli_output_open(cmd, path, &o);
    if (!f)
        return EXIT_USAGE;
    if (len && fwrite(buf, 1, len, f) != len) {
        int e = errno;
        cli_output_close(o, 0);
        cli_error(cmd, "cannot write '%s': %s", path, strerror(e));
        return EXIT_USAGE;
    }
    return cli_output_close(o, 1);
}
