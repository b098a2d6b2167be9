// the same by a shift, then an add
SHF.L.U32 R0, R1, 3, RZ ;
IADD R0, PT, R0, R2 ;
