// min(a, b), signed: compare, then select
ISETP.LT.AND P0, PT, R1, R2, PT ;
SEL R0, R1, R2, P0 ;
