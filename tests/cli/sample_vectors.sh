#!/usr/bin/env bash
# The semantic sample vectors under both engines (tests/unit/test_sim_vectors.c)
# with vectors of its own, so that it runs without ../shared: a right vector
# passes under native and doc; a vector whose word the doc engine does not
# run would be counted as skipped, with the reason (no shipped optype is
# now: P2R, the last, runs under both); a wrong reference fails with a
# report that names the instruction, the inputs, the reference, both
# engines' results and the patches of the optype.
# Env: GISA_BUILD_DIR (test_sim_vectors is in its tests/).
source "$(dirname "$0")/lib/harness.bash" sample_vectors

V=${GISA_BUILD_DIR:-$(dirname "$G")}/tests/test_sim_vectors
if [ ! -x "$V" ]; then
    skip "$V is not built"
fi
tab=$'\t'
{
    echo "# FADD 1 + 2, and P2R (the predicate file as an operand)"
    echo "FADD R0, R1, R2 ;${tab}R1=0x3F800000 R2=0x40000000${tab}R0=0x40400000"
    echo "P2R R0, PR, R1, R2 ;${tab}R1=0x00000100 R2=0x0000000F P0=1 P2=1${tab}R0=0x00000105"
} >good.tsv
expect 0 "right vectors pass" "$V" good.tsv
check "FADD runs under both engines" has out '^  FADD +1 +1 +1 +0$'
check "P2R runs under both engines" has out '^  P2R +1 +1 +1 +0$'
check "the totals" has out 'total: 2 vectors; native engine 2 equal the reference; doc engine 2 equal the reference, 0 skipped'
check "fermi is said to be native only" has out '^fermi: its description has no pseudo-code: native engine only'

echo "FFMA R0, R1, R2, R3 ;${tab}R1=0x3F800000 R2=0x40000000 R3=0x3F800000${tab}R0=0x40400001" >wrong.tsv
expect 1 "a wrong reference fails" "$V" wrong.tsv
check "the report names the instruction" has err '^DISAGREE wrong.tsv:1: FFMA R0, R1, R2, R3 ;$'
check "the report gives the inputs" has err '^  inputs: R1=0x3F800000 R2=0x40000000 R3=0x3F800000$'
check "the report gives the reference and both results" has err '^  output 0: reference 0x40400001, native 0x40400000, doc 0x40400000$'
check "the report lists the patches" has err '^  patch of FFMA .*rulings.isa:[0-9]+: replace "t = a \* SrcB;" \(.a. is Ra'
finish
