/* The ISA description files compiled into the library (generated at build
 * time from isa/<target>/ by cmake/embed_isa.cmake). */
#ifndef GISA_SPEC_EMBEDDED_H
#define GISA_SPEC_EMBEDDED_H
#include <stddef.h>

typedef struct gisa_embedded_file {
    const char *target; /* directory name under isa/, e.g. "gisa128" */
    const char *name;   /* file name, e.g. "falu.isa" */
    const char *text;   /* NUL-terminated contents */
    size_t len;         /* length without the NUL */
} gisa_embedded_file;

extern const gisa_embedded_file gisa_embedded_files[];
extern const size_t gisa_embedded_file_count;
#endif
