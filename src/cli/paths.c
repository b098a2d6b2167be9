/* Refusing an output that would overwrite an input or another output of
 * the same command (`gisa as prog.s -o prog.s` would replace the source
 * with its own image; `gen -o x.s --words x.s` would keep only one of
 * them). Every input read through cli_read_input or the `.include` reader
 * is noted as it is opened, so that a file is recognised by its (st_dev,
 * st_ino) under any path or link; the description files are noted from
 * the command line when the check is made. */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"

typedef struct input_file {
    dev_t dev;
    ino_t ino;
    char *name;
} input_file;

static input_file *inputs;
static size_t ninputs, inputs_cap;

/* Only a regular file can be replaced by an output; a note that does not
 * fit in memory is dropped (the check is a safeguard, not the work). */
static void note(const struct stat *st, const char *name)
{
    if (!S_ISREG(st->st_mode))
        return;
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return;
    if (ninputs == inputs_cap) {
        size_t cap = inputs_cap ? 2 * inputs_cap : 16;
        input_file *p = realloc(inputs, cap * sizeof *p);
        if (!p)
            return;
        inputs = p;
        inputs_cap = cap;
    }
    char *copy = strdup(name);
    if (copy)
        inputs[ninputs++] = (input_file){st->st_dev, st->st_ino, copy};
}

void cli_note_input(int fd, const char *name)
{
    struct stat st;
    if (!fstat(fd, &st))
        note(&st, name);
}

void cli_note_input_path(const char *path)
{
    struct stat st;
    if (!stat(path, &st))
        note(&st, path);
}

void cli_inputs_free(void)
{
    for (size_t i = 0; i < ninputs; i++)
        free(inputs[i].name);
    free(inputs);
    inputs = NULL;
    ninputs = inputs_cap = 0;
}

/* The description files the command line names: files, and the files of
 * directories (the loader reads them from there). */
static void note_isa(const cli_args *a)
{
    const char *env = getenv("GISA_ISA");
    size_t nvals = a->nisa ? a->nisa : env && *env ? 1 : 0;
    for (size_t i = 0; i < nvals + a->nisa_add; i++) {
        const char *v = i >= nvals ? a->isa_add[i - nvals] : a->nisa ? a->isa[i] : env;
        char *list = strdup(v);
        for (char *s = list ? strtok(list, ":") : NULL; s; s = strtok(NULL, ":")) {
            struct stat st;
            DIR *d = !stat(s, &st) && S_ISDIR(st.st_mode) ? opendir(s) : NULL;
            if (!d) {
                cli_note_input_path(s);
                continue;
            }
            char path[PATH_MAX];
            for (struct dirent *e; (e = readdir(d));)
                if (snprintf(path, sizeof path, "%s/%s", s, e->d_name) < (int)sizeof path)
                    cli_note_input_path(path);
            closedir(d);
        }
        free(list);
    }
}

/* Where an output goes: an existing regular file by its inode, a new one
 * by its directory's resolved path and its name; 0 for what no output can
 * clobber (stdout, a device, a FIFO) or a path that cannot be opened
 * anyway (its error comes when it is opened). */
typedef struct place {
    int used, exists;
    dev_t dev;
    ino_t ino;
    char *resolved;
} place;

static int locate(const char *path, place *p)
{
    memset(p, 0, sizeof *p);
    struct stat st;
    if (!path || !strcmp(path, "-"))
        return 0;
    if (!stat(path, &st)) {
        p->exists = 1;
        p->dev = st.st_dev;
        p->ino = st.st_ino;
        return p->used = S_ISREG(st.st_mode);
    }
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char dir[PATH_MAX];
    if (!*base || snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".") >= (int)sizeof dir)
        return 0;
    char *real = realpath(dir, NULL);
    if (real && (p->resolved = malloc(strlen(real) + strlen(base) + 2)))
        sprintf(p->resolved, "%s/%s", real, base);
    free(real);
    return p->used = p->resolved != NULL;
}

static int same_place(const place *a, const place *b)
{
    if (a->exists != b->exists)
        return 0;
    return a->exists ? a->dev == b->dev && a->ino == b->ino : !strcmp(a->resolved, b->resolved);
}

static int refuse(const cli_cmd *cmd, int two_outputs, const char *a, const char *b)
{
    if (two_outputs)
        cli_error(cmd, "'%s' and '%s' are the same file, named as two outputs; nothing was written", a, b);
    else
        cli_error(cmd, "the output '%s' is the input '%s'; nothing was written", a, b);
    return EXIT_USAGE;
}

int cli_check_outputs(const cli_cmd *cmd, const cli_args *a, const char *const *outputs, size_t n, const char *inout)
{
    note_isa(a);
    place shared, p[CLI_MAX_OUTPUTS];
    int has_shared = locate(inout, &shared) && shared.exists, r = CLI_CONTINUE;
    size_t located = 0;
    for (size_t i = 0; i < n && i < CLI_MAX_OUTPUTS && r == CLI_CONTINUE; i++, located++) {
        if (!locate(outputs[i], &p[i]))
            continue;
        for (size_t k = 0; k < ninputs && p[i].exists && r == CLI_CONTINUE; k++)
            if (inputs[k].dev == p[i].dev && inputs[k].ino == p[i].ino &&
                !(has_shared && shared.dev == p[i].dev && shared.ino == p[i].ino))
                r = refuse(cmd, 0, outputs[i], inputs[k].name);
        for (size_t j = 0; j < i && r == CLI_CONTINUE; j++)
            if (p[j].used && same_place(&p[i], &p[j]))
                r = refuse(cmd, 1, outputs[j], outputs[i]);
    }
    for (size_t i = 0; i < located; i++)
        free(p[i].resolved);
    free(shared.resolved);
    return r;
}
