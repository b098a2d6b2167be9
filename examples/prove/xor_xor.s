// a ^ b, then ^ c (truth table 0x3c: a ^ b, the third input unused)
LOP3 R0, R1, R2, RZ, 0x3c, !PT ;
LOP3 R0, R0, R3, RZ, 0x3c, !PT ;
