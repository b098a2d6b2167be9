/* The loops of one lane width: docexec.c defines LANE_T, ULANE_T,
 * LANE_BITS, FIELD_T, FIELD_S and FIELD_BITS and includes this file, which
 * instantiates docexec_loop.h as run_<bits> for the baseline and, where
 * DOC_V3, as run_<bits>_v3 for x86-64-v3, then undefines them all. */
#define RUN CAT(run_, LANE_BITS)
#define RUN_ATTR
#include "sim/docexec_loop.h"
#undef RUN
#undef RUN_ATTR
#if DOC_V3
#define RUN CAT(CAT(run_, LANE_BITS), _v3)
#define RUN_ATTR __attribute__((target("arch=x86-64-v3")))
#include "sim/docexec_loop.h"
#undef RUN
#undef RUN_ATTR
#endif
#undef LANE_T
#undef ULANE_T
#undef LANE_BITS
#undef FIELD_T
#undef FIELD_S
#undef FIELD_BITS
