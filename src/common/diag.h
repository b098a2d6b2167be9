/* Internal side of gisa_diags: adding diagnostics with a location. */
#ifndef GISA_COMMON_DIAG_H
#define GISA_COMMON_DIAG_H
#include <stdarg.h>
#include <stddef.h>

#include "gisa.h"

/* A source location: file name, 1-based line/column, and the line's text
 * (not NUL-terminated: line_len bytes) for the caret display. */
typedef struct srcloc {
    const char *file;
    int line, col, len;
    const char *line_text;
    int line_len;
    const char *context; /* lines shown before it ("In file included from a.s:3:"), or NULL */
} srcloc;

/* A line kept with its location: a line of a description's code block
 * (raw_line), which the pseudo-code's parser reads as it is (ds_line). */
typedef struct src_line {
    const char *text;
    srcloc loc;
} src_line;

/* gisa_diags_new and gisa_diag_format for the library's own use: NULL
 * when out of memory. */
gisa_diags *diags_alloc(void);
char *diag_text(const gisa_diag *g, int with_source);
void diag_add(gisa_diags *d, gisa_severity sev, const srcloc *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_vadd(gisa_diags *d, gisa_severity sev, const srcloc *at, const char *fmt, va_list ap);
/* The text of errno value err, in buf (strerror_r: strerror may share one
 * buffer between threads). */
#define ERRNO_TEXT_MAX 128
const char *errno_text(int err, char *buf, size_t cap);
/* Gives the diagnostic just added (if it was kept) its category: a static
 * string, shown as [-Wcategory]. */
void diag_set_category(gisa_diags *d, const char *category);
/* The error of a load over its memory budget (gisa_load_options.max_memory)
 * at `at` (NULL: the ISA as a whole): names the limit and how to raise it. */
void diag_memory_limit(gisa_diags *d, const srcloc *at, size_t limit);
/* Makes warning i of d a note whose message is prefix + message + suffix
 * (its category stays); returns 0 when out of memory (d unchanged). */
int diag_warning_to_note(gisa_diags *d, size_t i, const char *prefix, const char *suffix);
/* Adds the diagnostics of `from` of severity max or less to `to`. */
void diag_copy(gisa_diags *to, const gisa_diags *from, gisa_severity max);
/* Levenshtein distance, capped at 255; used for "did you mean" suggestions. */
int edit_distance(const char *a, size_t alen, const char *b, size_t blen);
#endif
