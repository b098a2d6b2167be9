/* Loading the model of an ISA: from the embedded copies, from files and
 * directories (the project's types/rulings overlay found among them, given,
 * or embedded),
 * or from in-memory sources. The model is complete with its decoder; the
 * tools' own tables are built on it by the library's loader (src/lib). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/strbuf.h"
#include "common/text.h"
#include "spec/decoder.h"
#include "spec/embedded.h"
#include "spec/load.h"

#define MAX_DESC_FILE (16u << 20) /* 16 MiB per description file */
#define MAX_DESC_FILES 256

static const char *const overlay_names[] = {"types.isa", "rulings.isa"};

static int is_overlay(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    return !strcmp(base, overlay_names[0]) || !strcmp(base, overlay_names[1]);
}

gisa_status spec_load_sources(const gisa_source *files, size_t n, size_t max_memory, gisa_isa **out,
                              gisa_diags *diags)
{
    if (!out || (n && !files))
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_isa *isa = calloc(1, sizeof *isa);
    if (!isa)
        return GISA_ERR_NOMEM;
    arena_init(&isa->a);
    /* everything the model holds is in its arena: the budget bounds the
     * load (the tools' tables and the pseudo-code's trees included) */
    isa->a.limit = isa->max_memory = max_memory;
    int errors = 0, reported = 0;
    /* the model keeps its own copy of names and texts: locations point into them */
    for (size_t i = 0; i < n && !isa->a.failed && !arena_over(&isa->a); i++) {
        const char *name = arena_strdup(&isa->a, files[i].name ? files[i].name : "<input>");
        size_t len = files[i].text ? files[i].len : 0;
        const char *text = arena_strndup(&isa->a, files[i].text ? files[i].text : "", len);
        if (!name || !text)
            break;
        if (arena_over(&isa->a)) { /* the text alone */
            srcloc at = {name, 0, 0, 0, NULL, 0, NULL};
            diag_memory_limit(diags, &at, max_memory);
            reported = 1;
            break;
        }
        errors += raw_parse_file(&isa->a, &isa->raw, name, text, len, diags);
        reported = isa->a.failed || arena_over(&isa->a); /* at the line it reached */
    }
    if (!errors && !isa->a.failed && !arena_over(&isa->a))
        errors = model_build(isa, diags);
    if (!errors && !isa->a.failed && !arena_over(&isa->a) && decoder_build(isa))
        errors++;
    if (errors || isa->a.failed || arena_over(&isa->a)) {
        int nomem = isa->a.failed, limit = !nomem && arena_over(&isa->a);
        if ((nomem || limit) && !reported) { /* a failed load always says why */
            if (limit)
                diag_memory_limit(diags, NULL, max_memory);
            else
                diag_add(diags, GISA_ERROR, NULL, "out of memory loading the ISA description");
        }
        gisa_isa_free(isa);
        return nomem ? GISA_ERR_NOMEM : limit ? GISA_ERR_LIMIT : GISA_ERR_INPUT;
    }
    *out = isa;
    return GISA_OK;
}

static const char *default_target(void) { return "gisa128"; }

size_t gisa_target_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count; i++)
        if (i == 0 || strcmp(gisa_embedded_files[i].target, gisa_embedded_files[i - 1].target))
            n++;
    return n;
}

const char *gisa_target_name(size_t k)
{
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count; i++)
        if (i == 0 || strcmp(gisa_embedded_files[i].target, gisa_embedded_files[i - 1].target))
            if (n++ == k)
                return gisa_embedded_files[i].target;
    return NULL;
}

static int target_known(const char *target)
{
    for (size_t i = 0; i < gisa_embedded_file_count; i++)
        if (!strcmp(gisa_embedded_files[i].target, target))
            return 1;
    return 0;
}

gisa_status spec_load_embedded(const char *target, size_t max_memory, gisa_isa **out, gisa_diags *diags)
{
    if (!target)
        target = default_target();
    if (!target_known(target)) {
        diag_add(diags, GISA_ERROR, NULL, "unknown target '%s'", target);
        return GISA_ERR_NOTFOUND;
    }
    gisa_source src[MAX_DESC_FILES];
    char names[MAX_DESC_FILES][160]; /* copied by the loader */
    size_t n = 0;
    for (size_t i = 0; i < gisa_embedded_file_count && n < MAX_DESC_FILES; i++)
        if (!strcmp(gisa_embedded_files[i].target, target)) {
            snprintf(names[n], sizeof names[n], "<embedded>/%s/%s", target, gisa_embedded_files[i].name);
            src[n] = (gisa_source){names[n], gisa_embedded_files[i].text, gisa_embedded_files[i].len};
            n++;
        }
    return spec_load_sources(src, n, max_memory, out, diags);
}

