# Small inputs shared by the CLI tests and scripts/valgrind_cli.sh (sourced,
# not run). write_fixtures SRC GISA writes into the current directory:
#   ok.s, ok.bin   one valid instruction, as source and as a binary image
#   bad.s          source errors (an unknown register, mnemonic, a huge integer)
#   zero.hex       a word that is no instruction
#   bad.hex        malformed hex
#   fault.s        faults with `run --regs 4`
#   broken/        the ISA description of SRC with an error
write_fixtures() {
    printf 'FADD R5, R6, R7\n' >ok.s
    printf 'FADD R5, R6, Q7\nFOO R1\nIADD R1, R2, 99999999999999999999999\n' >bad.s
    printf '00000000000000000000000000000000\n' >zero.hex
    printf 'zz\n' >bad.hex
    printf 'MOV R4, 0x1\n' >fault.s
    mkdir -p broken
    cp "$1"/isa/gisa128/*.isa broken/
    echo '__Bogus x' >>broken/falu.isa
    "$2" as ok.s -o ok.bin
}
