// min(a, b), unsigned
IMNMX.U32 R0, R1, R2, PT ;
