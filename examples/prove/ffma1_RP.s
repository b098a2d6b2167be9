// x*1 + c, one rounding (.RP)
FFMA.RP R0, R1, 1.0, R2 ;
