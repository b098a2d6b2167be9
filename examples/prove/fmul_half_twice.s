// x * 0.5 * 2: a subnormal half loses its last bit
FMUL R0, R1, 0.5 ;
FMUL R0, R0, 2.0 ;
