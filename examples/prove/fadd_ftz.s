// x + c, subnormal inputs and results flushed to zero
FADD.FTZ R0, R1, R2 ;
