/* The client's initializationOptions: another ISA for assembly documents,
 * another target, more include directories (docs/editors.md). */
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"

#define MAX_OPTION_PATHS 64

typedef struct strs {
    lsp_server *s;
    const char **v;
    size_t n;
} strs;

/* Keeps a string of an array of initializationOptions (owned by the server). */
static int keep_str(void *user, jspan el)
{
    strs *l = user;
    json_parser j;
    json_val v;
    json_init(&j, el.s, el.n);
    if (json_value(&j, &v) || v.type != JSON_STRING || l->n >= MAX_OPTION_PATHS)
        return 0;
    char *str = malloc(v.n + 1), **all = realloc(l->s->own_strs, (l->s->nown_strs + 1) * sizeof *all);
    if (all)
        l->s->own_strs = all;
    if (!str || !all || json_unescape(&v, str, v.n + 1) == (size_t)-1 || !*str) {
        free(str);
        return 0;
    }
    l->s->own_strs[l->s->nown_strs++] = str;
    l->v[l->n++] = str;
    return 0;
}

void show_message(lsp_server *s, int type, const char *text)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "{\"type\":%d,\"message\":", type);
    jcstr(&b, text);
    sb_putc(&b, '}');
    if (!b.failed)
        notify(s, "window/showMessage", b.s, b.len);
    sb_free(&b);
}

/* initializationOptions: the ISA of assembly documents, the target, more
 * include directories. A load that fails keeps the server's ISA and says
 * why. */
void client_options(lsp_server *s, jspan msg)
{
    const char *isa[MAX_OPTION_PATHS], *add[MAX_OPTION_PATHS], *dirs[MAX_OPTION_PATHS];
    strs pi = {s, isa, 0}, pa = {s, add, 0}, pd = {s, dirs, 0};
    char *target = jget_str(msg, "params.initializationOptions.target");
    if (!s->opt.no_files) { /* the fuzzer's server reads no file */
        jeach(msg, "params.initializationOptions.isa", MAX_OPTION_PATHS, keep_str, &pi);
        jeach(msg, "params.initializationOptions.isaAdd", MAX_OPTION_PATHS, keep_str, &pa);
        jeach(msg, "params.initializationOptions.includeDirs", MAX_OPTION_PATHS, keep_str, &pd);
    }
    if (target || pi.n || pa.n) {
        gisa_load_options o = GISA_LOAD_OPTIONS_INIT;
        o.target = target ? target : s->opt.target;
        o.paths = pi.n ? isa : NULL;
        o.npaths = pi.n;
        o.add = pa.n ? add : NULL;
        o.nadd = pa.n;
        gisa_diags *dg = NULL;
        gisa_isa *loaded = NULL;
        gisa_status st = gisa_diags_new(&dg) == GISA_OK ? gisa_isa_load(&o, &loaded, dg) : GISA_ERR_NOMEM;
        if (st == GISA_OK) {
            s->own_isa = loaded;
            s->opt.isa = loaded;
            if (target) {
                s->own_target = target;
                s->opt.target = target;
                target = NULL;
            }
        } else {
            const gisa_diag *first = NULL;
            for (size_t i = 0; dg && i < gisa_diags_count(dg) && !first; i++)
                if (gisa_diags_get(dg, i)->severity == GISA_ERROR)
                    first = gisa_diags_get(dg, i);
            char *text = NULL;
            if (first)
                gisa_diag_format(first, 0, &text);
            strbuf m;
            sb_init(&m);
            sb_printf(&m, "gisa lsp: initializationOptions: the ISA does not load (%s)%s%s; assembly uses the ISA of the command line",
                      gisa_status_str(st), text ? ": " : "", text ? text : "");
            show_message(s, 1, m.s ? m.s : "gisa lsp: initializationOptions: the ISA does not load");
            sb_free(&m);
            gisa_free(text);
        }
        gisa_diags_free(dg);
    }
    free(target);
    if (pd.n) {
        size_t n = s->opt.ninclude_dirs + pd.n;
        const char **all = malloc(n * sizeof *all);
        if (all) {
            for (size_t i = 0; i < s->opt.ninclude_dirs; i++)
                all[i] = s->opt.include_dirs[i];
            for (size_t i = 0; i < pd.n; i++)
                all[s->opt.ninclude_dirs + i] = dirs[i];
            s->own_dirs = all;
            s->opt.include_dirs = all;
            s->opt.ninclude_dirs = n;
        }
    }
}

