/* Code actions: a diagnostic that says "did you mean X?" becomes a quick
 * fix replacing its range by X. The client sends the diagnostics back with
 * the request, so the server keeps none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/asmtext.h"
#include "lsp/server.h"

typedef struct act_ctx {
    lsp_server *s;
    lsp_doc *d;
    strbuf *b;
    int n;
} act_ctx;

/* The suggestion of a message: the name after its last "did you mean ",
 * without quotes; 0 when there is none. */
static int suggestion(const char *msg, char *out, size_t cap)
{
    const char *p = NULL;
    for (const char *q = strstr(msg, "did you mean "); q; q = strstr(q + 1, "did you mean "))
        p = q + 13;
    if (!p)
        return 0;
    if (*p == '\'')
        p++;
    size_t n = 0;
    while (p[n] && (ident_char(p[n]) || p[n] == '.') && n + 1 < cap)
        n++;
    while (n && p[n - 1] == '.') /* the sentence's full stop */
        n--;
    if (!n)
        return 0;
    memcpy(out, p, n);
    out[n] = 0;
    return 1;
}

static int action(void *user, jspan diag)
{
    act_ctx *c = user;
    char *msg = jget_str(diag, "message");
    char fix[128];
    lsp_pos a, z;
    if (!msg || !suggestion(msg, fix, sizeof fix) || !read_pos(diag, "range.start", &a) ||
        !read_pos(diag, "range.end", &z)) {
        free(msg);
        return 0;
    }
    free(msg);
    size_t from = doc_offset(c->s, c->d, a), to = doc_offset(c->s, c->d, z);
    const char *text = fix;
    /* a range with its dot (".RX") takes the fix with one, one without it
     * ("include" of ".inclde") without */
    int range_dot = to > from && c->d->text[from] == '.';
    char dotted[130];
    if (fix[0] == '.' && !range_dot && to > from)
        text = fix + 1;
    else if (fix[0] != '.' && range_dot) {
        dotted[0] = '.';
        strcpy(dotted + 1, fix);
        text = dotted;
    }
    strbuf *b = c->b;
    sb_puts(b, c->n++ ? ",{\"title\":" : "{\"title\":");
    char title[160];
    snprintf(title, sizeof title, "Change to '%s'", text);
    jcstr(b, title);
    sb_puts(b, ",\"kind\":\"quickfix\",\"isPreferred\":true,\"diagnostics\":[");
    sb_putn(b, diag.s, diag.n);
    sb_puts(b, "],\"edit\":{\"changes\":{");
    jcstr(b, c->d->uri);
    sb_puts(b, ":[{\"range\":");
    put_range(b, a, z);
    sb_puts(b, ",\"newText\":");
    jcstr(b, text);
    sb_puts(b, "}]}}}");
    return 0;
}

void code_actions(lsp_server *s, lsp_doc *d, jspan msg, strbuf *b)
{
    act_ctx c = {s, d, b, 0};
    sb_putc(b, '[');
    jeach(msg, "params.context.diagnostics", 1000, action, &c);
    sb_putc(b, ']');
}
