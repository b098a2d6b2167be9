// A toy 32-lane warp, the design under test of the lockstep example. It
// decodes real gisa128 words of five integer opcodes -- IADD_RR (with
// carry-in .X, carry-out pu, negated or inverted operands), LOP3_RRR,
// SHF_RRR, ISETP_RR and SEL_RR -- with guard predicates, and executes one
// per cycle. Written by hand from the encodings `gisa doc IADD_RR` (etc.)
// prints, like any RTL: gisa generates nothing here.
//
// `define INJECT_BUG makes lane 5's carry-out of IADD wrong: the bug the
// lockstep run must catch.
module warp #(
    parameter int NREGS = 32
) (
    input  logic        clk,
    // loading the initial state (the testbench copies it from the model)
    input  logic        init_we,
    input  logic        init_pred,  // 0: R[init_idx], 1: P[init_idx]
    input  logic [ 7:0] init_idx,
    input  logic [ 4:0] init_lane,
    input  logic [31:0] init_val,
    input  logic [31:0] active,
    // one instruction
    input  logic        issue,
    input  logic [127:0] word,
    input  logic [31:0] pc,
    // what it retired, the cycle after issue
    output logic        ret_valid,
    output logic [31:0] ret_pc,
    output logic [31:0] ret_exec,
    output logic        ret_illegal,
    output logic        ret_rd_we,
    output logic [ 7:0] ret_rd,
    output logic [31:0] ret_rd_val[32],
    output logic        ret_pu_we,
    output logic [ 2:0] ret_pu,
    output logic [31:0] ret_pu_val,  // lane bits
    output logic        ret_pv_we,
    output logic [ 2:0] ret_pv,
    output logic [31:0] ret_pv_val
);
  localparam logic [7:0] RZ = 8'd255;
  localparam logic [2:0] PT = 3'd7;

  logic [31:0] R[NREGS][32];
  logic [31:0] P[7];  // lane masks; PT reads all ones

  function automatic logic [31:0] rd_reg(input logic [7:0] idx, input int lane);
    return idx == RZ || idx >= NREGS ? 32'h0 : R[idx][lane];
  endfunction
  function automatic logic [31:0] rd_pred(input logic [2:0] idx);
    return idx == PT ? 32'hFFFF_FFFF : P[idx];
  endfunction

  // fields common to the five opcodes
  wire [7:0] optype = word[7:0], rd = word[23:16], ra = word[31:24], rb = word[39:32], rc = word[71:64];
  wire [3:0] stype = word[11:8];
  wire [2:0] pg = word[14:12], pp_i = word[100:98], pu_i = word[108:106], pv_i = word[111:109];
  wire [2:0] pq_i = word[104:102];
  wire pg_not = word[15], pp_not = word[101], pq_not = word[105];
  wire is_iadd = optype == 8'd64 && stype == 4'd4, is_sel = optype == 8'd77 && stype == 4'd4;
  wire is_lop3 = optype == 8'd78 && stype == 4'd8, is_shf = optype == 8'd80 && stype == 4'd8;
  wire is_isetp = optype == 8'd75 && stype == 4'd4;
  wire [31:0] guard = pg_not ? ~rd_pred(pg) : rd_pred(pg);
  wire [31:0] exec_mask = active & guard;
  wire [31:0] pp = pp_not ? ~rd_pred(pp_i) : rd_pred(pp_i);
  wire [31:0] pq = pq_not ? ~rd_pred(pq_i) : rd_pred(pq_i);

  logic [31:0] d[32];
  logic [31:0] pu_v, pv_v;
  logic writes_rd, writes_pu, writes_pv;

  always_comb begin
    writes_rd = is_iadd || is_sel || is_lop3 || is_shf;
    writes_pu = is_iadd || is_lop3 || is_isetp;
    writes_pv = is_isetp;
    pu_v = 32'h0;
    pv_v = 32'h0;
    for (int l = 0; l < 32; l++) begin
      logic [31:0] a, b, c, lut_bits;
      logic [33:0] t;
      logic [63:0] f;
      logic [6:0] n;
      logic eq, lt, gt, tst;
      a = rd_reg(ra, l);
      b = rd_reg(rb, l);
      c = rd_reg(rc, l);
      d[l] = 32'h0;
      if (is_iadd) begin
        // without .X a set neg bit is -x (adds 2^32 - x = ~x + 1); with .X it
        // is ~x and pp is the carry in
        t = {2'b0, word[72] ? ~a : a} + {2'b0, word[97] ? ~b : b}
            + (word[76] ? 34'(pp[l]) : 34'(word[72]) + 34'(word[97]));
        d[l] = t[31:0];
        pu_v[l] = t[33:32] != 2'b0;
`ifdef INJECT_BUG
        if (l == 5) pu_v[l] = ~pu_v[l];
`endif
      end else if (is_sel) begin
        d[l] = pp[l] ? a : b;
      end else if (is_lop3) begin
        lut_bits = 32'(word[89:82]);
        for (int i = 0; i < 32; i++) d[l][i] = lut_bits[{a[i], b[i], c[i]}];
        // .PAND (0): (Rd != 0) & pp, .POR (1): (Rd != 0) | pp
        pu_v[l] = word[80:79] == 2'd0 ? (d[l] != 0) & pp[l] : (d[l] != 0) | pp[l];
      end else if (is_shf) begin
        // {SrcC, Ra} shifted by n: .CLAMP min(SrcB, 32 or 64), .WRAP SrcB mod it
        f = {c, a};
        if (word[80]) n = word[78] ? 7'(b[4:0]) : 7'(b[5:0]);  // .WRAP
        else if (word[78]) n = b > 32 ? 7'd32 : 7'(b);  // 32-bit types: S32 U32
        else n = b > 64 ? 7'd64 : 7'(b);
        if (!word[81]) f = n >= 64 ? 64'h0 : f << n;  // .L
        else if (!word[77]) f = 64'($signed(f) >>> (n >= 64 ? 7'd63 : n));  // .S64 .S32
        else f = n >= 64 ? 64'h0 : f >> n;
        d[l] = word[75] ? f[63:32] : f[31:0];
      end else if (is_isetp) begin
        // signed order is unsigned order with the sign bits flipped
        a = a ^ (word[77] ? 32'h0 : 32'h8000_0000);
        b = b ^ (word[77] ? 32'h0 : 32'h8000_0000);
        eq = a == b;
        lt = a < b;
        gt = a > b;
        case (word[81:79])
          3'd0: tst = eq;
          3'd1: tst = !eq;
          3'd2: tst = lt;
          3'd3: tst = lt || eq;
          3'd4: tst = gt;
          default: tst = gt || eq;
        endcase
        if (word[76] && eq) tst = pq[l];  // .X: equal words defer to the lower words
        case (word[83:82])
          2'd0: begin pu_v[l] = tst & pp[l]; pv_v[l] = !tst & pp[l]; end
          2'd1: begin pu_v[l] = tst | pp[l]; pv_v[l] = !tst | pp[l]; end
          default: begin pu_v[l] = tst ^ pp[l]; pv_v[l] = !tst ^ pp[l]; end
        endcase
      end
    end
  end

  always_ff @(posedge clk) begin
    ret_valid <= 1'b0;
    if (init_we) begin
      if (!init_pred && init_idx < NREGS) R[init_idx][init_lane] <= init_val;
      if (init_pred && init_idx < 7) P[init_idx][init_lane] <= init_val[0];
    end else if (issue) begin
      ret_valid <= 1'b1;
      ret_pc <= pc;
      ret_exec <= exec_mask;
      ret_illegal <= !(writes_rd || writes_pu);
      ret_rd_we <= writes_rd && rd != RZ && exec_mask != 0;
      ret_rd <= rd;
      ret_rd_val <= d;
      ret_pu_we <= writes_pu && pu_i != PT && exec_mask != 0;
      ret_pu <= pu_i;
      ret_pu_val <= pu_v;
      ret_pv_we <= writes_pv && pv_i != PT && exec_mask != 0;
      ret_pv <= pv_i;
      ret_pv_val <= pv_v;
      for (int l = 0; l < 32; l++)
        if (exec_mask[l]) begin
          if (writes_rd && rd != RZ && rd < NREGS) R[rd][l] <= d[l];
          if (writes_pu && pu_i != PT) P[pu_i][l] <= pu_v[l];
          if (writes_pv && pv_i != PT) P[pv_i][l] <= pv_v[l];  // pv after pu: it wins when both name one
        end
    end
  end
endmodule
