// a wrong chain: the high add forgets the carry (.X)
IADD R0, P0, R2, R4 ;
IADD R1, PT, R3, R5 ;
