// each half on its own (.H0_H0: the low halves, .H1_H1: the high ones), then
// the low half of the one and the high half of the other (PRMT: bytes 1:0 of R4, bytes 3:2 of R5, which are 7:6 of R5:R4)
HFMA2.BF16_V2 R4, R1.H0_H0, R2.H0_H0, R3.H0_H0 ;
HFMA2.BF16_V2 R5, R1.H1_H1, R2.H1_H1, R3.H1_H1 ;
PRMT R0, R4, R5, 0x7610 ;
