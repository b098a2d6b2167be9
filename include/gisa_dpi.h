/* gisa's DPI-C wrapper: the golden model as SystemVerilog testbenches call
 * it (src/dpi/gisa_dpi.sv imports exactly these functions). Only DPI's
 * plain types: chandle = void *, string = const char *, int = int,
 * int unsigned = unsigned int, longint unsigned = unsigned long long.
 *
 * Lockstep use, per retired instruction of the RTL:
 *   gisa_dpi_retire(h, warp, pc, exec)        the RTL retired pc with this mask:
 *                                             the model steps the same warp
 *   gisa_dpi_write(h, rf, index, lane, value) once per lane the RTL wrote
 *   gisa_dpi_check(h)                         0, or the number of mismatches;
 *                                             gisa_dpi_message(h) describes the first
 * Register files (rf) are gisa_regfile's: 0 R, 1 P, 2 UR, 3 UP. Errors
 * (bad files, bad arguments) count in gisa_dpi_errors and their text is
 * gisa_dpi_message; nothing is printed. A handle is used by one thread at
 * a time; separate handles work in separate threads, and
 * gisa_dpi_last_error is the calling thread's. */
#ifndef GISA_DPI_H
#define GISA_DPI_H

#include "gisa.h" /* GISA_API */

#ifdef __cplusplus
extern "C" {
#endif

/* target "" = the default; isa "" = the embedded descriptions, else a
 * path list as --isa takes; regs 0 = the target's most; warps 0 = 1
 * (negative regs or warps are refused). NULL on failure
 * (gisa_dpi_last_error() says why). */
GISA_API void *gisa_dpi_new(const char *target, const char *isa, int regs, int warps);
GISA_API void gisa_dpi_free(void *h);
GISA_API const char *gisa_dpi_last_error(void);

/* Program: assembly source (its `.include "FILE"` relative to its own
 * directory, as gisa as reads them), or hex words (one per line, as gisa as
 * --format hex writes). Returns the number of instructions, -1 on error. */
GISA_API int gisa_dpi_load_asm(void *h, const char *path);
GISA_API int gisa_dpi_load_hex(void *h, const char *path);
GISA_API int gisa_dpi_program_length(void *h);
/* Word `pc` of the program in 32-bit parts: part 0 is bits 31..0, part 3
 * bits 127..96 (0 past the end). */
GISA_API unsigned int gisa_dpi_word(void *h, int pc, int part);

/* State: a JSON state file (docs/simulator.md); single registers. */
GISA_API int gisa_dpi_load_state(void *h, const char *path);
GISA_API int gisa_dpi_set(void *h, int warp, int rf, int index, int lane, unsigned int value);
GISA_API unsigned int gisa_dpi_get(void *h, int warp, int rf, int index, int lane);
GISA_API int gisa_dpi_set_active(void *h, int warp, unsigned int mask);
GISA_API unsigned int gisa_dpi_get_active(void *h, int warp);

/* Stepping without comparison: 0 stepped, 1 the warp is done, -1 fault. */
GISA_API int gisa_dpi_step(void *h, int warp);
GISA_API int gisa_dpi_pc(void *h, int warp);
GISA_API int gisa_dpi_done(void *h, int warp);

/* The last commit record (from gisa_dpi_step or gisa_dpi_retire). */
GISA_API int gisa_dpi_commit_pc(void *h);
GISA_API unsigned int gisa_dpi_commit_exec(void *h);
GISA_API const char *gisa_dpi_commit_text(void *h);
GISA_API int gisa_dpi_effect_count(void *h);
GISA_API int gisa_dpi_effect_rf(void *h, int i);
GISA_API int gisa_dpi_effect_index(void *h, int i);
GISA_API unsigned int gisa_dpi_effect_mask(void *h, int i);
GISA_API unsigned int gisa_dpi_effect_value(void *h, int i, int lane);

/* Lockstep comparison (see above). retire returns 0, or -1 when the model
 * cannot step (warp done, fault: a mismatch too). */
GISA_API int gisa_dpi_retire(void *h, int warp, int pc, unsigned int exec);
GISA_API int gisa_dpi_write(void *h, int rf, int index, int lane, unsigned int value);
GISA_API int gisa_dpi_check(void *h);
/* The RTL refused the word at pc as an illegal instruction (it trapped): the
 * model steps the warp and must fault at pc, on that word. 0: it did
 * (gisa_dpi_message: "trap: ..." with the model's reason; the warp is
 * done); -1: a mismatch (gisa_dpi_message). */
GISA_API int gisa_dpi_trap(void *h, int warp, int pc);
/* The lines that follow gisa_dpi_message's after a mismatch of retire,
 * check, trap or compare_state, each ending in a newline ("" when none):
 * the instruction's word in hex, the count and list of the lanes that
 * differ, and the source operands of the first such lane as the
 * instruction read them ("  lane 5 read: Ra R29 = 0x00000001, ..."). */
GISA_API const char *gisa_dpi_details(void *h);

/* The whole state at the end of a run: report the RTL's value of every
 * register it has (rf, index and lane as gisa_dpi_write; UR and UP in lane
 * 0), then gisa_dpi_compare_state compares every register, predicate,
 * uniform register and uniform predicate of every warp of the model with
 * them. A register file of which nothing was reported is one the RTL does
 * not have (skipped); in the others every register and lane of the model
 * must have been reported. rtl_state returns -1 for a register the model
 * does not have. compare_state returns the number of register lanes that
 * differ (0: equal), the first in gisa_dpi_message, and forgets what was
 * reported. */
GISA_API int gisa_dpi_rtl_state(void *h, int warp, int rf, int index, int lane, unsigned int value);
GISA_API int gisa_dpi_compare_state(void *h);

GISA_API int gisa_dpi_errors(void *h);         /* mismatches and errors so far */
GISA_API const char *gisa_dpi_message(void *h); /* the first of the last check, or the last error */

#ifdef __cplusplus
}
#endif
#endif
