// a * 8 + 0
IMAD R0, R1, 8, RZ ;
