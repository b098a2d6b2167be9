/* Field placement checked against the DOCUMENTS, not against the model.
 * Each row is a pair of source lines that differ in one operand or modifier;
 * the XOR of the two assembled words must be exactly the bits of the listed
 * fields, with the listed values in both words. Offsets are copied by hand
 * from the documents' field<off, width> lines, values from their enumerations
 * and the rulings' numbering. The test also reads every field<> line of the
 * documents and checks that (a) each (name, off, width) of the table exists
 * there and (b) every field name of the documents occurs in the table.
 * Last, a model-driven sweep over every target: in the canonical text of a
 * generated word, replace one register operand by another and check only
 * its field moves. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "testgen.h"
#include "testlib.h"

typedef struct fld {
    const char *name; /* the document's field name */
    int off, width;
    uint64_t a, b;    /* value in line A, in line B */
} fld;

typedef struct row {
    const char *a, *b;
    fld f[3];         /* no fields: the two lines must encode identically */
} row;

#define F1(n, o, w, va, vb) {{n, o, w, va, vb}}
#define F2(n, o, w, va, vb, m, p, x, ma, mb) {{n, o, w, va, vb}, {m, p, x, ma, mb}}

static const row rows[] = {
    /* ---- FALU (falu.isa.txt) */
    {"FADD R5, R6, R7", "FADD R9, R6, R7", F1("rd", 16, 8, 5, 9)},
    {"FADD R0, R6, R7", "FADD R0, R200, R7", F1("ra", 24, 8, 6, 200)},
    {"FADD R0, R1, R7", "FADD R0, R1, R254", F1("rb", 32, 8, 7, 254)},
    {"FADD R0, R1, R2", "FADD R0, R1, RZ", F1("rb", 32, 8, 2, 255)},
    {"FADD R0, R1, R2", "FMUL R0, R1, R2", F1("optype", 0, 8, 0x10, 0x11)},
    {"FADD R0, R1, R2", "FADD R0, R1, UR2", F1("stype", 8, 4, 4 /*RR*/, 5 /*RU*/)},
    {"FADD R0, R1, UR2", "FADD R0, R1, UR62", F1("urb", 32, 6, 2, 62)},
    {"FADD R0, R1, UR2", "FADD R0, R1, URZ", F1("urb", 32, 6, 2, 63)},
    {"FADD R0, R1, c[0x0][0x0]", "FADD R0, R1, c[0x3][0x100]", F1("vb", 32, 22, 0, 0x30100)},
    {"FADD R0, R1, c[0x0][0x0]", "FADD R0, R1, c[0x3f][0xfffc]", F1("vb", 32, 22, 0, 0x3ffffc)},
    {"FADD R0, R1, 0", "FADD R0, R1, 1.0", F1("vb", 32, 32, 0, 0x3F800000)},
    {"FADD R0, R1, 1", "FADD R0, R1, -0.25", F1("vb", 32, 32, 0x3F800000, 0xBE800000)},
    {"FADD R0, R1, 0f00000000", "FADD R0, R1, 0f405A7EFA", F1("vb", 32, 32, 0, 0x405A7EFA)},
    {"FADD R0, R1, R2", "FADD R0, -R1, R2", F1("ra.neg", 72, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD R0, |R1|, R2", F1("ra.abs", 73, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD R0, -|R1|, R2", F2("ra.neg", 72, 1, 0, 1, "ra.abs", 73, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD R0, R1, -R2", F1("rb.neg", 96, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD R0, R1, |R2|", F1("rb.abs", 97, 1, 0, 1)},
    {"FADD R0, R1, UR2", "FADD R0, R1, -|UR2|", F2("urb.neg", 96, 1, 0, 1, "urb.abs", 97, 1, 0, 1)},
    {"FADD R0, R1, c[0x1][0x4]", "FADD R0, R1, -|c[0x1][0x4]|", F2("vb.neg", 96, 1, 0, 1, "vb.abs", 97, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD.FTZ R0, R1, R2", F1("ftz", 76, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD.SAT R0, R1, R2", F1("sat", 77, 1, 0, 1)},
    {"FADD R0, R1, R2", "FADD.RM R0, R1, R2", F1("rnd", 78, 2, 0, 1)},
    {"FADD R0, R1, R2", "FADD.RP R0, R1, R2", F1("rnd", 78, 2, 0, 2)},
    {"FADD R0, R1, R2", "FADD.RZ R0, R1, R2", F1("rnd", 78, 2, 0, 3)},
    {"FADD R0, R1, R2", "FADD.RN R0, R1, R2", {{0}}},
    {"FMUL R0, R1, R2", "FMUL.D2 R0, R1, R2", F1("scl", 80, 3, 0, 1)},
    {"FMUL R0, R1, R2", "FMUL.D4 R0, R1, R2", F1("scl", 80, 3, 0, 2)},
    {"FMUL R0, R1, R2", "FMUL.D8 R0, R1, R2", F1("scl", 80, 3, 0, 3)},
    {"FMUL R0, R1, R2", "FMUL.M2 R0, R1, R2", F1("scl", 80, 3, 0, 4)},
    {"FMUL R0, R1, R2", "FMUL.M4 R0, R1, R2", F1("scl", 80, 3, 0, 5)},
    {"FMUL R0, R1, R2", "FMUL.M8 R0, R1, R2", F1("scl", 80, 3, 0, 6)},
    {"FFMA R0, R1, R2, R3", "FFMA R0, R1, R2, R77", F1("rc", 64, 8, 3, 77)},
    {"FFMA R0, R1, R2, R3", "FFMA R0, R1, R2, -|R3|", F2("rc.neg", 74, 1, 0, 1, "rc.abs", 75, 1, 0, 1)},
    {"FFMA R0, R1, R2, 1", "FFMA R0, R1, R9, 1", F1("rb", 64, 8, 2, 9)},           /* FFMA_RRI: rb at 64 */
    {"FFMA R0, R1, R2, 1", "FFMA R0, R1, -|R2|, 1", F2("rb.neg", 74, 1, 0, 1, "rb.abs", 75, 1, 0, 1)},
    {"FFMA R0, R1, R2, 1", "FFMA R0, R1, R2, 2", F1("vc", 32, 32, 0x3F800000, 0x40000000)},
    {"FFMA R0, R1, 1, R3", "FFMA R0, R1, -2, R3", F1("vb", 32, 32, 0x3F800000, 0xC0000000)},
    {"FFMA R0, R1, R2, UR3", "FFMA R0, R1, R2, UR5", F1("urc", 32, 6, 3, 5)},
    {"FFMA R0, R1, R2, UR3", "FFMA R0, R1, R2, -|UR3|", F2("urc.neg", 96, 1, 0, 1, "urc.abs", 97, 1, 0, 1)},
    {"FFMA R0, R1, UR2, R3", "FFMA R0, R1, UR7, R3", F1("urb", 32, 6, 2, 7)},
    {"FFMA R0, R1, R2, c[0x0][0x10]", "FFMA R0, R1, R2, c[0x2][0x20]", F1("vc", 32, 22, 0x10, 0x20020)},
    {"FFMA R0, R1, R2, c[0x0][0x10]", "FFMA R0, R1, R2, -|c[0x0][0x10]|", F2("vc.neg", 96, 1, 0, 1, "vc.abs", 97, 1, 0, 1)},
    {"FFMA R0, R1, c[0x0][0x10], R3", "FFMA R0, R1, c[0x0][0x10], R4", F1("rc", 64, 8, 3, 4)}, /* FFMA_RCR */
    {"FMNMX R0, R1, R2, P0", "FMNMX R0, R1, R2, P5", F1("pp", 98, 3, 0, 5)},
    {"FMNMX R0, R1, R2, P0", "FMNMX R0, R1, R2, !P0", F1("pp.not", 101, 1, 0, 1)},
    {"FMNMX R0, R1, R2, P0", "FMNMX.NAN R0, R1, R2, P0", F1("nan", 83, 1, 0, 1)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LT.AND P3, R1, R2", F1("pu", 106, 3, 0, 3)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LT.AND P0, P4, R1, R2", F1("pv", 109, 3, 7, 4)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LT.AND P0, R1, R2, P2", F1("pp", 98, 3, 7, 2)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LT.AND P0, PT, R1, R2, PT", {{0}}},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LT.OR P0, R1, R2", F1("lop", 84, 2, 0, 1)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LT.XOR P0, R1, R2", F1("lop", 84, 2, 0, 2)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.EQ.AND P0, R1, R2", F1("cmp", 86, 4, 1, 2)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LE.AND P0, R1, R2", F1("cmp", 86, 4, 1, 3)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.GT.AND P0, R1, R2", F1("cmp", 86, 4, 1, 4)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.NE.AND P0, R1, R2", F1("cmp", 86, 4, 1, 5)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.GE.AND P0, R1, R2", F1("cmp", 86, 4, 1, 6)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.NUM.AND P0, R1, R2", F1("cmp", 86, 4, 1, 7)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.NAN.AND P0, R1, R2", F1("cmp", 86, 4, 1, 8)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LTU.AND P0, R1, R2", F1("cmp", 86, 4, 1, 9)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.EQU.AND P0, R1, R2", F1("cmp", 86, 4, 1, 10)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.LEU.AND P0, R1, R2", F1("cmp", 86, 4, 1, 11)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.GTU.AND P0, R1, R2", F1("cmp", 86, 4, 1, 12)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.NEU.AND P0, R1, R2", F1("cmp", 86, 4, 1, 13)},
    {"FSETP.LT.AND P0, R1, R2", "FSETP.GEU.AND P0, R1, R2", F1("cmp", 86, 4, 1, 14)},
    {"FSET.LT.AND R0, R1, R2, PT", "FSET.LT.AND.BF R0, R1, R2, PT", F1("bval", 90, 1, 0, 1)},
    {"FCHK P0, R1, R2", "FCHK P6, R1, R2", F1("pu", 106, 3, 0, 6)},
    {"FADD R0, R1, R2", "@P3 FADD R0, R1, R2", F1("pg", 12, 3, 7, 3)},
    {"@P3 FADD R0, R1, R2", "@!P3 FADD R0, R1, R2", F1("pg.not", 15, 1, 0, 1)},
    {"FADD R0, R1, R2", "@PT FADD R0, R1, R2", {{0}}},
    {"FADD R0, R1, R2", "FADD R0, R1, R2 $sched=31 $req=63", F2("$sched", 112, 5, 0, 31, "$req", 117, 6, 0, 63)},
    /* ---- DALU (dalu.isa.txt): 64-bit operands are pairs, numbered by the low register */
    {"DADD R[0:1], R[2:3], R[4:5]", "DADD R[8:9], R[2:3], R[4:5]", F1("rd", 16, 8, 0, 8)},
    {"DADD R[0:1], R[2:3], R[4:5]", "DADD R0, R2, R4", {{0}}},
    {"DADD R[0:1], R[2:3], R[4:5]", "DADD R[0:1], RZ, R[4:5]", F1("ra", 24, 8, 2, 255)},
    {"DADD R[0:1], R[2:3], R[4:5]", "DADD R[0:1], R[2:3], R[4:5] $sched=3", F1("$sched", 112, 5, 0, 3)},
    {"DADD R[0:1], R[2:3], R[4:5]", "DADD R[0:1], R[2:3], R[4:5] $req=0x21", F1("$req", 117, 6, 0, 0x21)},
    {"DADD R[0:1], R[2:3], R[4:5]", "DADD R[0:1], R[2:3], R[4:5] $wsb=5", F1("$wsb", 123, 3, 0, 5)},
    {"DADD R[0:1], R[2:3], 1", "DADD R[0:1], R[2:3], -0.25", F1("vb", 32, 32, 0x3FF00000, 0xBFD00000)},
    {"DADD R[0:1], R[2:3], c[0x0][0x8]", "DADD R[0:1], R[2:3], c[0x1][0x10]", F1("vb", 32, 22, 0x8, 0x10010)},
    {"DADD R[0:1], R[2:3], UR[4:5]", "DADD R[0:1], R[2:3], UR[60:61]", F1("urb", 32, 6, 4, 60)},
    {"DMNMX R[0:1], R[2:3], R[4:5], PT", "DMNMX R[0:1], R[2:3], R[4:5], !P1", F2("pp", 98, 3, 7, 1, "pp.not", 101, 1, 0, 1)},
    {"DSETP.LT P0, R[2:3], R[4:5]", "DSETP.LT.XOR P0, R[2:3], R[4:5]", F1("lop", 84, 2, 0, 2)},
    {"DSETP.LT P0, R[2:3], R[4:5]", "DSETP.LT.AND P0, PT, R[2:3], R[4:5], PT", {{0}}},
    {"DSETP.LT P0, R[2:3], R[4:5]", "DSETP.GEU P0, R[2:3], R[4:5]", F1("cmp", 86, 4, 1, 14)},
    /* ---- HALU (halu.isa.txt) */
    {"HADD2 R0, R1, R2", "HADD2.BF16_V2 R0, R1, R2", F1("hfmt_v2", 94, 1, 0, 1)},
    {"HADD2 R0, R1, R2", "HADD2 R0, R1.H0_H0, R2", F1("ra.hsel2", 80, 2, 0, 1)},
    {"HADD2 R0, R1, R2", "HADD2 R0, R1.H1_H1, R2", F1("ra.hsel2", 80, 2, 0, 2)},
    {"HADD2 R0, R1, R2", "HADD2 R0, R1, R2.H1_H1", F1("rb.hsel2", 82, 2, 0, 2)},
    {"HADD2 R0, R1, R2", "HADD2 R0, R1.H1_H0, R2.H1_H0", {{0}}},
    {"HADD2 R0, R1, UR2", "HADD2 R0, R1, UR2.H0_H0", F1("urb.hsel2", 82, 2, 0, 1)},
    {"HADD2 R0, R1, c[0x0][0x4]", "HADD2 R0, R1, c[0x0][0x4].H1_H1", F1("vb.hsel2", 82, 2, 0, 2)},
    {"HADD2 R0, R1, 1, 1", "HADD2 R0, R1, -1, 1", F1("vb", 32, 32, 0x3C003C00, 0xBC003C00)},
    {"HADD2 R0, R1, 1, 2", "HADD2.BF16_V2 R0, R1, 1, 2", F2("vb", 32, 32, 0x3C004000, 0x3F804000, "hfmt_v2", 94, 1, 0, 1)},
    {"HMUL2 R0, R1, R2", "HMUL2.FTZ.SAT R0, R1, R2", F2("ftz", 76, 1, 0, 1, "sat", 77, 1, 0, 1)},
    {"HFMA2 R0, R1, R2, R3", "HFMA2.RELU R0, R1, R2, R3", F1("relu", 92, 1, 0, 1)},
    {"HFMA2 R0, R1, R2, R3", "HFMA2 R0, R1, R2, R3.H0_H0", F1("rc.hsel2", 84, 2, 0, 1)},
    {"HFMA2 R0, R1, R2, UR3", "HFMA2 R0, R1, R2, UR3.H1_H1", F1("urc.hsel2", 84, 2, 0, 2)},
    {"HFMA2 R0, R1, R2, c[0x0][0x8]", "HFMA2 R0, R1, R2, c[0x0][0x8].H0_H0", F1("vc.hsel2", 84, 2, 0, 1)},
    {"HFMA2 R0, R1, R2, c[0x0][0x8]", "HFMA2 R0, R1, R2.H1_H1, c[0x0][0x8]", F1("rb.hsel2", 82, 2, 0, 2)}, /* rb at 64 */
    {"HMNMX2 R0, R1, R2, P0", "HMNMX2.NAN R0, R1, R2, P0", F1("nan", 84, 1, 0, 1)}, /* 84 in HALU, 83 in FALU */
    {"HSETP2.EQ.AND P0, P1, R2, R3", "HSETP2.EQ.AND P0, P6, R2, R3", F1("pv", 109, 3, 1, 6)},
    {"HSET2.EQ.AND R0, R1, R2", "HSET2.EQ.AND.BF R0, R1, R2", F1("bval", 90, 1, 0, 1)},
    /* ---- IALU (ialu.isa.txt), enumerations numbered as written */
    {"IADD R0, R1, R2", "IADD.X R0, R1, R2", F1("ext", 76, 1, 0, 1)},
    {"IADD R0, R1, R2", "IADD R0, P2, R1, R2", F1("pu", 106, 3, 7, 2)},
    {"IADD R0, R1, R2", "IADD R0, -R1, R2", F1("ra.neg", 72, 1, 0, 1)},
    {"IADD R0, R1, R2", "IADD R0, R1, -R2", F1("rb.neg", 97, 1, 0, 1)},
    {"IADD.X R0, R1, R2", "IADD.X R0, R1, ~R2", F1("rb.neg", 97, 1, 0, 1)},
    {"IADD.X R0, R1, R2", "IADD.X R0, R1, R2, P3", F2("pp", 98, 3, 7, 3, "pp.not", 101, 1, 1, 0)},
    {"IADD.X R0, R1, R2", "IADD.X R0, R1, R2, !PT", {{0}}}, /* pp.not = True: omitted pp is !PT */
    {"IADD R0, R1, 0x1", "IADD R0, R1, -0x114514", F1("vb", 32, 32, 1, 0xFFEEBAEC)},
    {"IADD R0, R1, UR2", "IADD R0, R1, -UR2", F1("urb.neg", 97, 1, 0, 1)},
    {"IADD R0, R1, c[0x0][0x0]", "IADD R0, R1, -c[0x0][0x0]", F1("vb.neg", 97, 1, 0, 1)},
    {"IMAD R0, R1, R2, R3", "IMAD.U32 R0, R1, R2, R3", F1("itype", 77, 1, 0, 1)},
    {"IMAD R0, R1, R2, R3", "IMAD.HI.X R0, R1, R2, R3", F2("lohi", 75, 1, 0, 1, "ext", 76, 1, 0, 1)},
    {"IMAD R0, R1, R2, R3", "IMAD.LO.S32 R0, R1, R2, R3", {{0}}},
    {"IMAD R0, R1, R2, R3", "IMAD R0, R1, R2, -R3", F1("rc.neg", 74, 1, 0, 1)},
    {"IMAD R0, R1, R2, c[0x0][0x4]", "IMAD R0, R1, R2, -c[0x0][0x4]", F1("vc.neg", 97, 1, 0, 1)},
    {"IMAD R0, R1, R2, UR3", "IMAD R0, R1, R2, -UR3", F1("urc.neg", 97, 1, 0, 1)},
    {"IMAD R0, R1, R2, 0x5", "IMAD R0, R1, R7, 0x5", F1("rb", 64, 8, 2, 7)},
    {"IMAD R0, R1, 0x5, R3", "IMAD R0, R1, 0x6, R3", F1("vb", 32, 32, 5, 6)},
    {"IMAD.WIDE R[0:1], R2, R3, R[4:5]", "IMAD.WIDE.U32 R[0:1], R2, R3, R[4:5]", F1("itype", 77, 1, 0, 1)},
    {"IMAD.WIDE R[0:1], R2, R3, R[4:5]", "IMAD.WIDE R[6:7], R2, R3, R[4:5]", F1("rd", 16, 8, 0, 6)},
    {"IMAD.WIDE R[0:1], R2, R3, R[4:5]", "IMAD.WIDE R[0:1], R2, R3, R[10:11]", F1("rc", 64, 8, 4, 10)},
    {"IDP.2A.S16.S8 R0, R1, R2, R3", "IDP.2A.U16.S8 R0, R1, R2, R3", F1("afmt", 77, 1, 0, 1)},
    {"IDP.2A.S16.S8 R0, R1, R2, R3", "IDP.2A.S16.U8 R0, R1, R2, R3", F1("bfmt", 78, 1, 0, 1)},
    {"IDP.2A.S16.S8 R0, R1, R2, R3", "IDP.2A.HI.S16.S8 R0, R1, R2, R3", F1("lohi", 75, 1, 0, 1)},
    {"IDP.4A.S8.S8 R0, R1, R2, R3", "IDP.4A.U8.S8 R0, R1, R2, R3", F1("afmt", 77, 1, 0, 1)},
    {"IDP.4A.S8.S8 R0, R1, R2, R3", "IDP.4A.S8.U8 R0, R1, R2, R3", F1("bfmt", 78, 1, 0, 1)},
    {"IDP.4A.S8.S8 R0, R1, R2, R3", "IDP.4A.S8.S8 R0, P5, R1, R2, R3", F1("pu", 106, 3, 7, 5)},
    {"IMUL R0, R1, R2", "IMUL.HI R0, R1, R2", F1("lohi", 75, 1, 0, 1)},
    {"IMUL R0, R1, R2", "IMUL.U32 R0, R1, R2", F1("itype", 77, 1, 0, 1)},
    {"IMUL R0, R1, R2", "IMUL R0, R1, -R2", F1("rb.neg", 74, 1, 0, 1)}, /* IMUL_RR: 74, not 97 */
    {"IMUL R0, R1, UR2", "IMUL R0, R1, -UR2", F1("urb.neg", 97, 1, 0, 1)},
    {"LEA R0, R1, R2, 0x3", "LEA R0, R1, R2, 0x1f", F1("shiftamt", 82, 5, 3, 31)},
    {"LEA R0, R1, R2, 0x3", "LEA R0, -R1, R2, 0x3", F1("ra.neg", 72, 1, 0, 1)},
    {"LEA R0, R1, R2, 0x3", "LEA.HI.X R0, R1, R2, RZ, 0x3", F2("lohi", 75, 1, 0, 1, "ext", 76, 1, 0, 1)},
    {"LEA.HI.X R0, R1, R2, RZ, 0x3", "LEA.HI.X.SX32 R0, R1, R2, 0x3", F1("sx32", 80, 1, 0, 1)},
    {"LEA.HI.X R0, R1, R2, RZ, 0x3", "LEA.HI.X R0, R1, R2, R9, 0x3", F1("rc", 64, 8, 255, 9)},
    {"IMNMX R0, R1, R2, P0", "IMNMX.U32 R0, R1, R2, P0", F1("itype", 77, 1, 0, 1)},
    {"P2R R0, PR, R1, 0xff", "P2R.B3 R0, PR, R1, 0xff", F1("bsel", 79, 2, 0, 3)},
    {"R2P PR, R1, 0xff", "R2P PR, R1.B2, 0xff", F1("ra.bsel", 79, 2, 0, 2)},
    {"ISETP.EQ.AND P0, R1, R2, PT", "ISETP.GE.AND P0, R1, R2, PT", F1("compop", 79, 3, 0, 5)},
    {"ISETP.EQ.AND P0, R1, R2, PT", "ISETP.LT.AND P0, R1, R2, PT", F1("compop", 79, 3, 0, 2)},
    {"ISETP.EQ.AND P0, R1, R2, PT", "ISETP.EQ.XOR P0, R1, R2, PT", F1("boolop", 82, 2, 0, 2)},
    {"ISETP.EQ.AND P0, R1, R2, PT", "ISETP.EQ.AND.X P0, R1, R2, PT", F1("ext", 76, 1, 0, 1)},
    {"ISETP.EQ.AND P0, R1, R2, PT", "ISETP.EQ.AND P0, P3, R1, R2, PT", F1("pv", 109, 3, 7, 3)},
    {"ISETP.EQ.AND.X P0, R1, R2, PT", "ISETP.EQ.AND.X P0, R1, R2, PT, !P4", F2("pq", 102, 3, 7, 4, "pq.not", 105, 1, 0, 1)},
    {"ISET.EQ R0, R1, R2", "ISET.EQ.BF R0, R1, R2", F1("bmbf", 84, 1, 0, 1)},
    {"ISET.EQ R0, R1, R2", "ISET.EQ.OR R0, R1, R2", F1("boolop", 82, 2, 0, 1)},
    {"ISET.EQ R0, R1, R2", "ISET.EQ R0, R1, R2, !P2", F2("pp", 98, 3, 7, 2, "pp.not", 101, 1, 0, 1)},
    {"ISET.EQ R0, R1, R2", "ISET.EQ R0, R1, R2, PT", {{0}}}, /* ruling: ISET's omitted pp is PT, not !PT */
    {"ISET.EQ.X R0, R1, R2", "ISET.EQ.X R0, R1, R2, PT, P1", F2("pq", 102, 3, 7, 1, "pq.not", 105, 1, 1, 0)},
    {"SEL R0, R1, R2, P0", "SEL R0, R1, R2, !P6", F2("pp", 98, 3, 0, 6, "pp.not", 101, 1, 0, 1)},
    {"LOP3 R0, R1, R2, R3, 0x0, PT", "LOP3.PAND R0, R1, R2, R3, 0x0, PT", F1("exbool", 79, 2, 1, 0)},
    {"LOP3 R0, R1, R2, R3, 0x0, PT", "LOP3 R0, R1, R2, R3, 0xe8, PT", F1("lut", 82, 8, 0, 0xe8)},
    {"LOP3 R0, R1, R2, R3, 0x0, PT", "LOP3 P2, R0, R1, R2, R3, 0x0, PT", F1("pu", 106, 3, 7, 2)},
    {"LOP3 R0, R1, R2, R3, 0x0, PT", "LOP3 R0, R1, R2, R99, 0x0, PT", F1("rc", 64, 8, 3, 99)},
    {"PLOP3 P0, P1, P2, P3, 0x1a", "PLOP3 P0, !P5, P2, P3, 0x1a", F2("pa", 24, 3, 1, 5, "pa.not", 27, 1, 0, 1)},
    {"PLOP3 P0, P1, P2, P3, 0x1a", "PLOP3 P0, P1, !P6, P3, 0x1a", F2("pb", 32, 3, 2, 6, "pb.not", 35, 1, 0, 1)},
    {"PLOP3 P0, P1, P2, P3, 0x1a", "PLOP3 P0, P1, P2, !P0, 0x1a", F2("pc", 64, 3, 3, 0, "pc.not", 67, 1, 0, 1)},
    {"PLOP3 P0, P1, P2, P3, 0x1a", "PLOP3 P0, P1, P2, P3, 0x80", F1("lut", 82, 8, 0x1a, 0x80)},
    {"PLOP3 P0, P1, P2, P3, 0x1a", "PLOP3 P4, P1, P2, P3, 0x1a", F1("pu", 106, 3, 0, 4)},
    {"PLOP3 P0, P1, P2, P3, 0x1a", "PLOP3 P0, P1, P2, UP3, 0x1a", F1("stype", 8, 4, 15 /*X*/, 1 /*U*/)},
    {"PLOP3 P0, P1, P2, UP3, 0x1a", "PLOP3 P0, P1, P2, !UP5, 0x1a", F2("upc", 64, 3, 3, 5, "upc.not", 67, 1, 0, 1)},
    {"SHF.L R0, R1, R2, R3", "SHF.R R0, R1, R2, R3", F1("direction", 81, 1, 0, 1)},
    {"SHF.L R0, R1, R2, R3", "SHF.L.HI R0, R1, R2, R3", F1("lohi", 75, 1, 0, 1)},
    {"SHF.L R0, R1, R2, R3", "SHF.L.WRAP R0, R1, R2, R3", F1("cwmod", 80, 1, 0, 1)},
    {"SHF.L R0, R1, R2, R3", "SHF.L.S64 R0, R1, R2, R3", F1("itype", 77, 2, 2, 0)},
    {"SHF.L R0, R1, R2, R3", "SHF.L.U64 R0, R1, R2, R3", F1("itype", 77, 2, 2, 1)},
    {"SHF.L R0, R1, R2, R3", "SHF.L.U32 R0, R1, R2, R3", F1("itype", 77, 2, 2, 3)},
    {"SHF.L R0, R1, R2, R3", "SHF.L.LO.CLAMP.S32 R0, R1, R2, R3", {{0}}},
    {"MOV R0, R2", "MOV.64 R[0:1], R[2:3]", F1("width", 80, 1, 0, 1)},
    {"MOV R0, R1", "MOV.32 R0, R1", {{0}}},
    {"MOV R0, R1", "MOV R0, R200", F1("rb", 32, 8, 1, 200)},
    {"MOV R0, 0x0", "MOV R0, 0x114514", F1("vb", 32, 32, 0, 0x114514)},
    {"MOV R0, UR1", "MOV R0, UR9", F1("urb", 32, 6, 1, 9)},
    {"PRMT R0, R1, R2, R3", "PRMT.F4E R0, R1, R2, R3", F1("mode", 76, 3, 0, 1)},
    {"PRMT R0, R1, R2, R3", "PRMT.ECL R0, R1, R2, R3", F1("mode", 76, 3, 0, 4)},
    {"PRMT R0, R1, R2, R3", "PRMT.RC16 R0, R1, R2, R3", F1("mode", 76, 3, 0, 6)},
    {"I2I.S8 R0, R1", "I2I.U8 R0, R1", F1("dtype", 76, 2, 0, 1)},
    {"I2I.S8 R0, R1", "I2I.U16 R0, R1", F1("dtype", 76, 2, 0, 3)},
    {"I2IP.S2 R0, R1, R2, R3", "I2IP.U16 R0, R1, R2, R3", F1("dsttype", 76, 3, 0, 7)},
    {"I2IP.S8 R0, R1, R2, R3", "I2IP.S8.SATRELU R0, R1, R2, R3", F1("satrelu", 75, 1, 0, 1)},
    {"I2IP.S8 R0, R1, R2, R3", "I2IP.S8.SAT R0, R1, R2, R3", {{0}}},
    {"I2IP.S8 R0, R1, R2, R3", "I2IP.S8 R0, R1, R2, RZ", F1("rc", 64, 8, 3, 255)},
    {"SETGPR R[UR2], R1", "SETGPR R[UR2+0x1], R1", F1("ridx", 32, 9, 0, 1)},
    {"SETGPR R[UR2], R1", "SETGPR R[UR2-0x1], R1", F1("ridx", 32, 9, 0, 0x1ff)},
    {"SETGPR R[UR2], R1", "SETGPR R[UR7], R1", F1("urb", 64, 6, 2, 7)},
    {"SETGPR R[UR2], R1", "SETGPR R[UR2], R9", F1("ra", 24, 8, 1, 9)},
    {"GETGPR R0, R[UR2]", "GETGPR R0, R[UR2+0xff]", F1("ridx", 32, 9, 0, 0xff)},
    {"GETGPR R0, R[UR2]", "GETGPR R0, R[URZ]", F1("urb", 64, 6, 2, 63)},
    {"R2UR UR0, R0", "R2UR UR33, R0", F1("urd", 16, 6, 0, 33)},
    {"R2UR UR0, R0", "R2UR UR0, R17", F1("rb", 32, 8, 0, 17)},
    {"R2UR UR0, R0", "R2UR UR0, R0 $wsb=7", F1("$wsb", 123, 3, 0, 7)},
    {"IABS R0, 0x1", "IABS R0, -0x1", F1("vb", 32, 32, 1, 0xFFFFFFFF)},
    /* literal values (rulings: round to nearest once; F64Imm is the high word) and spellings */
    {"FADD R0, R1, 0", "FADD R0, R1, 1e-3", F1("vb", 32, 32, 0, 0x3A83126F)},
    {"FADD R0, R1, 0", "FADD R0, R1, 0.1", F1("vb", 32, 32, 0, 0x3DCCCCCD)},
    {"FADD R0, R1, 0", "FADD R0, R1, 3.4028235e38", F1("vb", 32, 32, 0, 0x7F7FFFFF)},
    {"FADD R0, R1, 0", "FADD R0, R1, 1e-45", F1("vb", 32, 32, 0, 0x00000001)},
    {"FADD R0, R1, 0", "FADD R0, R1, -inf", F1("vb", 32, 32, 0, 0xFF800000)},
    {"HADD2 R0, R1, 0, 0", "HADD2 R0, R1, 0.1, 65519", F1("vb", 32, 32, 0, 0x2E667BFF)},
    {"HADD2.BF16_V2 R0, R1, 0, 0", "HADD2.BF16_V2 R0, R1, 0.1, 1e38", F1("vb", 32, 32, 0, 0x3DCD7E96)},
    {"DADD R[0:1], R[2:3], 0", "DADD R[0:1], R[2:3], 2.5", F1("vb", 32, 32, 0, 0x40040000)},
    {"DADD R[0:1], R[2:3], UR[4:5]", "DADD R[0:1], R[2:3], UR4", {{0}}},
    {"IADD R0, R1, 0xFFFFFFFF", "IADD R0, R1, -0x1", {{0}}},
    {"GETGPR R0, R[UR2]", "GETGPR R0, R[UR2-0x100]", F1("ridx", 32, 9, 0, 0x100)},
    {"FADD.FTZ.RZ R0, R1, R2", "FADD.RZ.FTZ R0, R1, R2", {{0}}},           /* any modifier order */
    {"ISETP.LT.AND.U32 P0, R1, R2, PT", "ISETP.U32.LT.AND P0, R1, R2, PT", {{0}}},
    {"HFMA2.FTZ.RELU R0, R1, R2, R3", "HFMA2.RELU.FTZ R0, R1, R2, R3", {{0}}},
    {"IDP.2A.S16.S8 R0, R1, R2, R3", "IDP.2A.S8.S16 R0, R1, R2, R3", {{0}}}, /* no shared value names */
    {"HADD2 R0, R1, R2", "HADD2.F16_V2 R0, R1, R2", {{0}}},                 /* explicit defaults */
    {"FSET.LT.AND R0, R1, R2, PT", "FSET.LT.AND.BM R0, R1, R2, PT", {{0}}},
    {"MOV.64 R[0:1], R[2:3]", "MOV.64 R0, R2", {{0}}},
};

#define NROWS (sizeof rows / sizeof *rows)

static uint64_t get(gisa_word w, int off, int width) { return word_get(&w, off, width); }

static int assemble(const gisa_isa *isa, const char *s, gisa_word *w)
{
    gisa_diags *d = api_diags();
    int ok = api_asm_one(isa, s, w, d) == GISA_OK;
    if (!ok) {
        fprintf(stderr, "cannot assemble: %s\n", s);
        test_dump_diags(d);
    }
    gisa_diags_free(d);
    return ok;
}

/* ------------------------------------------------ the documents' field<> lines */

typedef struct docfield {
    char name[64];
    int off, width;
} docfield;

static docfield docs[1024];
static int ndocs;

static void read_doc(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        int off, width, n = 0;
        char type[64], name[64];
        if (strncmp(p, "field<", 6) || sscanf(p, "field<%d ,%d > %63s %63[^ =;]%n", &off, &width, type, name, &n) < 4)
            continue; /* "// field<...>" (commented out in halu) is not a field */
        int seen = 0;
        for (int i = 0; i < ndocs; i++)
            seen |= !strcmp(docs[i].name, name) && docs[i].off == off && docs[i].width == width;
        if (!seen && ndocs < 1024) {
            snprintf(docs[ndocs].name, sizeof docs[ndocs].name, "%s", name);
            docs[ndocs].off = off;
            docs[ndocs].width = width;
            ndocs++;
        }
    }
    fclose(f);
}

static void load_docs(void)
{
    static const char *const names[] = {"falu", "dalu", "halu", "ialu"};
    const char *shared = test_shared_dir();
    char p[4300];
    for (int i = 0; i < 4; i++) {
        if (shared) /* the documents themselves */
            snprintf(p, sizeof p, "%s/seeds/%s.isa.txt", shared, names[i]);
        else /* their transcription in the source tree */
            snprintf(p, sizeof p, "%s", test_path(i == 0 ? "isa/gisa128/falu.isa" : i == 1 ? "isa/gisa128/dalu.isa"
                                                   : i == 2 ? "isa/gisa128/halu.isa" : "isa/gisa128/ialu.isa"));
        read_doc(p);
    }
    read_doc(test_path("isa/gisa128/types.isa")); /* $sched $req $wsb: the project's own layout */
}

/* ------------------------------------------------ model-driven sweep */

/* Replaces the only whole-token occurrence of `from` in `s` by `to`. */
static int replace_token(const char *s, const char *from, const char *to, char *out, size_t cap)
{
    size_t fl = strlen(from);
    const char *hit = NULL;
    for (const char *p = strstr(s, from); p; p = strstr(p + 1, from)) {
        int before = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = !(isalnum((unsigned char)p[fl]) || p[fl] == '_' || p[fl] == '[');
        if (before && after) {
            if (hit)
                return 0; /* twice: ambiguous */
            hit = p;
        }
    }
    if (!hit)
        return 0;
    snprintf(out, cap, "%.*s%s%s", (int)(hit - s), s, to, hit + fl);
    return 1;
}

static void reg_name(const isa_type *t, uint64_t v, int pair, char *buf, size_t cap)
{
    if (v == t->zero_value)
        snprintf(buf, cap, "%s", t->zero);
    else if (pair && !t->pair_first)
        snprintf(buf, cap, "%s[%llu:%llu]", t->prefix, (unsigned long long)v, (unsigned long long)v + 1);
    else
        snprintf(buf, cap, "%s%llu", t->prefix, (unsigned long long)v);
}

static void sweep(const gisa_isa *isa, long *nchecked)
{
    tg_rng r = {0xF1E1D5};
    for (int oi = 0; oi < isa->nopcodes; oi++) {
        const isa_opcode *op = &isa->opcodes[oi];
        for (int fi = 0; fi < op->nforms; fi++) {
            const syntax_form *F = &op->forms[fi];
            for (int k = 0; k < F->nops; k++) {
                const opnd_slot *s = &F->ops[k];
                if (s->kind != OK_REG && s->kind != OK_INDEXED)
                    continue;
                int done = 0, legal = 0;
                for (int attempt = 0; attempt < 200 && !done; attempt++) {
                    tg_word g;
                    tg_generate(op, F, &r, 1000, &g);
                    legal += g.exception < 0;
                    if (g.exception >= 0 || (s->group && g.vals[s->field] == tg_absent(&op->fields[s->field])))
                        continue; /* need a valid word where the operand is written */
                    int pair = s->kind == OK_REG && tg_is_pair(s, g.vals);
                    uint64_t v1 = g.vals[s->field], v2 = tg_reg(&r, s->type, pair);
                    if (v2 == v1)
                        continue;
                    char text[512], from[32], to[32], text2[512];
                    if (gisa_disassemble(isa, g.w, text, sizeof text, NULL) != GISA_OK)
                        continue; /* reported by test_roundtrip */
                    reg_name(s->type, v1, pair, from, sizeof from);
                    reg_name(s->type, v2, pair, to, sizeof to);
                    if (!replace_token(text, from, to, text2, sizeof text2))
                        continue; /* the register also occurs elsewhere: try another word */
                    gisa_word a, b;
                    if (!assemble(isa, text, &a) || !assemble(isa, text2, &b)) {
                        CHECKF(0, "%s: %s / %s", op->name, text, text2);
                        done = 1;
                        break;
                    }
                    const isa_field *f = &op->fields[s->field];
                    gisa_word x = {{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1]}}, want = {{0, 0}};
                    word_set(&want, f->off, f->width, v1 ^ v2);
                    CHECKF(tg_word_eq(x, want) && get(b, f->off, f->width) == v2,
                           "%s operand %s (field %s<%d,%d>): '%s' -> '%s' changed %016llx%016llx", op->name, s->name,
                           f->name, f->off, f->width, text, text2, (unsigned long long)x.w[1], (unsigned long long)x.w[0]);
                    (*nchecked)++;
                    done = 1;
                }
                /* (MOV_I's MOV.64 form has no legal word at all: its __Exception) */
                CHECKF(done || !legal, "%s form %d operand %s: no usable word for the sweep", op->name, fi, s->name);
            }
        }
    }
}

