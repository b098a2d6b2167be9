/* A small pull parser for JSON (RFC 8259): the caller walks the document
 * value by value, so reading is one pass over the text with no tree and no
 * allocation. Strings and numbers are spans of the text; a string with
 * escapes is decoded on request. The first syntax error stops the parse and
 * is kept with its line and column. */
#ifndef GISA_COMMON_JSON_H
#define GISA_COMMON_JSON_H
#include <stddef.h>

typedef enum json_type { JSON_OBJECT, JSON_ARRAY, JSON_STRING, JSON_NUMBER, JSON_TRUE, JSON_FALSE, JSON_NULL } json_type;

/* One value as the parser met it: for objects and arrays, their opening
 * bracket only (walk them with json_member / json_element, or json_skip). */
typedef struct json_val {
    json_type type;
    const char *s;  /* a string's contents (between the quotes, escapes as written) or a number's text */
    size_t n;
    int escaped;    /* the string holds backslash escapes (see json_unescape) */
    int fraction;   /* a number written with a fraction or an exponent */
    int line, col;  /* where it starts (1-based; columns count characters) */
} json_val;

typedef struct json_parser {
    const char *text, *p, *end;
    const char *line_start;
    int line;
    int line_utf8; /* the line so far holds non-ASCII text (columns are then counted) */
    const char *col_at; /* the last column counted on this line: col_n at col_at */
    int col_n;
    int depth;
    int failed;
    char error[128];
    int err_line, err_col;
} json_parser;

void json_init(json_parser *j, const char *text, size_t len);
/* Reads the next value's start into *v. Returns 0, or -1 on a syntax error. */
int json_value(json_parser *j, json_val *v);
/* Inside an object whose '{' was read: 1 with the next key in *key (its ':'
 * read), 0 at the closing '}', -1 on an error. *first is 1 before the first
 * call of each object. */
int json_member(json_parser *j, int *first, json_val *key);
/* The same for the elements of an array: 1 when one follows, 0 at ']'. */
int json_element(json_parser *j, int *first);
/* Skips the rest of a value whose start json_value returned (checking its
 * syntax). Returns 0 or -1. */
int json_skip(json_parser *j, const json_val *v);
/* 0 when only white space is left, else -1. */
int json_finish(json_parser *j);
/* A string value decoded (NUL-terminated) into buf[cap]: its length, or
 * (size_t)-1 when it does not fit or holds a NUL character. */
size_t json_unescape(const json_val *v, char *buf, size_t cap);
#endif
