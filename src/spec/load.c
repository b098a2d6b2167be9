/* Loading the model of an ISA: from the embedded copies, from a directory
 * (the project's types/rulings overlay found beside, given, or embedded),
 * or from in-memory sources. The model is complete with its decoder; the
 * tools' own tables are built on it by the library's loader (src/lib). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

gisa_status spec_load_sources(const gisa_source *files, size_t n, gisa_isa **out, gisa_diags *diags)
{
    if (!out || (n && !files))
        return GISA_ERR_USAGE;
    *out = NULL;
    gisa_isa *isa = calloc(1, sizeof *isa);
    if (!isa)
        return GISA_ERR_NOMEM;
    arena_init(&isa->a);
    int errors = 0;
    /* the model keeps its own copy of names and texts: locations point into them */
    for (size_t i = 0; i < n; i++) {
        const char *name = arena_strdup(&isa->a, files[i].name ? files[i].name : "<input>");
        size_t len = files[i].text ? files[i].len : 0;
        const char *text = arena_strndup(&isa->a, files[i].text ? files[i].text : "", len);
        if (!name || !text)
            break;
        errors += raw_parse_file(&isa->a, &isa->raw, name, text, len, diags);
    }
    if (!errors)
        errors = model_build(isa, diags);
    if (!errors && decoder_build(isa))
        errors++;
    if (errors || isa->a.failed) {
        int nomem = isa->a.failed;
        if (nomem) /* a failed load always says why */
            diag_add(diags, GISA_ERROR, NULL, "out of memory loading the ISA description");
        gisa_isa_free(isa);
        return nomem ? GISA_ERR_NOMEM : GISA_ERR_INPUT;
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

gisa_status spec_load_embedded(const char *target, gisa_isa **out, gisa_diags *diags)
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
    return spec_load_sources(src, n, out, diags);
}

/* *over_limit is set for a file over MAX_DESC_FILE: an input error, not an
 * I/O one. */
static char *read_file(const char *path, size_t *len, int *over_limit, gisa_diags *diags)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_add(diags, GISA_ERROR, NULL, "cannot open %s: %s", path, strerror(errno));
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

/* Lists *.isa and *.isa.txt of dir, sorted. Returns count or -1. */
static int list_dir(const char *dir, char **names, int cap, gisa_diags *diags)
{
    DIR *d = opendir(dir);
    if (!d) {
        diag_add(diags, GISA_ERROR, NULL, "cannot open directory %s: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !(has_suffix(e->d_name, ".isa") || has_suffix(e->d_name, ".isa.txt")))
            continue;
        if (n == cap) {
            diag_add(diags, GISA_ERROR, NULL, "%s: more than %d description files", dir, cap);
            break;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            break;
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

gisa_status spec_load_dir(const char *dir, const char *overlay_dir, const char *target, gisa_isa **out,
                          gisa_diags *diags)
{
    if (!dir || !out)
        return GISA_ERR_USAGE;
    if (!target)
        target = default_target();
    char *names[MAX_DESC_FILES];
    gisa_source src[MAX_DESC_FILES + 2];
    char *texts[MAX_DESC_FILES + 2];
    int n = list_dir(dir, names, MAX_DESC_FILES, diags);
    if (n < 0)
        return GISA_ERR_IO;
    int ns = 0, has_overlay = 0, failed = 0, over_limit = 0;
    char label[2][160]; /* names of embedded overlay files (copied by the loader) */
    for (int i = 0; i < n; i++) {
        size_t len = 0;
        texts[ns] = read_file(names[i], &len, &over_limit, diags);
        if (!texts[ns]) {
            failed = 1;
            continue;
        }
        has_overlay |= is_overlay(names[i]);
        src[ns] = (gisa_source){names[i], texts[ns], len};
        ns++;
    }
    if (!n)
        diag_add(diags, GISA_WARNING, NULL, "%s holds no *.isa or *.isa.txt file", dir);
    /* the project's types and rulings, when the directory has none */
    if (!has_overlay && !failed) {
        for (int k = 0; k < 2; k++) {
            if (overlay_dir) {
                size_t len = strlen(overlay_dir) + strlen(overlay_names[k]) + 2;
                char *path = malloc(len);
                if (!path) {
                    failed = 1;
                    break;
                }
                snprintf(path, len, "%s/%s", overlay_dir, overlay_names[k]);
                size_t tl = 0;
                texts[ns] = read_file(path, &tl, &over_limit, diags);
                if (!texts[ns]) {
                    free(path);
                    failed = 1;
                    continue;
                }
                names[n++] = path; /* freed with the others */
                src[ns] = (gisa_source){path, texts[ns], tl};
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
                texts[ns] = NULL;
                src[ns++] = (gisa_source){label[k], gisa_embedded_files[i].text, gisa_embedded_files[i].len};
            }
        }
    }
    gisa_status st = failed ? (over_limit ? GISA_ERR_NOMEM : GISA_ERR_IO)
                            : spec_load_sources(src, (size_t)ns, out, diags);
    for (int i = 0; i < ns; i++)
        free(texts[i]);
    for (int i = 0; i < n; i++)
        free(names[i]);
    return st;
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
size_t gisa_isa_find_opcode(const gisa_isa *isa, const char *name)
{
    if (!isa || !name)
        return (size_t)-1;
    int i = strmap_get(&isa->opcode_by_name, name, strlen(name));
    return i < 0 ? (size_t)-1 : (size_t)i;
}
