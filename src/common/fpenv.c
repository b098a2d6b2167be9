/* Saving, setting and restoring the host FP environment (see fpenv.h).
 *
 * On x86 the two control registers are read and written directly: the
 * C library's fegetenv/fesetenv store and reload the whole x87 environment
 * (fnstenv/fldenv), several times the cost, and gisa_sim_step pays this on
 * every instruction. Elsewhere fegetenv/fesetenv(FE_DFL_ENV) do it (on
 * glibc's AArch64 the default environment also clears FPCR.FZ). */
#include "common/fpenv.h"

_Thread_local int fpenv_round = -1;

#if FPENV_X86
#define MXCSR_DEFAULT 0x1F80u /* all exceptions masked, round to nearest, no FTZ/DAZ, no flags */
#define X87_RC 0x0C00u        /* the x87 rounding field; 0 is round to nearest */
#define X87_MASKS 0x003Fu     /* the x87 exception masks (libm and libc may use x87 code) */

static inline unsigned mxcsr_get(void)
{
    unsigned v;
    __asm__ volatile("stmxcsr %0" : "=m"(v));
    return v;
}

static inline void mxcsr_set(unsigned v) { __asm__ volatile("ldmxcsr %0" : : "m"(v)); }

static inline unsigned short x87cw_get(void)
{
    unsigned short v;
    __asm__ volatile("fnstcw %0" : "=m"(v));
    return v;
}

static inline void x87cw_set(unsigned short v) { __asm__ volatile("fldcw %0" : : "m"(v)); }

void fpenv_enter(fpenv_saved *s)
{
    s->mxcsr = mxcsr_get();
    s->x87cw = x87cw_get();
    if (s->mxcsr != MXCSR_DEFAULT)
        mxcsr_set(MXCSR_DEFAULT);
    unsigned short cw = (unsigned short)((s->x87cw & ~X87_RC) | X87_MASKS);
    if (cw != s->x87cw)
        x87cw_set(cw);
    fpenv_round = FE_TONEAREST;
}

void fpenv_leave(const fpenv_saved *s)
{
    if (mxcsr_get() != s->mxcsr)
        mxcsr_set(s->mxcsr);
    if (x87cw_get() != s->x87cw)
        x87cw_set(s->x87cw);
    fpenv_round = -1;
}
#else
void fpenv_enter(fpenv_saved *s)
{
    fegetenv(&s->env);
    fesetenv(FE_DFL_ENV);
    fpenv_round = FE_TONEAREST;
}

void fpenv_leave(const fpenv_saved *s)
{
    fesetenv(&s->env);
    fpenv_round = -1;
}
#endif
