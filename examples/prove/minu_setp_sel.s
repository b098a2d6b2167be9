// min(a, b), unsigned: compare, then select
ISETP.LT.U32.AND P0, PT, R1, R2, PT ;
SEL R0, R1, R2, P0 ;
