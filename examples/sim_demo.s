// 64-bit add of per-lane pairs, then a float fused multiply-add.
IADD   R0, P0, R2, R4 ;          // low words, carry out to P0
IADD.X R1, PT, R3, R5, P0 ;      // high words plus the carry
I2I.U16 R6, R2 ;                 // saturate the lane number to 16 bits
FFMA.RZ R7, R8, 0.5, R9 ;        // R8 * 0.5 + R9, rounded toward zero
ISETP.GE.AND P1, PT, R2, 16, PT ;
@P1 MOV R10, 0x1234 ;            // only lanes 16..31
