// a * b + c on both packed F16 halves at once
HFMA2.F16_V2 R0, R1, R2, R3 ;
