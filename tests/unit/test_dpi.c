/* The DPI-C wrapper without a SystemVerilog simulator: a "perfect RTL" (a
 * second, independent gisa simulator whose state changes are reported as
 * writes) must pass every check on random programs; a wrong value, a
 * missing write, an extra write, a wrong exec mask and a wrong pc must each
 * fail with a one-line report that starts with "mismatch" and names the pc,
 * the instruction, the register, the lane and both values. Also: loading
 * errors, words by parts, stepping and the commit accessors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gisa_dpi.h"
#include "testgen.h"
#include "testlib.h"

static char dir[64];

static const char *write_file(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The "RTL": every lane of every register the model's commit lists is
 * reported with the value an independent simulator (ref, stepped alone)
 * holds after the same instruction. */
static void report_writes(void *h, gisa_sim *ref, int nregs)
{
    int n = gisa_dpi_effect_count(h);
    for (int i = 0; i < n; i++) {
        int rf = gisa_dpi_effect_rf(h, i), index = gisa_dpi_effect_index(h, i);
        unsigned mask = gisa_dpi_effect_mask(h, i);
        (void)nregs;
        for (int l = 0; l < 32; l++)
            if (mask >> l & 1) {
                uint32_t v;
                gisa_sim_get(ref, 0, (gisa_regfile)rf, (unsigned)index, (unsigned)l, &v);
                gisa_dpi_write(h, rf, index, l, v);
            }
    }
}

static void lockstep_random(void)
{
    gisa_isa *isa = test_isa();
    tg_rng r = {77};
    char text[64 * 200] = "";
    size_t len = 0;
    gisa_word words[64];
    /* a program of IADD/LOP3/ISETP/SEL words drawn from the model */
    static const char *const names[] = {"IADD_RR", "LOP3_RRR", "ISETP_RR", "SEL_RR", "SHF_RRR"};
    for (int i = 0; i < 64;) {
        const isa_opcode *op = &isa->opcodes[api_find_opcode(isa, names[tg_below(&r, 5)])];
        tg_word g;
        tg_generate(op, &op->forms[tg_below(&r, (uint64_t)op->nforms)], &r, i, &g);
        gisa_inst inst;
        if (gisa_decode(isa, g.w, &inst) != GISA_OK || gisa_print(isa, &inst, text + len, sizeof text - len) != GISA_OK)
            continue;
        words[i++] = g.w;
        len += strlen(text + len);
        text[len++] = '\n';
        text[len] = 0;
    }
    void *h = gisa_dpi_new("", "", 0, 1);
    CHECK(h != NULL);
    CHECKF(gisa_dpi_load_asm(h, write_file("p.s", text)) == 64, "%s", gisa_dpi_message(h));
    CHECK(gisa_dpi_program_length(h) == 64);
    for (int p = 0; p < 4; p++)
        CHECK(gisa_dpi_word(h, 5, p) == (uint32_t)(words[5].w[p / 2] >> (32 * (p % 2))));
    CHECK(gisa_dpi_word(h, 64, 0) == 0);
    gisa_sim *ref;
    gisa_sim_new(isa, gisa_sim_max_regs(isa), 1, &ref);
    gisa_sim_load(ref, words, 64);
    for (unsigned i = 0; i < 40; i++)
        for (int l = 0; l < 32; l++) {
            uint32_t v = (uint32_t)tg_next(&r);
            gisa_sim_set(ref, 0, GISA_RF_R, i, l, v);
            CHECK(gisa_dpi_set(h, 0, GISA_RF_R, (int)i, l, v) == 0);
            if (i < 7) {
                gisa_sim_set(ref, 0, GISA_RF_P, i, l, v & 1);
                gisa_dpi_set(h, 0, GISA_RF_P, (int)i, l, v & 1);
            }
        }
    int ok = 0;
    for (int pc = 0; pc < 64; pc++) {
        gisa_sim_commit c;
        CHECK(gisa_sim_step(ref, 0, &c, NULL) == GISA_OK);
        CHECK(gisa_dpi_retire(h, 0, pc, c.exec) == 0);
        report_writes(h, ref, 0);
        int bad = gisa_dpi_check(h);
        CHECKF(bad == 0, "pc %d: %s", pc, gisa_dpi_message(h));
        ok += bad == 0;
    }
    CHECK(ok == 64 && gisa_dpi_errors(h) == 0);
    CHECK(gisa_dpi_done(h, 0));
    CHECK(gisa_dpi_retire(h, 0, 64, 0) == -1 && strstr(gisa_dpi_message(h), "mismatch") == gisa_dpi_message(h));
    gisa_sim_free(ref);
    gisa_dpi_free(h);
    gisa_isa_free(isa);
}

