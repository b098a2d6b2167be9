// x * 2
FMUL R0, R1, 2.0 ;
