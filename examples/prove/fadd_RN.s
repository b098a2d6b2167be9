// x + c (.RN)
FADD.RN R0, R1, R2 ;
