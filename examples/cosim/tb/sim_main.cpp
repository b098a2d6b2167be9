// Clocks the Verilated testbench until it says done; the exit status is
// its verdict (0: every retired instruction matched the golden model, 1: a
// mismatch, 2: no verdict).
#include <memory>

#include "Vtb.h"
#include "verilated.h"

int main(int argc, char **argv)
{
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<Vtb>(ctx.get());
    const long max_cycles = 200000000;
    long cycle = 0;
    for (; !top->done && !ctx->gotFinish() && cycle < max_cycles; cycle++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->final();
    if (cycle == max_cycles || !top->done) /* out of time, or $finish (an error) */
        return 2;
    return top->failed ? 1 : 0;
}
