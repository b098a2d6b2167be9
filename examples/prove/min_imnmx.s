// min(a, b), signed
IMNMX R0, R1, R2, PT ;
