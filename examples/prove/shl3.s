// a << 3 (a funnel shift with zero above)
SHF.L.U32 R0, R1, 3, RZ ;
