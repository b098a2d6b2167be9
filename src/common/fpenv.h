/* The host floating-point environment around the library's own code.
 *
 * The simulator's FP semantics run on the host FPU (softfp.c selects the
 * rounding mode per operation) and the decimal conversions go through
 * strtod/printf, which follow the thread's rounding mode. A caller's thread
 * may be in any environment: another rounding mode, exceptions unmasked,
 * or flush-to-zero and denormals-are-zero (what every program linked with
 * -ffast-math/-Ofast sets at start-up). Each public entry point that can
 * reach such code brackets its work with fpenv_enter/fpenv_leave: the
 * whole environment is saved, IEEE's default is set (round to nearest, no
 * FTZ/DAZ, every exception masked, flags clear), and the caller's is put
 * back exactly, flags included, on every exit path. Nested brackets are
 * fine: the inner one saves and restores the default.
 *
 * fpenv_round caches the rounding mode this module or softfp.c last set on
 * the thread (a FE_* value, -1 when unknown): fpenv_enter makes it
 * FE_TONEAREST and fpenv_leave forgets it. */
#ifndef GISA_COMMON_FPENV_H
#define GISA_COMMON_FPENV_H

#include <fenv.h>

#if (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))) && (defined(__GNUC__) || defined(__clang__))
#define FPENV_X86 1
#else
#define FPENV_X86 0
#endif

typedef struct fpenv_saved {
#if FPENV_X86
    /* SSE (all float/double arithmetic: FLT_EVAL_METHOD is 0) and the x87
     * control word (its rounding field is what fegetround, strtod and
     * printf read; its masks are set too); the library does no x87
     * arithmetic, so the x87 status word is left alone. */
    unsigned mxcsr;
    unsigned short x87cw;
#else
    fenv_t env;
#endif
} fpenv_saved;

extern _Thread_local int fpenv_round;

void fpenv_enter(fpenv_saved *s);
void fpenv_leave(const fpenv_saved *s);

/* The body of a public function that runs `call` (an expression of type T)
 * in the library's environment and returns its value. */
#define FPENV_RETURN(T, call)                                                                                       \
    do {                                                                                                            \
        fpenv_saved fpenv_saved_;                                                                                   \
        fpenv_enter(&fpenv_saved_);                                                                                 \
        T fpenv_result_ = (call);                                                                                   \
        fpenv_leave(&fpenv_saved_);                                                                                 \
        return fpenv_result_;                                                                                       \
    } while (0)

#endif
