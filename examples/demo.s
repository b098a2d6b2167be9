// gisa demo: a few idioms of the 128-bit ISA (see docs/assembly.md)

// 64-bit add and subtract with carries (SPEC-RULINGS, Integer)
IADD   R0, P0, R2, R4            // low word, carry out to P0
IADD.X R1, PT, R3, R5, P0        // high word, carry in from P0
IADD   R6, P1, R2, -R4 ; IADD.X R7, PT, R3, ~R5, P1   // R[6:7] = R[2:3] - R[4:5]

// 32x32 -> 64-bit multiply-add, and a 64-bit signed compare
IMAD.WIDE.U32 R[8:9], P0, R4, R5, R[6:7]
ISETP.LT.U32.AND P2, PT, R2, R4, PT
ISETP.LT.AND.X   P2, PT, R3, R5, PT, P2

/* floating point: fused multiply-add with rounding toward zero, a guarded
   F64 add with scheduling controls, and a packed half-precision FMA */
FFMA.RZ R10, -|R1|, c[0x0][0x100], R2
@!P2 DADD.RM R[12:13], R[2:3], -0.5 $sched=2 $wsb=1
HFMA2.BF16_V2 R14, R1.H1_H1, -1.5, 2, RZ
LOP3.PAND P3, R15, R1, R2, R3, 0xE8, PT    // majority(R1, R2, R3)
PRMT.F4E R16, R1, R2, 0x1
