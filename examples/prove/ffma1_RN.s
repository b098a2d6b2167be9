// x*1 + c, one rounding (.RN)
FFMA.RN R0, R1, 1.0, R2 ;
