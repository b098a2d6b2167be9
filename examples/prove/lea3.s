// (a << 3) + b
LEA R0, R1, R2, 3 ;