/* *over_limit is set for a file over MAX_DESC_FILE: an input error, not an
 * I/O one. */
static char *read_file(const char *path, size_t *len, int *over_limit, gisa_diags *diags)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        char why[ERRNO_TEXT_MAX];
        diag_add(diags, GISA_ERROR, NULL, "cannot open %s: %s", path, errno_text(errno, why, sizeof why));
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = cap ? cap * 2 : 131072;
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                diag_add(diags, GISA_ERROR, NULL, "%s: out of memory", path);
                return NULL;
            }
            buf = p;
        }
        size_t r = fread(buf + n, 1, 65536, f);
        n += r;
        if (n > MAX_DESC_FILE) {
            *over_limit = 1;
            free(buf);
            fclose(f);
            diag_add(diags, GISA_ERROR, NULL, "%s: larger than the 16 MiB limit for a description file", path);
            return NULL;
        }
        if (r < 65536)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        diag_add(diags, GISA_ERROR, NULL, "error reading %s", path);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Named as a description: always read as one. */
static int named_description(const char *path) { return has_suffix(path, ".isa") || has_suffix(path, ".isa.txt"); }

/* Editor and patch leftovers: never taken from a directory. */
static int is_backup(const char *name)
{
    static const char *const sufs[] = {"~", ".orig", ".rej", ".swp", ".swo", ".bak"};
    for (size_t k = 0; k < sizeof sufs / sizeof *sufs; k++)
        if (has_suffix(name, sufs[k]))
            return 1;
    return 0;
}

static int valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
        if (!k || i + k >= n)
            return 0;
        unsigned lo = 0x80, hi = 0xBF;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
        else if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return 0;
        for (size_t j = 2; j <= k; j++)
            if ((s[i + j] & 0xC0) != 0x80)
                return 0;
        i += k + 1;
    }
    return 1;
}

static int ident_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Why a file whose name does not say so is no ISA description, or NULL when
 * it looks like one: no NUL byte, and a line starting with a __DefXxx
 * keyword outside ``` blocks (whatever the encoding of the prose). */
static const char *not_description(const char *text, size_t len)
{
    if (!len)
        return "empty file";
    if (memchr(text, 0, len))
        return "binary file";
    int fence = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        size_t b = i;
        if (b == 0)
            b = utf8_bom_len(text, len);
        while (b < e && (text[b] == ' ' || text[b] == '\t'))
            b++;
        if (e - b >= 3 && !memcmp(text + b, "```", 3))
            fence = !fence;
        else if (!fence && e - b > 5 && !memcmp(text + b, "__Def", 5) && ident_char((unsigned char)text[b + 5]))
            return NULL;
        i = e + 1;
    }
    return valid_utf8((const unsigned char *)text, len) ? "no __DefXxx definition" : "not UTF-8 text";
}

/* The files of one --isa path, gathered before they are parsed. */
typedef struct gather {
    gisa_source src[MAX_DESC_FILES + 2];
    char *texts[MAX_DESC_FILES + 2]; /* owned */
    char *names[MAX_DESC_FILES + 2]; /* owned */
    dev_t dev[MAX_DESC_FILES];
    ino_t ino[MAX_DESC_FILES];
    int n;       /* src entries */
    int nnames;  /* names entries */
    int has_overlay, failed, over_limit, full;
    size_t limit, bytes; /* the load's memory budget (0: none); the texts read so far */
    gisa_diags *diags;
} gather;

/* Takes one file (path is malloc'd, owned from now on): read, and kept
 * unless it is no description (a note says so). */
static void take_file(gather *g, char *path, const struct stat *st)
{
    for (int i = 0; i < g->n; i++)
        if (g->dev[i] == st->st_dev && g->ino[i] == st->st_ino) { /* named twice: read once */
            free(path);
            return;
        }
    if (g->n >= MAX_DESC_FILES) {
        if (!g->full)
            diag_add(g->diags, GISA_ERROR, NULL, "more than %d description files", MAX_DESC_FILES);
        g->full = g->failed = g->over_limit = 1;
        free(path);
        return;
    }
    const char *why = NULL;
    char *text = NULL;
    size_t len = 0;
    if (!named_description(path) && st->st_size > (off_t)MAX_DESC_FILE) { /* a PDF beside the documents */
        why = "larger than the 16 MiB limit of a description file";
        goto skip;
    }
    text = read_file(path, &len, &g->over_limit, g->diags);
    if (!text) {
        g->failed = 1;
        free(path);
        return;
    }
    /* the texts are all read before any is parsed (256 files of 16 MiB
     * would be 4 GiB), and the model copies them: over the budget already */
    if (g->limit && (g->bytes += len) > g->limit) {
        srcloc at = {path, 0, 0, 0, NULL, 0, NULL};
        diag_memory_limit(g->diags, &at, g->limit);
        g->full = g->failed = g->over_limit = 1;
        free(text);
        free(path);
        return;
    }
    why = named_description(path) ? NULL : not_description(text, len);
    if (why) {
    skip:;
        srcloc at = {path, 0, 0, 0, NULL, 0, NULL};
        diag_add(g->diags, GISA_NOTE, &at, "skipped: not an ISA description (%s)", why);
        free(text);
        free(path);
        return;
    }
    g->has_overlay |= is_overlay(path);
    g->dev[g->n] = st->st_dev;
    g->ino[g->n] = st->st_ino;
    g->texts[g->n] = text;
    g->names[g->nnames++] = path;
    g->src[g->n++] = (gisa_source){path, text, len};
}

