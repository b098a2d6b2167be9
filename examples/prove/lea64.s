// 64-bit (R[2:3] << 3) + R[6:7]: LEA's low word and carry, LEA.HI.X's high word
LEA      R0, P0, R2, R6, 3 ;
LEA.HI.X R1, R2, R7, R3, 3, P0 ;
