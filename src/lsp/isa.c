/* The description files' features: lint's diagnostics, hover on a type,
 * field or optype, go-to-definition across the files, document symbols;
 * and the locations of definitions that the assembly features point to. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/readfile.h"
#include "lsp/asmtext.h"
#include "lsp/server.h"
#include "spec/embedded.h"
#include "spec/model.h"

#define MAX_FILES 64                     /* description files read beside a document */
#define MAX_FILE_BYTES ((size_t)16 << 20) /* the loader's limit per file */

/* ------------------------------------------------------------ locations */

/* mkdir -p of path's directories (not its last component). */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int r = mkdir(path, 0777);
            *p = '/';
            if (r && errno != EEXIST)
                return -1;
        }
    return 0;
}

/* An embedded description written under the cache directory (once: the
 * directory's name holds the version), for the client to open. */
static char *embedded_file(const lsp_server *s, const char *file)
{
    const char *rest = file + strlen("<embedded>/");
    if (!s->opt.cache_dir || s->opt.no_files)
        return NULL;
    for (size_t i = 0; i < gisa_embedded_file_count; i++) {
        const gisa_embedded_file *e = &gisa_embedded_files[i];
        size_t tn = strlen(e->target);
        if (strncmp(rest, e->target, tn) || rest[tn] != '/' || strcmp(rest + tn + 1, e->name))
            continue;
        size_t n = strlen(s->opt.cache_dir) + strlen(rest) + 2;
        char *path = malloc(n + 16);
        if (!path)
            return NULL;
        snprintf(path, n, "%s/%s", s->opt.cache_dir, rest);
        struct stat st;
        if (!stat(path, &st) && (size_t)st.st_size == e->len)
            return path;
        char *tmp = malloc(n + 16);
        FILE *f = NULL;
        if (tmp && !make_dirs(path)) {
            snprintf(tmp, n + 16, "%s.%ld", path, (long)getpid());
            f = fopen(tmp, "wb");
        }
        int ok = f && fwrite(e->text, 1, e->len, f) == e->len;
        if (f && fclose(f))
            ok = 0;
        if (ok && rename(tmp, path))
            ok = 0;
        if (tmp && !ok)
            remove(tmp);
        free(tmp);
        if (!ok) {
            free(path);
            return NULL;
        }
        return path;
    }
    return NULL;
}

int put_def_location(lsp_server *s, const char *file, int line, int col, strbuf *b)
{
    if (!file || !*file || s->opt.no_files)
        return 0;
    char *path = !strncmp(file, "<embedded>/", 11) ? embedded_file(s, file) : realpath(file, NULL);
    if (!path)
        return 0;
    lsp_pos a = {line > 0 ? line - 1 : 0, col > 0 ? col - 1 : 0};
    sb_puts(b, "{\"uri\":");
    put_uri(b, path);
    sb_puts(b, ",\"range\":");
    put_range(b, a, a);
    sb_putc(b, '}');
    free(path);
    return 1;
}

/* ------------------------------------------------------------ loading */

static int description_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && ((n > 4 && !strcmp(name + n - 4, ".isa")) || (n > 8 && !strcmp(name + n - 8, ".isa.txt")));
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct files {
    gisa_source src[MAX_FILES + 2];
    char *owned[MAX_FILES + 2]; /* texts and names to free */
    size_t n, nowned;
    int types, rulings; /* types.isa / rulings.isa among them */
} files;

static void add_source(files *f, const char *name, const char *text, size_t len)
{
    if (f->n >= MAX_FILES + 2)
        return;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    f->types |= !strcmp(base, "types.isa");
    f->rulings |= !strcmp(base, "rulings.isa");
    f->src[f->n++] = (gisa_source){name, text, len};
}

/* The description files of the document's directory, the document's text
 * for its own file (and an open document's for its file). */
static void gather(lsp_server *s, lsp_doc *d, files *f)
{
    add_source(f, d->path, d->text, d->len);
    if (s->opt.no_files)
        return;
    const char *slash = strrchr(d->path, '/');
    if (!slash)
        return;
    char *dir = strndup(d->path, (size_t)(slash - d->path) + (slash == d->path));
    DIR *dh = dir ? opendir(dir) : NULL;
    char *names[MAX_FILES];
    size_t nn = 0;
    struct dirent *e;
    while (dh && nn < MAX_FILES && (e = readdir(dh)))
        if (description_name(e->d_name) && (names[nn] = strdup(e->d_name)))
            nn++;
    if (dh)
        closedir(dh);
    qsort(names, nn, sizeof *names, by_name);
    for (size_t i = 0; i < nn; i++) {
        size_t n = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(n);
        if (path)
            snprintf(path, n, "%s/%s", dir, names[i]);
        free(names[i]);
        if (!path || !strcmp(path, d->path) || f->nowned + 2 > MAX_FILES + 2) {
            free(path);
            continue;
        }
        lsp_doc *open = NULL;
        for (int k = 0; k < s->ndocs && !open; k++)
            if (!strcmp(s->docs[k]->path, path))
                open = s->docs[k];
        char *text = NULL;
        size_t len = 0;
        if (open) {
            add_source(f, path, open->text, open->len);
        } else {
            FILE *fh = fopen(path, "rb");
            int r = fh ? file_read_all(fh, &text, &len) : 1;
            if (fh)
                fclose(fh);
            if (r || len > MAX_FILE_BYTES) {
                free(text);
                free(path);
                continue;
            }
            add_source(f, path, text, len);
            f->owned[f->nowned++] = text;
        }
        f->owned[f->nowned++] = path;
    }
    free(dir);
}