static char *join_path(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s", dir, name);
    return p;
}

/* Every regular, non-hidden, non-backup file of dir, in name order. */
static void take_dir(gather *g, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        char why[ERRNO_TEXT_MAX];
        diag_add(g->diags, GISA_ERROR, NULL, "cannot open directory %s: %s", dir, errno_text(errno, why, sizeof why));
        g->failed = 1;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || is_backup(e->d_name))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 32;
            char **p = nc > 65536 ? NULL : realloc(names, nc * sizeof *names);
            if (!p)
                break;
            names = p;
            cap = nc;
        }
        if (!(names[n] = join_path(dir, e->d_name)))
            break;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (g->full || stat(names[i], &st) || !S_ISREG(st.st_mode)) { /* subdirectories, devices, dangling links */
            free(names[i]);
            continue;
        }
        take_file(g, names[i], &st);
    }
    free(names);
}

/* Gathers the files of paths (files and directories), in order. */
static void take_paths(gather *g, const char *const *paths, size_t npaths)
{
    for (size_t i = 0; i < npaths && !g->full; i++) {
        struct stat st;
        if (stat(paths[i], &st)) {
            char why[ERRNO_TEXT_MAX];
            diag_add(g->diags, GISA_ERROR, NULL, "cannot open %s: %s", paths[i], errno_text(errno, why, sizeof why));
            g->failed = 1;
        } else if (S_ISDIR(st.st_mode)) {
            take_dir(g, paths[i]);
        } else if (S_ISREG(st.st_mode)) {
            char *p = malloc(strlen(paths[i]) + 1);
            if (!p) {
                g->failed = g->over_limit = 1;
                break;
            }
            strcpy(p, paths[i]);
            take_file(g, p, &st);
        } else {
            diag_add(g->diags, GISA_ERROR, NULL, "%s is neither a file nor a directory", paths[i]);
            g->failed = 1;
        }
    }
}

/* The embedded descriptions of target, first (types and rulings among them). */
static void take_embedded(gather *g, const char *target)
{
    if (!target_known(target)) {
        diag_add(g->diags, GISA_ERROR, NULL, "unknown target '%s'", target);
        g->failed = 1;
        return;
    }
    for (size_t i = 0; i < gisa_embedded_file_count && g->n < MAX_DESC_FILES; i++) {
        if (strcmp(gisa_embedded_files[i].target, target))
            continue;
        size_t len = strlen(target) + strlen(gisa_embedded_files[i].name) + 13;
        char *name = malloc(len);
        if (!name) {
            g->failed = g->over_limit = 1;
            return;
        }
        snprintf(name, len, "<embedded>/%s/%s", target, gisa_embedded_files[i].name);
        g->names[g->nnames++] = name;
        g->texts[g->n] = NULL;
        g->src[g->n++] = (gisa_source){name, gisa_embedded_files[i].text, gisa_embedded_files[i].len};
    }
    g->has_overlay = 1;
}

