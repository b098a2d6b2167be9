// x + c (.RM)
FADD.RM R0, R1, R2 ;
