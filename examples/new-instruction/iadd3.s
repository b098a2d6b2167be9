// IADD3, an instruction added in iadd3.isa (no C code in gisa knows it):
//   gisa run --isa-add iadd3.isa iadd3.s --state iadd3.json -o -
IADD3 R0, P0, R1, R2, R3 ;          // R0 = R1 + R2 + R3, P0 = carry out of bit 31
IADD3 R8, P1, R4, R6, RZ ;          // a 64-bit add R[8:9] = R[4:5] + R[6:7]:
IADD3.X R9, R5, R7, RZ, P1 ;        //   the high words with the low words' carry
IADD3 R10, R1, 0x10, R3 ;           // an immediate SrcB
IADD3 R11, R1, c[0x0][0x10], R3 ;   // a constant
IADD3 R12, R1, UR4, R3 ;            // a uniform register
@!P0 IADD3 R13, R1, R2, RZ ;        // guarded: only lanes without a carry
IADD3 R14, P2, -R1, R2, -R3 ;       // R2 - R1 - R3: each - adds 2^32 - x (the file's decorate rule)