int main(void)
{
    const gisa_isa *isa = test_isa();
    load_docs();
    CHECKF(ndocs > 80, "read only %d field<> lines from the documents", ndocs);
    for (size_t i = 0; i < NROWS; i++) {
        const row *rw = &rows[i];
        gisa_word a, b;
        if (!assemble(isa, rw->a, &a) || !assemble(isa, rw->b, &b)) {
            CHECKF(0, "row %zu: '%s' / '%s' do not both assemble", i, rw->a, rw->b);
            continue;
        }
        gisa_word want = {{0, 0}};
        for (int k = 0; k < 3 && rw->f[k].name; k++) {
            const fld *f = &rw->f[k];
            word_set(&want, f->off, f->width, f->a ^ f->b);
            CHECKF(get(a, f->off, f->width) == f->a && get(b, f->off, f->width) == f->b,
                   "'%s' / '%s': %s<%d,%d> is %llu / %llu, expected %llu / %llu", rw->a, rw->b, f->name, f->off, f->width,
                   (unsigned long long)get(a, f->off, f->width), (unsigned long long)get(b, f->off, f->width),
                   (unsigned long long)f->a, (unsigned long long)f->b);
            int in_docs = 0;
            for (int d = 0; d < ndocs; d++)
                in_docs |= !strcmp(docs[d].name, f->name) && docs[d].off == f->off && docs[d].width == f->width;
            CHECKF(in_docs, "table row %zu: %s<%d,%d> is no field<> line of the documents", i, f->name, f->off, f->width);
        }
        CHECKF((a.w[0] ^ b.w[0]) == want.w[0] && (a.w[1] ^ b.w[1]) == want.w[1],
               "'%s' / '%s': XOR %016llx%016llx, expected %016llx%016llx", rw->a, rw->b,
               (unsigned long long)(a.w[1] ^ b.w[1]), (unsigned long long)(a.w[0] ^ b.w[0]), (unsigned long long)want.w[1],
               (unsigned long long)want.w[0]);
    }
    /* every field name of the documents is exercised by some row */
    int missing = 0;
    for (int d = 0; d < ndocs; d++) {
        int used = 0;
        for (size_t i = 0; i < NROWS && !used; i++)
            for (int k = 0; k < 3 && rows[i].f[k].name; k++)
                used |= !strcmp(rows[i].f[k].name, docs[d].name);
        if (!used) {
            missing++;
            fprintf(stderr, "  document field %s<%d,%d> has no placement row\n", docs[d].name, docs[d].off, docs[d].width);
        }
    }
    CHECKF(missing == 0, "%d document fields without a row", missing);
    long swept = 0, swept_fermi = 0;
    sweep(isa, &swept);
    sweep(test_isa_target("fermi"), &swept_fermi); /* the second target's registers move alone too */
    printf("placement: %zu rows, %d document field<> lines, %ld sweep operands (fermi: %ld)\n", NROWS, ndocs, swept, swept_fermi);
    return test_summary();
}
