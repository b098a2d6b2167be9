// a * b + c on both packed BF16 halves at once
HFMA2.BF16_V2 R0, R1, R2, R3 ;
