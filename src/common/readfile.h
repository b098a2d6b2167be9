/* Reading whole files, and a reader of `.include` files, for the callers
 * of the library that read files: the command line (src/cli/) and the DPI
 * wrapper (src/dpi/). */
#ifndef GISA_COMMON_READFILE_H
#define GISA_COMMON_READFILE_H
#include <stdio.h>

#include "gisa.h"

#define FILE_MAX_INPUT ((size_t)1 << 30) /* 1 GiB: far beyond any real program */

/* Reads all of f into a malloc'd, NUL-terminated buffer. Returns 0, an
 * errno value, -1 over FILE_MAX_INPUT, -2 out of memory, or -3 for a file
 * that is no input (file_not_input says what it is), refused before a
 * byte is read. A stream (a pipe, a terminal) is read up to the limit. */
int file_read_all(FILE *f, char **buf, size_t *len);
#define FILE_NOT_INPUT (-3)
/* What makes fd no input, or NULL when it may be read: a regular file, a
 * pipe or socket, a terminal and /dev/null are inputs; a directory and any
 * other device are not (/dev/zero and /dev/urandom never end, and would be
 * read to the 1 GiB limit). */
const char *file_not_input(int fd);

/* gisa_asm_options.include and .release: NAME relative to the including
 * file's directory (from "<stdin>": the current one), as C's #include
 * "...", with the file's canonical path as its id (cycles by any path). */
gisa_status file_include_read(void *user, const char *from, const char *name, gisa_include *inc, char *why,
                              size_t why_cap);
void file_include_release(void *user, gisa_include *inc);

#endif