gisa_status spec_load_paths(const char *const *paths, size_t npaths, const char *const *add, size_t nadd,
                            const char *overlay_dir, const char *target, size_t max_memory, gisa_isa **out,
                            gisa_diags *diags)
{
    if (!out)
        return GISA_ERR_USAGE;
    *out = NULL;
    if ((!paths && npaths) || (!add && nadd) || !(npaths + nadd))
        return GISA_ERR_USAGE;
    for (size_t i = 0; i < npaths + nadd; i++)
        if (!(i < npaths ? paths[i] : add[i - npaths]) || !(i < npaths ? paths[i] : add[i - npaths])[0])
            return GISA_ERR_USAGE;
    if (!target)
        target = default_target();
    gather *g = calloc(1, sizeof *g);
    if (!g)
        return GISA_ERR_NOMEM;
    g->diags = diags;
    g->limit = max_memory;
    if (npaths)
        take_paths(g, paths, npaths);
    else
        take_embedded(g, target);
    take_paths(g, add, nadd);
    int failed = g->failed, ns = g->n, none = !failed && !g->n;
    char label[2][160]; /* names of embedded overlay files (copied by the loader) */
    /* the project's types and rulings, when the files have none */
    if (!g->has_overlay && !failed && !none) {
        for (int k = 0; k < 2; k++) {
            if (overlay_dir) {
                char *path = join_path(overlay_dir, overlay_names[k]);
                if (!path) {
                    failed = 1;
                    break;
                }
                size_t tl = 0;
                g->texts[ns] = read_file(path, &tl, &g->over_limit, diags);
                if (!g->texts[ns]) {
                    free(path);
                    failed = 1;
                    continue;
                }
                g->names[g->nnames++] = path; /* freed with the others */
                g->src[ns] = (gisa_source){path, g->texts[ns], tl};
                ns++;
            } else {
                size_t i;
                for (i = 0; i < gisa_embedded_file_count; i++)
                    if (!strcmp(gisa_embedded_files[i].target, target) &&
                        !strcmp(gisa_embedded_files[i].name, overlay_names[k]))
                        break;
                if (i == gisa_embedded_file_count) {
                    if (k == 0) {
                        diag_add(diags, GISA_ERROR, NULL, "no embedded types file for target '%s'", target);
                        failed = 1;
                    }
                    continue;
                }
                snprintf(label[k], sizeof label[k], "<embedded>/%s/%s", target, overlay_names[k]);
                g->texts[ns] = NULL;
                g->src[ns++] = (gisa_source){label[k], gisa_embedded_files[i].text, gisa_embedded_files[i].len};
            }
        }
    }
    gisa_status st = failed ? (g->over_limit ? GISA_ERR_LIMIT : GISA_ERR_IO)
                     : none ? GISA_ERR_INPUT
                            : spec_load_sources(g->src, (size_t)ns, max_memory, out, diags);
    if (none || (st == GISA_OK && !(*out)->nopcodes)) {
        /* only types and rulings (or nothing at all): no ISA a tool could use */
        char what[512];
        str_join_list(what, sizeof what, npaths ? paths : add, npaths ? npaths : nadd);
        diag_add(diags, GISA_ERROR, NULL, "no instruction (opcode) defined in %s%s", what,
                 g->n ? "" : " (no ISA description file found)");
        if (!none)
            gisa_isa_free(*out);
        *out = NULL;
        st = GISA_ERR_INPUT;
    }
    for (int i = 0; i < ns; i++)
        free(g->texts[i]);
    for (int i = 0; i < g->nnames; i++)
        free(g->names[i]);
    free(g);
    return st;
}

gisa_status spec_load_dir(const char *dir, const char *overlay_dir, const char *target, gisa_isa **out,
                          gisa_diags *diags)
{
    if (!dir || !out)
        return GISA_ERR_USAGE;
    return spec_load_paths(&dir, 1, NULL, 0, overlay_dir, target, 0, out, diags);
}

void gisa_isa_free(gisa_isa *isa)
{
    if (!isa)
        return;
    strmap_free(&isa->type_by_name);
    strmap_free(&isa->opcode_by_name);
    strmap_free(&isa->mnemonic_by_name);
    strmap_free(&isa->modifier_by_name);
    arena_free(&isa->a);
    free(isa);
}

unsigned gisa_isa_word_bits(const gisa_isa *isa) { return isa ? (unsigned)isa->word_bits : 0; }
size_t gisa_isa_opcode_count(const gisa_isa *isa) { return isa ? (size_t)isa->nopcodes : 0; }
const char *gisa_isa_opcode_name(const gisa_isa *isa, size_t i)
{
    return isa && i < (size_t)isa->nopcodes ? isa->opcodes[i].name : NULL;
}
size_t gisa_isa_optype_count(const gisa_isa *isa) { return isa ? (size_t)isa->noptypes : 0; }
const char *gisa_isa_optype_name(const gisa_isa *isa, size_t i)
{
    return isa && i < (size_t)isa->noptypes ? isa->optypes[i].name : NULL;
}
gisa_status gisa_isa_find_opcode(const gisa_isa *isa, const char *name, size_t *index)
{
    if (!isa || !name || !index)
        return GISA_ERR_USAGE;
    int i = strmap_get(&isa->opcode_by_name, name, strlen(name));
    if (i < 0)
        return GISA_ERR_NOTFOUND;
    *index = (size_t)i;
    return GISA_OK;
}
