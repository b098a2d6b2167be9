/* Reading whole files, and a reader of `.include` files, for the callers
 * of the library that read files: the command line (src/cli/) and the DPI
 * wrapper (src/dpi/). */
#ifndef GISA_COMMON_READFILE_H
#define GISA_COMMON_READFILE_H
#include <stdio.h>

#include "gisa.h"

#define FILE_MAX_INPUT ((size_t)1 << 30) /* 1 GiB: far beyond any real program */

/* Reads all of f into a malloc'd, NUL-terminated buffer. Returns 0, an
 * errno value, or -1 over FILE_MAX_INPUT (-2 out of memory). */
int file_read_all(FILE *f, char **buf, size_t *len);

/* gisa_asm_options.include and .release: NAME relative to the including
 * file's directory (from "<stdin>": the current one), as C's #include
 * "...", with the file's canonical path as its id (cycles by any path). */
gisa_status file_include_read(void *user, const char *from, const char *name, gisa_include *inc, char *why,
                              size_t why_cap);
void file_include_release(void *user, gisa_include *inc);

#endif