/* The target's own types and rulings when the directory has none. */
static void add_project_files(lsp_server *s, files *f)
{
    const char *target = s->opt.target ? s->opt.target : "gisa128";
    int types = f->types, rulings = f->rulings;
    for (size_t i = 0; i < gisa_embedded_file_count; i++) {
        const gisa_embedded_file *e = &gisa_embedded_files[i];
        if (strcmp(e->target, target))
            continue;
        int want = (!types && !strcmp(e->name, "types.isa")) || (!rulings && !strcmp(e->name, "rulings.isa"));
        if (!want)
            continue;
        size_t n = strlen(target) + strlen(e->name) + 16;
        char *name = malloc(n);
        if (!name || f->nowned >= MAX_FILES + 2) {
            free(name);
            continue;
        }
        snprintf(name, n, "<embedded>/%s/%s", target, e->name);
        f->owned[f->nowned++] = name;
        add_source(f, name, e->text, e->len);
    }
}

void isa_diagnostics(lsp_server *s, lsp_doc *d, strbuf *b)
{
    files f;
    memset(&f, 0, sizeof f);
    gather(s, d, &f);
    add_project_files(s, &f);
    gisa_diags *dg;
    sb_putc(b, '[');
    if (gisa_diags_new(&dg) != GISA_OK)
        goto out;
    gisa_diags_set_limit(dg, 1000);
    gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
    o.sources = f.src;
    o.nsources = f.n;
    o.max_memory = (size_t)1 << 30;
    gisa_isa *isa = NULL;
    if (gisa_isa_load(&o, &isa, dg) == GISA_OK) {
        gisa_isa_lint(isa, dg);
        gisa_isa_free(d->model); /* the last model that loaded stays for hover and definitions */
        d->model = isa;
    }
    int k = 0;
    for (size_t i = 0; i < gisa_diags_count(dg); i++) {
        const gisa_diag *g = gisa_diags_get(dg, i);
        int mine = g->file && !strcmp(g->file, d->path);
        if (!mine && g->severity != GISA_ERROR)
            continue; /* another file's warnings are that file's */
        lsp_pos a = {0, 0}, z = {0, 0};
        strbuf msg;
        sb_init(&msg);
        if (mine && g->line > 0) {
            a = doc_cp_pos(s, d, g->line - 1, g->col > 0 ? g->col - 1 : 0);
            z = doc_cp_pos(s, d, g->line - 1, (g->col > 0 ? g->col - 1 : 0) + (g->length > 0 ? g->length : 1));
        } else if (g->file && *g->file) {
            sb_printf(&msg, "%s:%d:%d: ", g->file, g->line, g->col);
        }
        sb_puts(&msg, g->message);
        put_diagnostic(b, k++ == 0, a, z, g, "gisa lint", &msg);
        sb_free(&msg);
    }
    gisa_diags_free(dg);
out:
    sb_putc(b, ']');
    for (size_t i = 0; i < f.nowned; i++)
        free(f.owned[i]);
}

/* ------------------------------------------------------------ names */

/* The word under the cursor (letters, digits, '_'). */
static int word_at(lsp_server *s, lsp_doc *d, lsp_pos p, size_t *w0, size_t *w1)
{
    size_t a, z;
    if (!doc_line(d, p.line, &a, &z))
        return 0;
    size_t at = doc_offset(s, d, p);
    *w0 = *w1 = at;
    while (*w0 > a && ident_char(d->text[*w0 - 1]))
        (*w0)--;
    while (*w1 < z && ident_char(d->text[*w1]))
        (*w1)++;
    return *w1 > *w0;
}

static const raw_def *find_def(const gisa_isa *isa, const char *name, size_t n)
{
    for (int i = 0; i < isa->raw.ndefs; i++) {
        const raw_def *r = isa->raw.defs[i];
        if (r->name && strlen(r->name) == n && !memcmp(r->name, name, n))
            return r;
    }
    return NULL;
}

static const char *const kind_names[] = {"target", "type", "register type", "immediate type",
                                         "group",  "optype", "opcode", "ruling"};

