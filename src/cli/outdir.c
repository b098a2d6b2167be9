/* Writing a directory all-or-nothing (cli_outdir, common.h): the files go
 * into a temporary directory beside the target, renamed into place at the
 * end. A directory cannot be renamed over a non-empty one, so an earlier
 * run's directory (recognised by its marker file) is first moved aside and
 * removed once the new one is in place. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

/* Removes a directory this program wrote: its files, then itself. */
static int remove_flat_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    char file[sizeof ((cli_outdir *)0)->tmp + 256];
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            snprintf(file, sizeof file, "%s/%s", path, e->d_name) < (int)sizeof file)
            unlink(file);
    closedir(d);
    return rmdir(path);
}

int cli_outdir_begin(const cli_cmd *cmd, const char *dir, const char *marker, cli_outdir *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->dir = dir;
    o->marker = marker;
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (!n || !strcmp(dir, "/") || n >= sizeof o->target) {
        cli_error(cmd, "cannot write the directory '%s'", dir);
        return EXIT_USAGE;
    }
    memcpy(o->target, dir, n);
    o->target[n] = 0;
    /* a symbolic link to a directory (an earlier manual, an empty one) is
     * written through: the directory it names is replaced, and the link
     * still names it (renaming over the link itself fails: "not a
     * directory"); a dangling link is left to the rename's error */
    struct stat st;
    char *real = !lstat(o->target, &st) && S_ISLNK(st.st_mode) && !stat(o->target, &st) && S_ISDIR(st.st_mode)
                     ? realpath(o->target, NULL)
                     : NULL;
    if (real && strlen(real) < sizeof o->target && strcmp(real, "/"))
        strcpy(o->target, real);
    free(real);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", o->target);
    if (!mkdtemp(o->tmp)) {
        cli_error(cmd, "cannot create a directory beside '%s': %s", dir, strerror(errno));
        o->tmp[0] = 0;
        return EXIT_USAGE;
    }
    mode_t mask = umask(0); /* mkdtemp makes it 0700; a manual is for everyone to read */
    umask(mask);
    chmod(o->tmp, 0777 & ~mask);
    return EXIT_OK;
}

static int put_file(cli_outdir *o, const char *name, const char *data, size_t len)
{
    char path[sizeof o->tmp + 256];
    if (snprintf(path, sizeof path, "%s/%s", o->tmp, name) >= (int)sizeof path) {
        cli_error(o->cmd, "cannot write '%s/%s': path too long", o->dir, name);
        o->failed = 1;
        return EXIT_USAGE;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    int e = fd < 0 || cli_write_all(fd, data, len) ? errno : 0;
    if (fd >= 0 && close(fd) && !e)
        e = errno;
    if (e) {
        cli_error(o->cmd, "cannot write '%s/%s': %s", o->dir, name, strerror(e));
        o->failed = 1;
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cli_outdir_add(cli_outdir *o, const char *name, const char *data, size_t len)
{
    if (!*name || name[0] == '.' || strchr(name, '/') || !strcmp(name, o->marker)) {
        cli_error(o->cmd, "refusing to write a file named '%s'", name);
        o->failed = 1;
        return EXIT_USAGE;
    }
    return put_file(o, name, data, len);
}

void cli_outdir_abort(cli_outdir *o)
{
    if (o->tmp[0])
        remove_flat_dir(o->tmp);
    o->tmp[0] = 0;
}

/* Moves an earlier run's directory aside, puts the new one in its place and
 * removes the old one. */
static int replace_ours(cli_outdir *o)
{
    char marker[sizeof o->target + 256], old[sizeof o->target + 16];
    struct stat st;
    snprintf(marker, sizeof marker, "%s/%s", o->target, o->marker);
    if (lstat(marker, &st) || !S_ISREG(st.st_mode)) {
        cli_error(o->cmd, "'%s' exists and is not a directory gisa wrote (it has no %s): not replaced", o->dir, o->marker);
        return EXIT_USAGE;
    }
    snprintf(old, sizeof old, "%s.oldXXXXXX", o->target);
    if (!mkdtemp(old) || rmdir(old) || rename(o->target, old)) {
        cli_error(o->cmd, "cannot move the old '%s' aside: %s", o->dir, strerror(errno));
        return EXIT_USAGE;
    }
    if (rename(o->tmp, o->target)) {
        int e = errno;
        rename(old, o->target);
        cli_error(o->cmd, "cannot write '%s': %s", o->dir, strerror(e));
        return EXIT_USAGE;
    }
    o->tmp[0] = 0;
    if (remove_flat_dir(old))
        cli_error(o->cmd, "warning: the old directory is left as '%s' (%s)", old, strerror(errno));
    return EXIT_OK;
}

int cli_outdir_commit(cli_outdir *o)
{
    int r = o->failed ? EXIT_USAGE : put_file(o, o->marker, o->marker_data ? o->marker_data : "", o->marker_len);
    if (r == EXIT_OK && !rename(o->tmp, o->target))
        o->tmp[0] = 0;
    else if (r == EXIT_OK && (errno == EEXIST || errno == ENOTEMPTY))
        r = replace_ours(o);
    else if (r == EXIT_OK) {
        cli_error(o->cmd, "cannot write '%s': %s", o->dir, errno == ENOTDIR ? "it exists and is not a directory" : strerror(errno));
        r = EXIT_USAGE;
    }
    if (r != EXIT_OK)
        cli_outdir_abort(o);
    return r;
}
