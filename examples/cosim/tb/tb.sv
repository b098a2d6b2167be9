// Lockstep testbench: the core RTL and gisa's golden model (through the
// DPI-C wrapper) run the same program from the same state. For every
// instruction the RTL retires (in the order its scheduler issues them) the
// model steps the same warp and compares the pc, the exec mask the RTL
// used, and every register lane the RTL wrote (its write enables, not the
// exec mask: a write in a lane the mask disabled is caught where it
// happens); a trap (illegal instruction) must be a fault of the model at
// the same pc. At the end every warp must have ended in both, and the whole
// state (every register and predicate lane of every warp, read from the RTL
// by a backdoor) is compared once more. The first mismatch stops the run
// with a report whose first line starts with "mismatch", then the word,
// the lanes that differ and the sources the first of them read.
//   +prog=FILE (assembly) +state=FILE (JSON state) +warps=N (default 1, at most 4)
module tb (
    input  logic clk,
    output logic done,
    output logic failed
);
  import gisa_dpi::*;

  localparam int NREGS = 32, NWARPS = 4, IMEM = 8192;
  localparam int NINIT_WARP = (NREGS + 7) * 32 + 1;  // register lanes, predicate lanes, the active mask
  chandle h;
  int n;          // program length
  int nw;         // warps
  int init_k;     // next item to copy into the RTL
  int retired, traps;
  typedef enum logic [2:0] {INIT, START, RUN, FINAL} phase_t;
  phase_t phase;

  logic init_we, start, busy;
  logic [1:0] init_kind;
  logic [7:0] init_warp, nwarps;
  logic [15:0] init_idx, plen;
  logic [4:0] init_lane;
  logic [31:0] init_val;
  logic ret_valid, ret_illegal;
  logic [7:0] ret_warp, ret_rd;
  logic [31:0] ret_pc, ret_exec, ret_rd_we, ret_pu_we, ret_pv_we, ret_pu_val, ret_pv_val;
  logic [31:0] ret_rd_val[32];
  logic [2:0] ret_pu, ret_pv;

  warp #(.NREGS(NREGS), .NWARPS(NWARPS), .IMEM(IMEM)) dut (.*);

  function automatic void fail_with_report();
    $display("%s", gisa_dpi_message(h));
    $write("%s", gisa_dpi_details(h));
    $display("  (%0d instructions retired before it)", retired);
    failed <= 1'b1;
    done <= 1'b1;
  endfunction

  string prog, state;
  initial begin
    done = 0;
    failed = 0;
    phase = INIT;
    init_k = 0;
    retired = 0;
    traps = 0;
    if (!$value$plusargs("prog=%s", prog)) prog = "prog.s";
    if (!$value$plusargs("state=%s", state)) state = "";
    if (!$value$plusargs("warps=%d", nw)) nw = 1;
    h = nw >= 1 && nw <= NWARPS ? gisa_dpi_new("", "", NREGS, nw) : null;
    if (h == null) begin
      $display("error: %s", nw >= 1 && nw <= NWARPS ? gisa_dpi_last_error() : "+warps must be 1..4");
      failed = 1;
      done = 1;
    end else begin
      n = gisa_dpi_load_asm(h, prog);
      if (n >= 0 && state != "" && gisa_dpi_load_state(h, state) != 0) n = -1;
      if (n < 0 || n > IMEM) begin
        $display("%s", n < 0 ? gisa_dpi_message(h) : "error: the program is longer than the RTL's memory");
        failed = 1;
        done = 1;
      end
      nwarps = 8'(nw);
      plen = 16'(n);
    end
  end

  // Copies the program and each warp's initial state into the RTL, one
  // 32-bit value per cycle, then starts it and compares what it retires.
  always_ff @(posedge clk) begin
    init_we <= 1'b0;
    start <= 1'b0;
    if (!done) begin
      case (phase)
        INIT: begin
          if (init_k < n * 4) begin
            init_we <= 1'b1;
            init_kind <= 2'd3;
            init_idx <= 16'(init_k / 4);
            init_lane <= 5'(init_k % 4);
            init_val <= gisa_dpi_word(h, init_k / 4, init_k % 4);
            init_k <= init_k + 1;
          end else if (init_k < n * 4 + nw * NINIT_WARP) begin
            int k, w;
            k = (init_k - n * 4) % NINIT_WARP;
            w = (init_k - n * 4) / NINIT_WARP;
            init_we <= 1'b1;
            init_warp <= 8'(w);
            init_lane <= 5'(k % 32);
            if (k == NINIT_WARP - 1) begin
              init_kind <= 2'd2;
              init_val <= gisa_dpi_get_active(h, w);
            end else begin
              init_kind <= k >= NREGS * 32 ? 2'd1 : 2'd0;
              init_idx <= 16'(k >= NREGS * 32 ? k / 32 - NREGS : k / 32);
              init_val <= gisa_dpi_get(h, w, k >= NREGS * 32 ? GISA_RF_P : GISA_RF_R,
                                       k >= NREGS * 32 ? k / 32 - NREGS : k / 32, k % 32);
            end
            init_k <= init_k + 1;
          end else begin
            start <= 1'b1;
            phase <= START;
          end
        end
        START: phase <= RUN;  // the RTL sees start now: busy from the next cycle
        RUN: begin
          if (ret_valid) compare();
          else if (!busy) phase <= FINAL;
        end
        FINAL: final_check();
        default: phase <= INIT;
      endcase
    end
  end

  // What the RTL retired, against the model's step of the same instruction.
  function automatic void compare();
    if (ret_illegal) begin
      if (gisa_dpi_trap(h, int'(ret_warp), int'(ret_pc)) != 0) fail_with_report();
      else traps <= traps + 1;
      return;
    end
    if (gisa_dpi_retire(h, int'(ret_warp), int'(ret_pc), ret_exec) != 0) begin
      fail_with_report();
      return;
    end
    for (int l = 0; l < 32; l++) begin
      if (ret_rd_we[l]) void'(gisa_dpi_write(h, GISA_RF_R, int'(ret_rd), l, ret_rd_val[l]));
      if (ret_pu_we[l]) void'(gisa_dpi_write(h, GISA_RF_P, int'(ret_pu), l, 32'(ret_pu_val[l])));
      if (ret_pv_we[l]) void'(gisa_dpi_write(h, GISA_RF_P, int'(ret_pv), l, 32'(ret_pv_val[l])));
    end
    if (gisa_dpi_check(h) != 0) fail_with_report();
    else retired <= retired + 1;
  endfunction

  // Every warp ended in the model too, and the whole state agrees (the
  // RTL's registers read by a backdoor: the RTL has no uniform registers,
  // so those are not reported and not compared).
  function automatic void final_check();
    for (int w = 0; w < nw; w++)
      if (!gisa_dpi_done(h, w)) begin
        $display("mismatch: warp %0d: the RTL ended it, the model's is at pc %0d", w, gisa_dpi_pc(h, w));
        failed <= 1'b1;
        done <= 1'b1;
        return;
      end
    for (int w = 0; w < nw; w++)
      for (int l = 0; l < 32; l++) begin
        for (int i = 0; i < NREGS; i++) void'(gisa_dpi_rtl_state(h, w, GISA_RF_R, i, l, dut.R[w][i][l]));
        for (int i = 0; i < 7; i++) void'(gisa_dpi_rtl_state(h, w, GISA_RF_P, i, l, 32'(dut.P[w][i][l])));
      end
    if (gisa_dpi_compare_state(h) != 0) begin
      fail_with_report();
      return;
    end
    $display("lockstep: %0d instructions retired, 0 mismatches", retired);
    $display("final state: every register and predicate lane of %0d warps matches; %0d traps where the model faults",
             nw, traps);
    done <= 1'b1;
  endfunction

  final if (h != null) gisa_dpi_free(h);
endmodule