/* Each kind of RTL bug gives its report. */
static void mismatches(void)
{
    void *h = gisa_dpi_new("", "", 8, 1);
    const char *prog = write_file("m.s", "IADD R1, P2, R3, R4\n@P0 MOV R2, 0x5\nMOV R5, 0x7\nMOV R6, 0x8\nMOV R7, 0x9\n");
    CHECK(gisa_dpi_load_asm(h, prog) == 5);
    gisa_dpi_set(h, 0, GISA_RF_R, 3, -1, 0xffffffffu);
    gisa_dpi_set(h, 0, GISA_RF_R, 4, -1, 1);
    gisa_dpi_set(h, 0, GISA_RF_P, 0, 3, 1);
    /* pc 0: a wrong carry on lane 5, R1 right everywhere */
    CHECK(gisa_dpi_retire(h, 0, 0, 0xffffffffu) == 0);
    for (int l = 0; l < 32; l++) {
        gisa_dpi_write(h, GISA_RF_R, 1, l, 0);
        gisa_dpi_write(h, GISA_RF_P, 2, l, l != 5);
    }
    CHECK(gisa_dpi_check(h) == 1);
    CHECKF(!strcmp(gisa_dpi_message(h), "mismatch: warp 0 pc 0 (IADD R1, P2, R3, R4): P2 lane 5: expected 1, got 0"),
           "%s", gisa_dpi_message(h));
    /* the details: the word, the lanes, the sources the lane read */
    char want[512];
    snprintf(want, sizeof want, "  word 0x%08x%08x%08x%08x\n  1 mismatching lane: 5\n"
             "  lane 5 read: Ra R3 = 0xffffffff, SrcB R4 = 0x00000001\n", gisa_dpi_word(h, 0, 3),
             gisa_dpi_word(h, 0, 2), gisa_dpi_word(h, 0, 1), gisa_dpi_word(h, 0, 0));
    CHECKF(!strcmp(gisa_dpi_details(h), want), "%s", gisa_dpi_details(h));
    /* pc 1: the RTL executes every lane (the guard holds in lane 3 only) */
    CHECK(gisa_dpi_retire(h, 0, 1, 0xffffffffu) == 0);
    gisa_dpi_write(h, GISA_RF_R, 2, 3, 5);
    CHECKF(gisa_dpi_check(h) == 1 && strstr(gisa_dpi_message(h), "exec mask: expected 0x00000008, got 0xffffffff"), "%s",
           gisa_dpi_message(h));
    CHECKF(strstr(gisa_dpi_details(h), "  31 mismatching lanes: 0 1 2 4 5 ") != NULL, "%s", gisa_dpi_details(h));
    /* pc 2: a missing write and an extra one */
    CHECK(gisa_dpi_retire(h, 0, 2, 0xffffffffu) == 0);
    for (int l = 1; l < 32; l++)
        gisa_dpi_write(h, GISA_RF_R, 5, l, 7);
    gisa_dpi_write(h, GISA_RF_R, 4, 9, 1);
    CHECK(gisa_dpi_check(h) == 2);
    CHECKF(!strcmp(gisa_dpi_message(h), "mismatch: warp 0 pc 2 (MOV R5, 0x7): R5 lane 0: expected 0x00000007, got no write"),
           "%s", gisa_dpi_message(h));
    CHECKF(strstr(gisa_dpi_details(h), "  2 mismatching lanes: 0 9\n  lane 0 read: ") != NULL, "%s", gisa_dpi_details(h));
    /* pc 3 retired as pc 4 */
    CHECK(gisa_dpi_retire(h, 0, 4, 0xffffffffu) == 0);
    CHECKF(strstr(gisa_dpi_message(h), "the RTL retired pc 4, the model pc 3") != NULL, "%s", gisa_dpi_message(h));
    CHECK(gisa_dpi_check(h) >= 1);
    CHECK(gisa_dpi_errors(h) == 1 + 1 + 2 + 1 + 32);
    /* stepping without comparison, and the commit accessors */
    CHECK(gisa_dpi_step(h, 0) == 0);
    CHECK(gisa_dpi_commit_pc(h) == 4 && !strcmp(gisa_dpi_commit_text(h), "MOV R7, 0x9"));
    CHECK(gisa_dpi_effect_count(h) == 1 && gisa_dpi_effect_rf(h, 0) == GISA_RF_R && gisa_dpi_effect_index(h, 0) == 7);
    CHECK(gisa_dpi_effect_mask(h, 0) == 0xffffffffu && gisa_dpi_effect_value(h, 0, 31) == 9);
    CHECK(gisa_dpi_effect_rf(h, 1) == -1 && gisa_dpi_effect_value(h, 0, 32) == 0);
    CHECK(gisa_dpi_step(h, 0) == 1 && gisa_dpi_done(h, 0) && gisa_dpi_pc(h, 0) == 5);
    CHECK(gisa_dpi_get(h, 0, GISA_RF_R, 7, 0) == 9);
    gisa_dpi_free(h);
}

