// 64-bit add R[0:1] = R[2:3] + R[4:5]: the low words' carry goes through P0
IADD   R0, P0, R2, R4 ;
IADD.X R1, PT, R3, R5, P0 ;
