// the same by 64-bit shifts (the high word from a funnel shift), then a 64-bit add
SHF.L.U32    R4, R2, 3, RZ ;
SHF.L.HI.U64 R5, R2, 3, R3 ;
IADD         R0, P0, R4, R6 ;
IADD.X       R1, PT, R5, R7, P0 ;