static void errors(void)
{
    CHECK(gisa_dpi_new("nosuch", "", 0, 1) == NULL && strstr(gisa_dpi_last_error(), "cannot load"));
    CHECK(gisa_dpi_new("", "", 100000, 1) == NULL && strstr(gisa_dpi_last_error(), "registers"));
    CHECK(gisa_dpi_new("", "", 0, -5) == NULL && strstr(gisa_dpi_last_error(), "warps must not be negative (-5"));
    CHECK(gisa_dpi_new("", "", -1, 1) == NULL && strstr(gisa_dpi_last_error(), "registers must not be negative (-1"));
    void *h = gisa_dpi_new("fermi", "", 0, 2);
    CHECK(h != NULL);
    CHECK(gisa_dpi_load_asm(h, "/nonexistent/p.s") == -1 && strstr(gisa_dpi_message(h), "cannot open"));
    /* a device is refused at once, not read without end */
    CHECKF(gisa_dpi_load_asm(h, "/dev/zero") == -1 && strstr(gisa_dpi_message(h), "not a regular file"), "%s",
           gisa_dpi_message(h));
    CHECK(gisa_dpi_load_state(h, "/dev/urandom") == -1 && strstr(gisa_dpi_message(h), "not a regular file"));
    CHECK(gisa_dpi_load_asm(h, write_file("bad.s", "FADD R0, R1\n")) == -1);
    CHECKF(strstr(gisa_dpi_message(h), "bad.s:1:") && strstr(gisa_dpi_message(h), "error"), "%s", gisa_dpi_message(h));
    CHECK(gisa_dpi_load_state(h, write_file("bad.json", "{\"R1\": []}")) == -1);
    CHECK(gisa_dpi_load_hex(h, write_file("w.hex", "0000000000000000\n")) == 1);
    CHECK(gisa_dpi_step(h, 5) == 1 && gisa_dpi_set(h, 9, 0, 0, 0, 0) == -1 && gisa_dpi_get(h, 0, 7, 0, 0) == 0);
    CHECK(gisa_dpi_write(h, 0, 0, 32, 0) == -1 && gisa_dpi_write(h, 4, 0, 0, 0) == -1);
    gisa_dpi_free(h);
    gisa_dpi_free(NULL);
    CHECK(gisa_dpi_errors(NULL) == 1);
}

/* A program's .include is read relative to its own file, as gisa as reads
 * it, and its errors are located in the included file. */
static void includes(void)
{
    void *h = gisa_dpi_new("", "", 8, 1);
    CHECK(h != NULL);
    write_file("lib.s", "MOV R2, 0x5\nMOV R3, 0x6\n");
    char prog[128];
    snprintf(prog, sizeof prog, "%s", write_file("inc.s", ".include \"lib.s\"\nMOV R1, 0x7\n"));
    CHECKF(gisa_dpi_load_asm(h, prog) == 3, "%s", gisa_dpi_message(h));
    for (int i = 0; i < 3; i++)
        CHECK(gisa_dpi_step(h, 0) == 0);
    CHECK(gisa_dpi_get(h, 0, GISA_RF_R, 3, 0) == 6 && gisa_dpi_get(h, 0, GISA_RF_R, 1, 0) == 7);
    write_file("lib.s", "MOV R2\n");
    CHECK(gisa_dpi_load_asm(h, prog) == -1);
    CHECKF(strstr(gisa_dpi_message(h), "lib.s:1:"), "%s", gisa_dpi_message(h));
    write_file("lib.s", ".include \"inc.s\"\n");
    CHECK(gisa_dpi_load_asm(h, prog) == -1 && strstr(gisa_dpi_message(h), "includes itself"));
    gisa_dpi_free(h);
}

/* An illegal word: the RTL's trap matches the model's fault there; a trap
 * of a valid word, and a retired illegal word, are mismatches. */
