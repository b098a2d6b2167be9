// the same add as a wide multiply-add by 1 (R2 * 1 + R[4:5]), then the high words
IMAD.WIDE.U32 R[0:1], R2, 1, R[4:5] ;
IADD          R1, PT, R1, R3 ;
