/* The fingerprint of the pseudo-code each C semantic function implements
 * (fingerprint.h): one line per entry of the tables of src/sim/ops_*.c.
 * When the build stops with "the pseudo-code of X changed", review the C
 * function against the new pseudo-code (gisa doc X shows the code that
 * runs), then write the value the message gives here; `gisa lint
 * --fingerprints` (and --target fermi) prints the whole table. 0: the entry
 * implements an optype that has no pseudo-code (Fermi's FCMP and MUFU). */
#include "sim/fingerprint.h"
#include "sim/ops.h"

const sim_fingerprint sim_fingerprints[] = {
    /* src/sim/ops_int_arith.c */
    {"IADD", UINT64_C(0x9ab3a226844faefb)},
    {"IMAD", UINT64_C(0x40bbc041e3e7d64a)},
    {"IMAD_WIDE", UINT64_C(0x951d96a51c182598)},
    {"IDP2A", UINT64_C(0x18e1516887b991b6)},
    {"IDP4A", UINT64_C(0x8b7d49473653e48a)},
    {"IMUL", UINT64_C(0xb1e935511d4c900d)},
    {"LEA", UINT64_C(0xf2486a4671fab17a)},
    {"IABS", UINT64_C(0x0fabd0048d24a5a8)},
    {"IMNMX", UINT64_C(0x38b1d07728c5ca84)},
    /* src/sim/ops_int_logic.c */
    {"ISETP", UINT64_C(0xbf98fc5a9516db5b)},
    {"ISET", UINT64_C(0xf9b1df2b72a4d07f)},
    {"SEL", UINT64_C(0xada298f28981e293)},
    {"LOP3", UINT64_C(0x8943449e2c2a2a4c)},
    {"PLOP3", UINT64_C(0xb0bac415b14e960a)},
    {"SHF", UINT64_C(0x8d49cc158b207fd7)},
    {"PRMT", UINT64_C(0xefe43529313b9c66)},
    /* src/sim/ops_int_move.c */
    {"MOV", UINT64_C(0xefb4955e2911e804)},
    {"I2I", UINT64_C(0x6e4972e919b66413)},
    {"I2IP", UINT64_C(0xf8e94167fcffb1b4)},
    {"P2R", UINT64_C(0xa8674aeee080857f)},
    {"R2P", UINT64_C(0xed35288a8ccba54c)},
    {"R2UR", UINT64_C(0x4bcc5c205e17a0c5)},
    {"SETGPR", UINT64_C(0x313e67c4d93ab3c8)},
    {"GETGPR", UINT64_C(0x7c8206e987bff698)},
    /* src/sim/ops_f32.c */
    {"FADD", UINT64_C(0x8ccfa55994016bd8)},
    {"FMUL", UINT64_C(0xccd1e6de10d36016)},
    {"FFMA", UINT64_C(0x63b7b5e09387610a)},
    {"FMNMX", UINT64_C(0xc025b7635208cb27)},
    {"FSETP", UINT64_C(0xf044c729b2069ef4)},
    {"FSET", UINT64_C(0x667bfbda44f343ca)},
    {"FSEL", UINT64_C(0xb2237b5be9eec681)},
    {"FCHK", UINT64_C(0xdc334d886e5d5529)},
    {"FCMP", UINT64_C(0x0000000000000000)},
    {"MUFU", UINT64_C(0x0000000000000000)},
    /* src/sim/ops_f64.c */
    {"DADD", UINT64_C(0xe7981dd181526635)},
    {"DMUL", UINT64_C(0x0291bf1ac289410d)},
    {"DFMA", UINT64_C(0xd7b03c8f3e75964d)},
    {"DMNMX", UINT64_C(0xe5a5d25e6797dc93)},
    {"DSETP", UINT64_C(0x0f39aadbded144da)},
    /* src/sim/ops_f16.c */
    {"HADD2", UINT64_C(0xe1c4f07cf6ea03ac)},
    {"HMUL2", UINT64_C(0x5f3737719c977c2c)},
    {"HFMA2", UINT64_C(0xdb8a4a3799b2d04f)},
    {"HMNMX2", UINT64_C(0x553b29364c5cd596)},
    {"HSETP2", UINT64_C(0xa19f92000ba14a5f)},
    {"HSET2", UINT64_C(0x7a45c8f1e6254406)},
    {NULL, 0},
};

const sim_family_source sim_family_sources[] = {
    {sim_ops_int_arith, "src/sim/ops_int_arith.c"},
    {sim_ops_int_logic, "src/sim/ops_int_logic.c"},
    {sim_ops_int_move, "src/sim/ops_int_move.c"},
    {sim_ops_f32, "src/sim/ops_f32.c"},
    {sim_ops_f64, "src/sim/ops_f64.c"},
    {sim_ops_f16, "src/sim/ops_f16.c"},
    {NULL, NULL},
};