static void traps(void)
{
    const char *prog = write_file("t.s", "MOV R1, 0x1\n.inst 0x00000000000000000000000000000000\nMOV R2, 0x2\n");
    void *h = gisa_dpi_new("", "", 8, 1);
    CHECK(gisa_dpi_load_asm(h, prog) == 3);
    CHECK(gisa_dpi_trap(h, 0, 0) == -1);
    CHECKF(!strcmp(gisa_dpi_message(h), "mismatch: warp 0 pc 0 (MOV R1, 0x1): the RTL trapped (illegal instruction), "
                                        "the model executes it"),
           "%s", gisa_dpi_message(h));
    CHECK(gisa_dpi_trap(h, 0, 1) == 0 && gisa_dpi_done(h, 0));
    CHECKF(strstr(gisa_dpi_message(h), "trap: warp 0 pc 1 (") == gisa_dpi_message(h), "%s", gisa_dpi_message(h));
    CHECK(gisa_dpi_errors(h) == 1 && gisa_dpi_details(h)[0] == 0);
    CHECK(gisa_dpi_trap(h, 0, 2) == -1 && strstr(gisa_dpi_message(h), "the model's warp has ended"));
    gisa_dpi_free(h);
    h = gisa_dpi_new("", "", 8, 1);
    CHECK(gisa_dpi_load_asm(h, prog) == 3);
    CHECK(gisa_dpi_retire(h, 0, 0, 0xffffffffu) == 0);
    CHECK(gisa_dpi_retire(h, 0, 1, 0xffffffffu) == -1);
    CHECKF(strstr(gisa_dpi_message(h), "mismatch: warp 0 pc 1 (") && strstr(gisa_dpi_message(h), "the model faults"), "%s",
           gisa_dpi_message(h));
    CHECKF(!strcmp(gisa_dpi_details(h), "  word 0x00000000000000000000000000000000\n"), "%s", gisa_dpi_details(h));
    gisa_dpi_free(h);
}

/* The whole state of every warp against what the RTL reports. */
static void final_state(void)
{
    void *h = gisa_dpi_new("", "", 4, 2);
    CHECK(h != NULL);
    CHECK(gisa_dpi_compare_state(h) == 1 && strstr(gisa_dpi_message(h), "without gisa_dpi_rtl_state"));
    gisa_dpi_set(h, 1, GISA_RF_R, 2, 7, 0x1234);
    gisa_dpi_set(h, 0, GISA_RF_P, 6, 31, 1);
    gisa_dpi_set(h, 1, GISA_RF_UR, 5, 0, 99);
    /* a perfect RTL without uniform registers */
    for (int pass = 0; pass < 4; pass++) {
        for (int w = 0; w < 2; w++)
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4; i++) {
                    unsigned v = gisa_dpi_get(h, w, GISA_RF_R, i, l);
                    if (pass == 1 && w == 1 && i == 2 && (l == 7 || l == 9))
                        v ^= 0x100;
                    if (!(pass == 2 && w == 0 && i == 3 && l == 4))
                        CHECK(gisa_dpi_rtl_state(h, w, GISA_RF_R, i, l, v) == 0);
                }
                for (int i = 0; i < 7; i++)
                    gisa_dpi_rtl_state(h, w, GISA_RF_P, i, l, gisa_dpi_get(h, w, GISA_RF_P, i, l));
            }
        if (pass == 3)
            gisa_dpi_rtl_state(h, 1, GISA_RF_UR, 5, 0, 98);
        int diffs = gisa_dpi_compare_state(h);
        if (pass == 0)
            CHECKF(diffs == 0, "%s", gisa_dpi_message(h));
        if (pass == 1) {
            CHECKF(diffs == 2 && !strcmp(gisa_dpi_message(h), "mismatch: final state: warp 1 R2 lane 7: expected "
                                                              "0x00001234, got 0x00001334"),
                   "%d %s", diffs, gisa_dpi_message(h));
            CHECKF(!strcmp(gisa_dpi_details(h), "  2 differing register lanes in all\n  2 differing lanes: 7 9\n"), "%s",
                   gisa_dpi_details(h));
        }
        if (pass == 2)
            CHECKF(diffs == 1 && !strcmp(gisa_dpi_message(h), "mismatch: final state: warp 0 R3 lane 4: expected "
                                                              "0x00000000, not reported by the RTL"),
                   "%d %s", diffs, gisa_dpi_message(h));
        /* once one UR is reported, every one is compared */
        if (pass == 3)
            CHECKF(diffs == 2 * 63 && strstr(gisa_dpi_message(h), "warp 0 UR0: expected 0x00000000, not reported"),
                   "%d %s", diffs, gisa_dpi_message(h));
    }
    CHECK(gisa_dpi_rtl_state(h, 2, GISA_RF_R, 0, 0, 0) == -1 && gisa_dpi_rtl_state(h, 0, GISA_RF_R, 4, 0, 0) == -1);
    CHECK(gisa_dpi_rtl_state(h, 0, GISA_RF_P, 7, 0, 0) == -1 && gisa_dpi_rtl_state(h, 0, GISA_RF_UR, 63, 0, 0) == -1);
    gisa_dpi_free(h);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/gisa_dpi_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    lockstep_random();
    mismatches();
    errors();
    includes();
    traps();
    final_state();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
