/* libFuzzer harness: arbitrary bytes as instruction words executed on a
 * state seeded from the input. Byte 0 picks the register count, byte 1 the
 * warps (low 2 bits) and the target (the rest, see fuzz_target.h), bytes 2-3
 * the seed; then words of the target's width. Properties: the run either
 * completes or reports a fault with a reason and an instruction text; the
 * state stays readable. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"
#include "gisa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    const gisa_isa *isa = fuzz_target_isa(data[1] >> 2);
    size_t bytes = gisa_isa_word_bits(isa) / 8;
    unsigned regs = 1 + data[0] % gisa_sim_max_regs(isa), warps = 1 + (data[1] & 3) % 3;
    uint32_t seed = (uint32_t)data[2] << 8 | data[3];
    data += 4;
    size -= 4;
    size_t n = size / bytes;
    if (n > 64)
        n = 64;
    gisa_word *w = calloc(n ? n : 1, sizeof *w);
    for (size_t i = 0; i < n; i++)
        memcpy(w[i].w, data + bytes * i, bytes);
    gisa_sim *sim;
    if (gisa_sim_new(isa, regs, warps, &sim) != GISA_OK)
        abort();
    gisa_sim_set_threads(sim, 1);
    for (unsigned wp = 0; wp < warps; wp++) {
        for (unsigned r = 0; r < regs; r++)
            gisa_sim_set(sim, wp, GISA_RF_R, r, -1, seed * 2654435761u + r);
        for (unsigned r = 0; r < 63; r++)
            gisa_sim_set(sim, wp, GISA_RF_UR, r, -1, (seed >> (r % 16)) + r);
        for (unsigned p = 0; p < 7; p++)
            gisa_sim_set(sim, wp, GISA_RF_P, p, -1, seed >> p & 1);
        gisa_sim_set_active(sim, wp, seed * 40503u | 1);
    }
    gisa_sim_set_const(sim, 0, 0x100, seed);
    gisa_sim_load(sim, w, n);
    gisa_sim_fault f;
    gisa_status st = gisa_sim_run(sim, &f);
    if (st != GISA_OK && (st != GISA_ERR_SIM || !f.message[0] || !f.insn[0] || f.pc >= n || f.warp >= warps))
        abort();
    char *json = api_state_json(sim);
    if (!json)
        abort();
    free(json);
    gisa_sim_free(sim);
    free(w);
    return 0;
}
