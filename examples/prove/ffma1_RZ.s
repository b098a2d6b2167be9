// x*1 + c, one rounding (.RZ)
FFMA.RZ R0, R1, 1.0, R2 ;
