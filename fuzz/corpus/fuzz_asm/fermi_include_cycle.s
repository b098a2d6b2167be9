FADD R0, R1, R2
.inst 0x1
.include "f1.s"
%%
.include "fuzz.s"
