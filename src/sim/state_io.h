/* Internals shared by the state file's reader (state_read.c), its value
 * syntax (state_value.c) and its writer (state_write.c). */
#ifndef GISA_SIM_STATE_IO_H
#define GISA_SIM_STATE_IO_H
#include <stddef.h>
#include <stdint.h>

#include "common/json.h"
#include "gisa.h"

/* The bits one JSON value gives a destination of `bits` (32 or 64) bits:
 * an integer (JSON number, "0x..." or decimal string; negatives as two's
 * complement) or, when `floats` is set, a float (a JSON number with a
 * fraction or exponent, a float string, or a "f32:" "f64:" "f16:" "bf16:"
 * "f16x2:" "bf16x2:" string), rounded once to nearest even. Returns 0, or
 * -1 with the reason in why[cap]. */
int state_value(const json_val *v, int bits, int floats, uint64_t *out, char *why, size_t cap);

/* A register or predicate key: Rn, Pn, URn, UPn, R[n:n+1], UR[n:n+1].
 * Returns 1 and fills the fields, 0 when it is no register key, -1 for a
 * pair not written R[n:n+1] with n even. */
int state_reg_key(const char *key, int *rf, unsigned *index, int *pair);
/* c[BANK][OFFSET], both hex ("0x" optional): 1, or 0 when it is none. */
int state_const_key(const char *key, unsigned *bank, unsigned *offset);

/* Conveniences over the API's one way to read (gisa_state_parse, then
 * gisa_sim_state_apply) and to write (gisa_sim_state_write) a state, for
 * the program, the DPI wrapper, tests and fuzzers: the text read in one
 * call; the state as one string (hex values) to release with gisa_free,
 * NULL when out of memory. */
gisa_status sim_state_read_json(gisa_sim *s, const char *name, const char *text, size_t len, gisa_diags *d);
char *sim_state_write_json(const gisa_sim *s);
#endif