void isa_hover(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b)
{
    size_t w0, w1;
    const gisa_isa *isa = d->model;
    if (!isa || !word_at(s, d, p, &w0, &w1)) {
        sb_puts(b, "null");
        return;
    }
    const char *w = d->text + w0;
    size_t n = w1 - w0;
    strbuf md;
    sb_init(&md);
    const raw_def *r = find_def(isa, w, n);
    if (r) {
        sb_printf(&md, "**%s** `%s`", kind_names[r->kind], r->name);
        if (r->parent)
            sb_printf(&md, " : `%s`", r->parent);
        if (r->width)
            sb_printf(&md, ", %d bits", r->width);
        sb_printf(&md, "\n\ndefined at %s:%d\n\n", r->loc.file, r->loc.line);
        if (r->description)
            sb_printf(&md, "%s\n\n", r->description);
        if (r->kind == RAW_ENUM || r->kind == RAW_REGTYPE || r->kind == RAW_IMMTYPE) {
            for (int i = 0; i < r->nvalues && i < 64; i++) {
                const raw_value *v = &r->values[i];
                if (v->text)
                    sb_printf(&md, "- `%s = %s`\n", v->name, v->text);
                else
                    sb_printf(&md, "- `%s = %llu`\n", v->name, (unsigned long long)v->value);
            }
            if (r->nvalues > 64)
                sb_printf(&md, "- ... (%d values)\n", r->nvalues);
        } else if (r->kind == RAW_OPTYPE || r->kind == RAW_OPCODE) {
            char *name = strndup(w, n), *doc = NULL;
            if (name && gisa_isa_doc(isa, name, &doc) == GISA_OK)
                sb_printf(&md, "```\n%s```\n", doc);
            gisa_free(doc);
            free(name);
        }
    } else { /* a field: where it is placed, in the definition the cursor is in */
        const raw_field *best = NULL;
        for (int i = 0; i < isa->raw.ndefs; i++) {
            const raw_def *def = isa->raw.defs[i];
            for (int k = 0; k < def->nfields; k++) {
                const raw_field *fl = &def->fields[k];
                if (strlen(fl->name) != n || memcmp(fl->name, w, n))
                    continue;
                int here = fl->loc.file && !strcmp(fl->loc.file, d->path) && fl->loc.line == p.line + 1;
                if (!best || here)
                    best = fl;
            }
        }
        if (best)
            sb_printf(&md, "**field** `%s`: type `%s`, bits %d..%d (%d wide)%s%s\n\ndefined at %s:%d\n", best->name,
                      best->type ? best->type : "?", best->off + best->width - 1, best->off, best->width,
                      best->fixed ? ", fixed to " : best->has_value ? ", default " : "",
                      best->has_value && best->value ? best->value : "", best->loc.file, best->loc.line);
    }
    if (!md.len) {
        sb_puts(b, "null");
    } else {
        lsp_pos a = doc_pos(s, d, w0), z = doc_pos(s, d, w1);
        sb_puts(b, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
        jstr(b, md.s, md.len);
        sb_puts(b, "},\"range\":");
        put_range(b, a, z);
        sb_putc(b, '}');
    }
    sb_free(&md);
}

void isa_definition(lsp_server *s, lsp_doc *d, lsp_pos p, strbuf *b)
{
    size_t w0, w1;
    const raw_def *r = d->model && word_at(s, d, p, &w0, &w1) ? find_def(d->model, d->text + w0, w1 - w0) : NULL;
    if (!r || !put_def_location(s, r->loc.file, r->loc.line, r->loc.col, b))
        sb_puts(b, "null");
}

void isa_symbols(lsp_server *s, lsp_doc *d, strbuf *b)
{
    /* LSP's SymbolKind: Module, Enum, Struct, Struct, Namespace, Class, Function, Event */
    static const int kinds[] = {2, 10, 23, 23, 3, 5, 12, 24};
    sb_putc(b, '[');
    int n = 0;
    for (int i = 0; d->model && i < d->model->raw.ndefs; i++) {
        const raw_def *r = d->model->raw.defs[i];
        if (!r->name || !r->loc.file || strcmp(r->loc.file, d->path) || r->loc.line < 1)
            continue;
        size_t a, z;
        if (!doc_line(d, r->loc.line - 1, &a, &z))
            continue;
        lsp_pos pa = doc_pos(s, d, a), pz = doc_pos(s, d, z);
        sb_puts(b, n++ ? ",{\"name\":" : "{\"name\":");
        jcstr(b, r->name);
        sb_puts(b, ",\"detail\":");
        jcstr(b, kind_names[r->kind]);
        sb_printf(b, ",\"kind\":%d,\"range\":", kinds[r->kind]);
        put_range(b, pa, pz);
        sb_puts(b, ",\"selectionRange\":");
        put_range(b, pa, pz);
        sb_putc(b, '}');
    }
    sb_putc(b, ']');
}
