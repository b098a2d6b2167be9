// Lockstep testbench: the warp RTL and gisa's golden model (through the DPI-C
// wrapper) run the same program from the same state; after every retired
// instruction the writes the RTL reports are compared with the model's
// commit record. The first mismatch stops the run with a report whose first
// line starts with "mismatch".
//   +prog=FILE (assembly) +state=FILE (JSON state) +regs=N (default 32)
module tb (
    input  logic clk,
    output logic done,
    output logic failed
);
  import gisa_dpi::*;

  localparam int NREGS = 32;
  chandle h;
  int n;          // program length
  int pc;
  int init_k;     // next register lane to copy into the RTL
  int retired;
  typedef enum logic [1:0] {INIT, ISSUE, WAIT} phase_t;
  phase_t phase;

  logic init_we, init_pred, issue;
  logic [7:0] init_idx;
  logic [4:0] init_lane;
  logic [31:0] init_val, active;
  logic [127:0] word;
  logic ret_valid, ret_illegal, ret_rd_we, ret_pu_we, ret_pv_we;
  logic [31:0] ret_pc, ret_exec, ret_pu_val, ret_pv_val;
  logic [31:0] ret_rd_val[32];
  logic [7:0] ret_rd;
  logic [2:0] ret_pu, ret_pv;

  warp #(.NREGS(NREGS)) dut (.*);

  string prog, state;
  initial begin
    done = 0;
    failed = 0;
    phase = INIT;
    init_k = 0;
    pc = 0;
    retired = 0;
    if (!$value$plusargs("prog=%s", prog)) prog = "prog.s";
    if (!$value$plusargs("state=%s", state)) state = "";
    h = gisa_dpi_new("", "", NREGS, 1);
    if (h == null) begin
      $display("error: %s", gisa_dpi_last_error());
      failed = 1;
      done = 1;
    end else begin
      n = gisa_dpi_load_asm(h, prog);
      if (n >= 0 && state != "" && gisa_dpi_load_state(h, state) != 0) n = -1;
      if (n < 0) begin
        $display("%s", gisa_dpi_message(h));
        failed = 1;
        done = 1;
      end
      active = gisa_dpi_get_active(h, 0);
    end
  end

  // Copies the model's initial registers and predicates into the RTL, one
  // lane per cycle, then issues one instruction at a time.
  always_ff @(posedge clk) begin
    init_we <= 1'b0;
    issue <= 1'b0;
    if (!done) begin
      case (phase)
        INIT: begin
          if (init_k < (NREGS + 7) * 32) begin
            init_we <= 1'b1;
            init_pred <= init_k >= NREGS * 32;
            init_idx <= 8'(init_k >= NREGS * 32 ? init_k / 32 - NREGS : init_k / 32);
            init_lane <= 5'(init_k % 32);
            init_val <= gisa_dpi_get(h, 0, init_k >= NREGS * 32 ? GISA_RF_P : GISA_RF_R,
                                     init_k >= NREGS * 32 ? init_k / 32 - NREGS : init_k / 32, init_k % 32);
            init_k <= init_k + 1;
          end else begin
            phase <= ISSUE;
          end
        end
        ISSUE: begin
          if (pc == n) begin
            $display("lockstep: %0d instructions retired, 0 mismatches", retired);
            done <= 1'b1;
          end else begin
            word <= {gisa_dpi_word(h, pc, 3), gisa_dpi_word(h, pc, 2), gisa_dpi_word(h, pc, 1), gisa_dpi_word(h, pc, 0)};
            issue <= 1'b1;
            phase <= WAIT;
          end
        end
        WAIT: begin
          if (ret_valid) begin
            compare();
            pc <= pc + 1;
            retired <= retired + 1;
            phase <= ISSUE;
          end
        end
        default: phase <= INIT;
      endcase
    end
  end

  // What the RTL retired, against the model's step of the same instruction.
  function automatic void compare();
    int bad;
    void'(gisa_dpi_retire(h, 0, int'(ret_pc), ret_exec));
    if (ret_illegal) begin
      $display("mismatch: pc %0d (%s): the RTL does not implement this instruction", ret_pc,
               gisa_dpi_commit_text(h));
      failed <= 1'b1;
      done <= 1'b1;
      return;
    end
    for (int l = 0; l < 32; l++) begin
      if (!ret_exec[l]) continue;
      if (ret_rd_we) void'(gisa_dpi_write(h, GISA_RF_R, int'(ret_rd), l, ret_rd_val[l]));
      if (ret_pu_we) void'(gisa_dpi_write(h, GISA_RF_P, int'(ret_pu), l, 32'(ret_pu_val[l])));
      if (ret_pv_we) void'(gisa_dpi_write(h, GISA_RF_P, int'(ret_pv), l, 32'(ret_pv_val[l])));
    end
    bad = gisa_dpi_check(h);
    if (bad != 0) begin
      $display("%s", gisa_dpi_message(h));
      $display("  (%0d mismatching lanes in this instruction; %0d instructions retired before it)", bad, retired);
      failed <= 1'b1;
      done <= 1'b1;
    end
  endfunction

  final if (h != null) gisa_dpi_free(h);
endmodule
