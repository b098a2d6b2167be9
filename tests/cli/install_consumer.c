/* A program that uses an installed libgisa (tests/cli/install.sh builds it
 * with pkg-config and with CMake's find_package, against the shared and the
 * static library): the version, the embedded ISA, FADD R0, R1, R2
 * assembled, disassembled and decoded.
 * Usage: install_consumer [EXPECTED_VERSION]; prints one line per step. */
#include <gisa.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what, gisa_status st, gisa_diags *d)
{
    fprintf(stderr, "install_consumer: %s: %s\n", what, gisa_status_str(st));
    for (size_t i = 0; d && i < gisa_diags_count(d); i++) {
        char *msg = NULL;
        gisa_diag_format(gisa_diags_get(d, i), false, &msg);
        fprintf(stderr, "  %s\n", msg ? msg : "?");
        gisa_free(msg);
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *src = "FADD R0, R1, R2";
    int rc = 0;
    printf("version %s %u\n", gisa_version(), gisa_version_number());
    if (argc > 1 && strcmp(argv[1], gisa_version()) != 0) {
        fprintf(stderr, "install_consumer: version %s, want %s\n", gisa_version(), argv[1]);
        return 1;
    }

    gisa_diags *d = NULL;
    gisa_isa *isa = NULL;
    gisa_status st = gisa_diags_new(&d);
    if (st == GISA_OK)
        st = gisa_isa_load(NULL, &isa, d);
    if (st != GISA_OK) {
        rc = fail("gisa_isa_load", st, d);
        gisa_diags_free(d);
        return rc;
    }
    printf("isa %u bits %zu opcodes\n", gisa_isa_word_bits(isa), gisa_isa_opcode_count(isa));

    gisa_asm_options one = GISA_ASM_OPTIONS_INIT;
    one.flags = GISA_ASM_ONE;
    gisa_word *words = NULL;
    size_t n = 0;
    st = gisa_assemble(isa, "consumer.s", src, strlen(src), &one, &words, &n, d);
    if (st != GISA_OK) {
        rc = fail("gisa_assemble", st, d);
        goto out;
    }
    gisa_word w = words[0];
    gisa_free(words);
    printf("word %016" PRIx64 "%016" PRIx64 "\n", w.w[1], w.w[0]);

    char text[256];
    st = gisa_disassemble(isa, w, text, sizeof text, NULL);
    if (st != GISA_OK) {
        rc = fail("gisa_disassemble", st, NULL);
        goto out;
    }
    printf("dis %s\n", text);

    gisa_inst inst;
    st = gisa_decode(isa, w, &inst);
    if (st != GISA_OK) {
        fprintf(stderr, "install_consumer: gisa_decode: %s\n", inst.why);
        rc = 1;
        goto out;
    }
    printf("decode %s %s %zu operands\n", gisa_inst_opcode_name(isa, &inst), gisa_inst_mnemonic(isa, &inst),
           gisa_inst_operand_count(isa, &inst));
    if (strcmp(text, src) != 0) {
        fprintf(stderr, "install_consumer: disassembled '%s', want '%s'\n", text, src);
        rc = 1;
    }
out:
    gisa_isa_free(isa);
    gisa_diags_free(d);
    return rc;
}
