/* Reading whole inputs and writing outputs all-or-nothing.
 *
 * An output file is written to FILE.tmpXXXXXX in the same directory and
 * renamed over FILE only once every byte is on disk, so a failed or
 * interrupted run never leaves a half-written or truncated FILE behind.
 * The outputs of one command are one set (cli_outset): none is renamed
 * until all of them are written, so a command that fails leaves every one
 * of its files as it was. */
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
    cli_note_input(fileno(f), name);
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

/* The temporary files a signal handler must remove (see on_signal): at
 * most the outputs of one set. */
#define MAX_LIVE CLI_MAX_OUTPUTS
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

static void release_slot(cli_outfile *o)
{
    tmp_live[o->slot] = 0;
    o->slot = -1;
    if (--nlive == 0)
        catch_signals(0);
}

/* A temporary file beside the target, renamed over it on commit. */
static FILE *open_atomic(const cli_cmd *cmd, cli_outfile *o)
{
    int slot = 0;
    while (slot < MAX_LIVE && tmp_live[slot])
        slot++;
    if (slot == MAX_LIVE || snprintf(tmp_path[slot], sizeof tmp_path[slot], "%s.tmpXXXXXX", o->target) >= (int)sizeof tmp_path[slot]) {
        cli_error(cmd, "cannot write '%s': path too long", o->shown);
        return NULL;
    }
    if (nlive++ == 0)
        catch_signals(1);
    tmp_live[slot] = 1;
    o->slot = slot;
    int fd = mkstemp(tmp_path[slot]);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(tmp_path[slot]);
        }
        release_slot(o);
        struct stat st;
        if (!stat(o->target, &st)) { /* no file can be made beside it: the file itself says why not */
            if (!(f = fopen(o->target, "wb")))
                cli_error(cmd, "cannot write '%s': %s", o->shown, strerror(errno));
            return f; /* o->slot stays -1: written in place */
        }
        cli_error(cmd, "cannot create '%s': %s", o->shown, strerror(e));
        return NULL;
    }
    return f;
}

void cli_outset_init(cli_outset *s, const cli_cmd *cmd)
{
    memset(s, 0, sizeof *s);
    s->cmd = cmd;
}

/* Opens path as the set's next output: a temporary beside it, or the file
 * itself when it cannot be replaced (stdout, a device, a FIFO). */
static cli_outfile *outfile_open(cli_outset *s, const char *path)
{
    const cli_cmd *cmd = s->cmd;
    if (s->n == CLI_MAX_OUTPUTS) {
        cli_error(cmd, "cannot write '%s': too many outputs", path);
        return NULL;
    }
    cli_outfile *o = &s->out[s->n];
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (!(o->shown = strdup(path))) {
        cli_error(cmd, "out of memory");
        return NULL;
    }
    if (!strcmp(path, "-")) {
        o->f = stdout;
        s->n++;
        return o;
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
    int atomic = 1;
    if (in_place || !stat(o->target, &st)) {
        if (in_place || !S_ISREG(st.st_mode)) {
            /* /dev/null, a FIFO, a terminal: nothing to rename over; write in place */
            atomic = 0;
            if (!(o->f = fopen(o->target, "wb")))
                cli_error(cmd, "cannot write '%s': %s", path, strerror(errno));
        } else {
            o->mode = st.st_mode & 0777; /* keep the permissions of the file replaced */
        }
    }
    if (atomic)
        o->f = open_atomic(cmd, o);
    if (!o->f) {
        free(o->shown);
        free(o->real);
        return NULL;
    }
    s->n++;
    return o;
}

FILE *cli_outset_open(cli_outset *s, const char *path)
{
    cli_outfile *o = outfile_open(s, path);
    return o ? o->f : NULL;
}

static int write_failed(cli_outset *s, const cli_outfile *o, int e)
{
    cli_error(s->cmd, "cannot write '%s': %s", o->f == stdout ? "<stdout>" : o->shown, strerror(e));
    return EXIT_USAGE;
}

int cli_outset_put(cli_outset *s, const char *path, const char *data, size_t len)
{
    cli_outfile *o = outfile_open(s, path);
    if (!o)
        return EXIT_USAGE;
    if (o->slot < 0) { /* cannot be taken back: written once every temporary is whole */
        o->data = data;
        o->len = len;
        return EXIT_OK;
    }
    if (len && fwrite(data, 1, len, o->f) != len)
        return write_failed(s, o, errno);
    return EXIT_OK;
}

void cli_outset_abort(cli_outset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        cli_outfile *o = &s->out[i];
        if (o->f && o->f != stdout)
            fclose(o->f);
        if (o->slot >= 0) {
            unlink(tmp_path[o->slot]);
            release_slot(o);
        }
        free(o->shown);
        free(o->real);
    }
    s->n = 0;
}

void cli_outset_sync(cli_outset *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->out[i].slot >= 0 && !fflush(s->out[i].f))
            fsync(fileno(s->out[i].f));
}

int cli_outset_commit(cli_outset *s)
{
    int r = EXIT_OK;
    /* every temporary whole on disk first: what fails most (a full disk)
     * then fails before anything is written that cannot be taken back */
    for (size_t i = 0; i < s->n; i++) {
        cli_outfile *o = &s->out[i];
        if (o->slot < 0)
            continue;
        int fd = fileno(o->f), e = 0;
        errno = 0;
        if (fflush(o->f) || ferror(o->f) || fchmod(fd, (mode_t)o->mode) || fsync(fd))
            e = errno ? errno : EIO;
        if (fclose(o->f) && !e)
            e = errno;
        o->f = NULL;
        if (e && r == EXIT_OK)
            r = write_failed(s, o, e);
    }
    /* then standard output and devices, written in place */
    for (size_t i = 0; i < s->n && r == EXIT_OK; i++) {
        cli_outfile *o = &s->out[i];
        if (o->slot >= 0)
            continue;
        int e = 0;
        errno = 0;
        if (o->len && fwrite(o->data, 1, o->len, o->f) != o->len)
            e = errno ? errno : EIO;
        if (o->f == stdout) {
            if ((fflush(stdout) || ferror(stdout)) && !e)
                e = errno ? errno : EIO;
        } else {
            if (fclose(o->f) && !e)
                e = errno;
            o->f = NULL;
        }
        if (e)
            r = write_failed(s, o, e);
    }
    /* last the renames, which do not fail for a file made in the same
     * directory but for a vanished directory */
    for (size_t i = 0; i < s->n && r == EXIT_OK; i++) {
        cli_outfile *o = &s->out[i];
        if (o->slot < 0)
            continue;
        if (rename(tmp_path[o->slot], o->target))
            r = write_failed(s, o, errno);
        else
            release_slot(o);
    }
    cli_outset_abort(s);
    return r;
}

int cli_write_output(const cli_cmd *cmd, const char *path, const char *buf, size_t len)
{
    cli_outset s;
    cli_outset_init(&s, cmd);
    if (cli_outset_put(&s, path, buf, len) != EXIT_OK) {
        cli_outset_abort(&s);
        return EXIT_USAGE;
    }
    return cli_outset_commit(&s);
}
