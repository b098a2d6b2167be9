// x + c (.RP)
FADD.RP R0, R1, R2 ;
