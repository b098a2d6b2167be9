// a ^ b ^ c: the truth table 0x96
LOP3 R0, R1, R2, R3, 0x96, !PT ;
