/* Writing HTML into a strbuf: text and attribute escaping that always
 * yields valid UTF-8 without the characters HTML forbids, page names that
 * are safe as file names and URLs, and the frame every page shares. */
#ifndef GISA_MANUAL_HTML_H
#define GISA_MANUAL_HTML_H
#include <stddef.h>

#include "common/strbuf.h"

/* Escapes n bytes of text for an element's content or a quoted attribute:
 * & < > " ' become references; bytes that are not UTF-8, control
 * characters other than tab and newline, and noncharacters become U+FFFD. */
void html_text(strbuf *sb, const char *s, size_t n);
void html_puts(strbuf *sb, const char *s); /* html_text of a C string (NULL: nothing) */
/* <table class="CLS"><thead><tr>HEADS</tr></thead><tbody>, HEADS being
 * literal markup (<th>...</th>...). */
void html_table(strbuf *sb, const char *cls, const char *heads);
/* <code>text</code>, escaped. */
void html_code(strbuf *sb, const char *s);
/* printf whose result is escaped as text. */
void html_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A name as it appears in a file name or an id: letters, digits and '_'
 * stay, every other byte is -XX (hex), so distinct names stay distinct. */
void html_id(strbuf *sb, const char *name);
/* "opcode-FADD_RR.html", "optype-FADD.html". */
void html_page_ref(strbuf *sb, const char *kind, const char *name);
/* <a href="KIND-NAME.html">NAME</a> */
void html_link(strbuf *sb, const char *kind, const char *name);

/* The page up to the start of <main>, and from its end. */
void html_begin(strbuf *sb, const char *title, const char *target_name);
void html_end(strbuf *sb);

/* A string as a JavaScript string literal (for the search index): ASCII
 * only, '<' and '&' escaped so that it can never close a script. */
void js_string(strbuf *sb, const char *s);
#endif
