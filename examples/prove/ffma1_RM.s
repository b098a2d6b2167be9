// x*1 + c, one rounding (.RM)
FFMA.RM R0, R1, 1.0, R2 ;
