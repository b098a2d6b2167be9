/* Escaping for the HTML manual (html.h). */
#include "manual/html.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The code point of the UTF-8 sequence at s[0..n), its length in *len; -1
 * for an invalid sequence (overlong, surrogate, beyond U+10FFFF, cut). */
static long utf8_decode(const unsigned char *s, size_t n, size_t *len)
{
    static const long min[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t need = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                              : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    *len = 1;
    if (!need || need > n)
        return -1;
    long cp = need == 1 ? s[0] : s[0] & (0x7F >> need);
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *len = need;
    return cp;
}

/* Characters HTML does not allow in a document (parse errors). */
static int html_forbidden(long cp)
{
    if (cp < 0x20)
        return cp != '\t' && cp != '\n';
    if (cp >= 0x7F && cp <= 0x9F)
        return 1;
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

void html_text(strbuf *sb, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t len;
        long cp = utf8_decode(p + i, n - i, &len);
        const char *rep = NULL;
        if (cp < 0 || html_forbidden(cp))
            rep = "\xEF\xBF\xBD";
        else if (cp == '&')
            rep = "&amp;";
        else if (cp == '<')
            rep = "&lt;";
        else if (cp == '>')
            rep = "&gt;";
        else if (cp == '"')
            rep = "&quot;";
        else if (cp == '\'')
            rep = "&#39;";
        if (rep)
            sb_puts(sb, rep);
        else
            sb_putn(sb, s + i, len);
        i += len;
    }
}

void html_puts(strbuf *sb, const char *s)
{
    if (s)
        html_text(sb, s, strlen(s));
}

void html_table(strbuf *sb, const char *cls, const char *heads)
{
    sb_printf(sb, "<table class=\"%s\">\n<thead><tr>%s</tr></thead>\n<tbody>\n", cls, heads);
}

void html_code(strbuf *sb, const char *s)
{
    sb_puts(sb, "<code>");
    html_puts(sb, s);
    sb_puts(sb, "</code>");
}

void html_printf(strbuf *sb, const char *fmt, ...)
{
    strbuf t;
    sb_init(&t);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&t, fmt, ap);
    va_end(ap);
    if (t.s)
        html_text(sb, t.s, t.len);
    sb->failed |= t.failed;
    sb_free(&t);
}

void html_id(strbuf *sb, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
            sb_putc(sb, (char)*p);
        else
            sb_printf(sb, "-%02X", *p);
    }
}

void html_page_ref(strbuf *sb, const char *kind, const char *name)
{
    sb_printf(sb, "%s-", kind);
    html_id(sb, name);
    sb_puts(sb, ".html");
}

void html_link(strbuf *sb, const char *kind, const char *name)
{
    sb_puts(sb, "<a href=\"");
    html_page_ref(sb, kind, name);
    sb_puts(sb, "\">");
    html_puts(sb, name);
    sb_puts(sb, "</a>");
}

void html_begin(strbuf *sb, const char *title, const char *target_name)
{
    sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    html_puts(sb, title);
    sb_puts(sb, " \xE2\x80\x94 ");
    html_puts(sb, target_name);
    sb_puts(sb, " ISA reference</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n"
                "<nav class=\"top\"><a href=\"index.html\">");
    html_puts(sb, target_name);
    sb_puts(sb, " ISA reference</a> <a href=\"index.html#optypes\">optypes</a> "
                "<a href=\"index.html#opcodes\">opcodes</a> <a href=\"encoding.html\">encoding space</a> "
                "<a href=\"errata.html\">errata and rulings</a></nav>\n<main>\n");
}

void html_end(strbuf *sb) { sb_puts(sb, "</main>\n</body>\n</html>\n"); }

void js_string(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        size_t len;
        long cp = utf8_decode(p + i, n - i, &len);
        if (cp < 0 || html_forbidden(cp))
            cp = 0xFFFD;
        if (cp >= 0x20 && cp < 0x7F && cp != '"' && cp != '\\' && cp != '<' && cp != '>' && cp != '&')
            sb_putc(sb, (char)cp);
        else if (cp > 0xFFFF) /* a surrogate pair */
            sb_printf(sb, "\\u%04lX\\u%04lX", 0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + ((cp - 0x10000) & 0x3FF));
        else
            sb_printf(sb, "\\u%04lX", cp);
        i += len;
    }
    sb_putc(sb, '"');
}
