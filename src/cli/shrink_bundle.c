/* `gisa shrink --bundle DIR`: one directory that reproduces a failure by
 * itself: prog.s (the shrunk program, the generator's header kept),
 * state.json (the shrunk state), repro.sh (the failing command on those
 * two files) and bundle.json (what produced them: gisa's version, the seed
 * and options of the header, the command, its failing status, the sizes).
 * Written through cli_outdir, bundle.json last as its marker: an earlier
 * bundle is replaced, anything else is refused, and an interrupted write
 * leaves no DIR that is half a bundle. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>

#include "shrink.h"

size_t shrink_header_len(const char *text, size_t len)
{
    size_t at = 0;
    while (at + 1 < len && text[at] == '/' && text[at + 1] == '/') {
        const char *nl = memchr(text + at, '\n', len - at);
        at = nl ? (size_t)(nl - text) + 1 : len;
    }
    return at;
}

int shrink_bundle_check(const cli_cmd *cmd, const char *dir)
{
    struct stat st;
    if (!*dir) {
        cli_error(cmd, "--bundle needs a directory name");
        return EXIT_USAGE;
    }
    if (stat(dir, &st))
        return CLI_CONTINUE; /* made at the end (a missing parent shows then) */
    if (!S_ISDIR(st.st_mode)) {
        cli_error(cmd, "--bundle %s: it exists and is not a directory", dir);
        return EXIT_USAGE;
    }
    char marker[4200];
    snprintf(marker, sizeof marker, "%s/bundle.json", dir);
    if (!stat(marker, &st))
        return CLI_CONTINUE;
    DIR *d = opendir(dir);
    struct dirent *e;
    int empty = d != NULL;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = 0;
    if (d)
        closedir(d);
    if (!empty) {
        cli_error(cmd, "--bundle %s: a directory that is neither empty nor a bundle (no bundle.json): not replaced", dir);
        return EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

static void json_str(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The seed and options of a `// gisa gen ...` header line. */
static void gen_line(const char *text, size_t len, const char **opts, size_t *opts_len, const char **seed,
                     size_t *seed_len)
{
    static const char lead[] = "// gisa gen";
    *opts = *seed = NULL;
    *opts_len = *seed_len = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (end - at >= sizeof lead - 1 && !memcmp(text + at, lead, sizeof lead - 1) &&
            (end - at == sizeof lead - 1 || text[at + sizeof lead - 1] == ' ')) {
            const char *o = text + at + sizeof lead - 1;
            while (o < text + end && *o == ' ')
                o++;
            *opts = o;
            *opts_len = (size_t)(text + end - o);
            for (const char *p = o; p + 7 <= text + end; p++)
                if (!memcmp(p, "--seed ", 7) && (p == o || p[-1] == ' ')) {
                    *seed = p + 7;
                    *seed_len = strcspn(*seed, " \n");
                    if (*seed + *seed_len > text + end)
                        *seed_len = (size_t)(text + end - *seed);
                    break;
                }
            return;
        }
        at = end + 1;
    }
}

static char *bundle_json(const shrink_bundle *b, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    size_t hl = shrink_header_len(b->prog, b->prog_len), ol, sl;
    const char *opts, *seed;
    gen_line(b->prog, hl, &opts, &ol, &seed, &sl);
    fprintf(f, "{\n  \"gisa\": \"%s\",\n  \"program\": \"prog.s\",\n  \"state\": %s,\n", gisa_version(),
            b->state ? "\"state.json\"" : "null");
    fputs("  \"seed\": ", f);
    if (seed)
        json_str(f, seed, sl);
    else
        fputs("null", f);
    fputs(",\n  \"gen_options\": ", f);
    if (opts)
        json_str(f, opts, ol);
    else
        fputs("null", f);
    fputs(",\n  \"header\": [", f);
    for (size_t at = 0, n = 0; at < hl; n++) {
        const char *nl = memchr(b->prog + at, '\n', hl - at);
        size_t end = nl ? (size_t)(nl - b->prog) : hl;
        fputs(n ? ", " : "", f);
        json_str(f, b->prog + at, end - at);
        at = end + 1;
    }
    fputs("],\n  \"command\": [", f);
    for (int i = 0; i < b->ncommand; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, b->command[i], strlen(b->command[i]));
    }
    fputs("],\n  \"status\": ", f);
    if (b->status >= 0)
        fprintf(f, "%d", b->status);
    else
        fputs("null", f);
    fprintf(f,
            ",\n  \"status_required\": %s,\n  \"program_lines\": [%zu, %zu],\n  \"program_bytes\": [%zu, %zu],\n"
            "  \"state_bytes\": [%zu, %zu],\n  \"runs\": %zu\n}\n",
            b->status_required ? "true" : "false", b->lines_before, b->lines_after, b->prog_bytes_before, b->prog_len,
            b->state_bytes_before, b->state ? b->state_len : 0, b->runs);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* One argument of the command as shell words: the placeholders become the
 * bundle's files ("$d/prog.s"), the rest is quoted as it is. */
static void shell_arg(FILE *f, const char *arg)
{
    int open = 0;
    for (const char *p = arg; *p;) {
        const char *file = !strncmp(p, SHRINK_STATE, strlen(SHRINK_STATE)) ? "state.json"
                           : !strncmp(p, SHRINK_PROG_LONG, strlen(SHRINK_PROG_LONG)) || !strncmp(p, SHRINK_PROG, 2)
                               ? "prog.s"
                               : NULL;
        if (file) {
            if (open)
                fputc('\'', f);
            open = 0;
            fprintf(f, "\"$d/%s\"", file);
            p += !strncmp(p, SHRINK_STATE, strlen(SHRINK_STATE))         ? strlen(SHRINK_STATE)
                 : !strncmp(p, SHRINK_PROG_LONG, strlen(SHRINK_PROG_LONG)) ? strlen(SHRINK_PROG_LONG)
                                                                           : 2;
            continue;
        }
        if (!open)
            fputc('\'', f);
        open = 1;
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
        p++;
    }
    if (open)
        fputc('\'', f);
    else if (!*arg)
        fputs("''", f);
}

static char *repro_sh(const shrink_bundle *b, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fputs("#!/bin/sh\n"
          "# Written by gisa shrink: runs the failing command on this bundle's\n"
          "# prog.s and state.json (bundle.json says what it is); its exit status\n"
          "# is the command's",
          f);
    if (b->status >= 0)
        fprintf(f, " (%d when it still fails)", b->status);
    fputs(".\nd=$(cd \"$(dirname \"$0\")\" && pwd) || exit 125\nexec", f);
    for (int i = 0; i < b->ncommand; i++) {
        fputc(' ', f);
        shell_arg(f, b->command[i]);
    }
    fputc('\n', f);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

int shrink_bundle_write(const cli_cmd *cmd, const char *dir, const shrink_bundle *b)
{
    size_t jl = 0, rl = 0;
    char *json = bundle_json(b, &jl), *sh = repro_sh(b, &rl);
    if (!json || !sh) {
        free(json);
        free(sh);
        cli_error(cmd, "out of memory writing the bundle");
        return EXIT_USAGE;
    }
    cli_outdir o;
    int r = cli_outdir_begin(cmd, dir, "bundle.json", &o);
    if (r == EXIT_OK) {
        o.marker_data = json;
        o.marker_len = jl;
        r = cli_outdir_add(&o, "prog.s", b->prog, b->prog_len);
        if (r == EXIT_OK && b->state)
            r = cli_outdir_add(&o, "state.json", b->state, b->state_len);
        if (r == EXIT_OK)
            r = cli_outdir_add(&o, "repro.sh", sh, rl);
        char path[sizeof o.tmp + 16];
        snprintf(path, sizeof path, "%s/repro.sh", o.tmp);
        mode_t mask = umask(0);
        umask(mask);
        if (r == EXIT_OK && chmod(path, 0777 & ~mask)) {
            cli_error(cmd, "cannot make %s/repro.sh executable: %s", dir, strerror(errno));
            r = EXIT_USAGE;
        }
        if (r == EXIT_OK)
            r = cli_outdir_commit(&o);
        else
            cli_outdir_abort(&o);
    }
    free(json);
    free(sh);
    return r;
}
