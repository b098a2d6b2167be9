// a * 8, the low word
IMUL.LO.U32 R0, R1, 8 ;
