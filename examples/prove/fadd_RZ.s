// x + c (.RZ)
FADD.RZ R0, R1, R2 ;
