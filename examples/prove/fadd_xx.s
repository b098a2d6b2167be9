// x + x
FADD R0, R1, R1 ;
