// x itself
MOV R0, R1 ;
