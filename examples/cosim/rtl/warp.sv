// A toy SIMT core of NWARPS 32-lane warps, the design under test of the
// lockstep example. It decodes real gisa128 words of five integer opcodes --
// IADD_RR (with carry-in .X, carry-out pu, negated or inverted operands),
// LOP3_RRR, SHF_RRR, ISETP_RR and SEL_RR -- with guard predicates, traps on
// every other word (as gisa's decoder refuses it: unknown opcode, a bit no
// field covers, a value without a name, a field the syntax cannot express),
// and executes one instruction per cycle, taking the warps in turn
// (round-robin among those that have not ended). Written by hand from the
// encodings `gisa doc IADD_RR` (etc.) prints, like any RTL: gisa generates
// nothing here.
//
// Mutations (the bugs the lockstep run must catch, each at the instruction
// it first changes), chosen at run time with +mutation=NAME (one Verilated
// model runs the correct logic, the default, and every mutation):
// ignore-mask: exec = guard (the active mask ignored); masked-write: an
// executing lane also writes Rd of the lane above it; drop-write: no Rd write
// when Rd is also Ra; wrong-carry: lane 5's IADD carry-out inverted;
// illegal: only the opcode is decoded (a word of a known opcode with a bit no
// field covers, $wsb, a value without a name or a field its syntax cannot
// write executes instead of trapping). The first instruction a mutation
// changes is written to stderr ("mutant NAME: first effect at warp W pc N"),
// for the test that checks the report names it. +define+INJECT_BUG is
// wrong-carry, always.
module warp #(
    parameter int NREGS  = 32,
    parameter int NWARPS = 4,     // warps it holds; `nwarps` of them run
    parameter int IMEM   = 8192   // instruction words
) (
    input  logic         clk,
    // loading: the testbench copies the model's initial state and the program
    input  logic         init_we,
    input  logic [  1:0] init_kind,  // 0: R[idx] lane, 1: P[idx] lane, 2: active mask, 3: word idx part lane
    input  logic [  7:0] init_warp,
    input  logic [ 15:0] init_idx,
    input  logic [  4:0] init_lane,
    input  logic [ 31:0] init_val,
    // running: start (one cycle) runs warps 0..nwarps-1 from pc 0 to plen
    input  logic         start,
    input  logic [  7:0] nwarps,
    input  logic [ 15:0] plen,
    output logic         busy,       // some warp has not ended
    // what it retired (or trapped on), the cycle after issue
    output logic         ret_valid,
    output logic [  7:0] ret_warp,
    output logic [ 31:0] ret_pc,
    output logic [ 31:0] ret_exec,
    output logic         ret_illegal,  // the word is no instruction: the warp trapped, nothing written
    output logic [ 31:0] ret_rd_we,    // lanes whose Rd it wrote
    output logic [  7:0] ret_rd,
    output logic [ 31:0] ret_rd_val[32],
    output logic [ 31:0] ret_pu_we,
    output logic [  2:0] ret_pu,
    output logic [ 31:0] ret_pu_val,   // lane bits
    output logic [ 31:0] ret_pv_we,
    output logic [  2:0] ret_pv,
    output logic [ 31:0] ret_pv_val
);
  localparam logic [7:0] RZ = 8'd255;
  localparam logic [2:0] PT = 3'd7;

  logic [ 31:0] R[NWARPS][NREGS][32];
  logic [ 31:0] P[NWARPS][7];  // lane masks; PT reads all ones
  logic [ 31:0] active[NWARPS];
  logic [127:0] imem[IMEM];
  logic [ 15:0] pc[NWARPS];
  logic         running[NWARPS];
  logic [  7:0] last;  // the warp issued last

  // mutations
  logic m_ignore_mask, m_masked_write, m_drop_write, m_wrong_carry, m_illegal, m_seen;
  string mutation;
  initial begin
    if (!$value$plusargs("mutation=%s", mutation)) mutation = "";
`ifdef INJECT_BUG
    mutation = "wrong-carry";
`endif
    m_ignore_mask = mutation == "ignore-mask";
    m_masked_write = mutation == "masked-write";
    m_drop_write = mutation == "drop-write";
    m_wrong_carry = mutation == "wrong-carry";
    m_illegal = mutation == "illegal";
    m_seen = 0;
    if (mutation != "" && !(m_ignore_mask || m_masked_write || m_drop_write || m_wrong_carry || m_illegal)) begin
      $display("error: unknown mutation '%s' (ignore-mask, masked-write, drop-write, wrong-carry, illegal)", mutation);
      $finish;
    end
  end

  // the scheduler: the next running warp after the last one issued
  logic [7:0] sel;
  logic sel_valid;
  always_comb begin
    sel = 8'd0;
    sel_valid = 1'b0;
    for (int k = 1; k <= NWARPS; k++) begin
      int w;
      w = (int'(last) + k) % NWARPS;
      if (!sel_valid && w < int'(nwarps) && running[w]) begin
        sel = 8'(w);
        sel_valid = 1'b1;
      end
    end
    busy = 1'b0;
    for (int w = 0; w < NWARPS; w++) busy |= running[w];
  end

  wire [127:0] word = imem[pc[sel]];

  function automatic logic [31:0] rd_reg(input logic [7:0] idx, input int lane);
    return idx == RZ || idx >= NREGS ? 32'h0 : R[sel][idx][lane];
  endfunction
  function automatic logic [31:0] rd_pred(input logic [2:0] idx);
    return idx == PT ? 32'hFFFF_FFFF : P[sel][idx];
  endfunction

  // fields common to the five opcodes
  wire [7:0] optype = word[7:0], rd = word[23:16], ra = word[31:24], rb = word[39:32], rc = word[71:64];
  wire [3:0] stype = word[11:8];
  wire [2:0] pg = word[14:12], pp_i = word[100:98], pu_i = word[108:106], pv_i = word[111:109];
  wire [2:0] pq_i = word[104:102];
  wire pg_not = word[15], pp_not = word[101], pq_not = word[105];
  wire op_iadd = optype == 8'd64 && stype == 4'd4, op_sel = optype == 8'd77 && stype == 4'd4;
  wire op_lop3 = optype == 8'd78 && stype == 4'd8, op_shf = optype == 8'd80 && stype == 4'd8;
  wire op_isetp = optype == 8'd75 && stype == 4'd4;

  // What the decoder refuses of these opcodes: bits no field covers ($wsb
  // too: the syntax cannot write it), values without a name, and in the
  // forms without .X the carry/compare predicate the syntax cannot write.
  wire reserved = word[127:123] != 0 || (op_iadd && (word[111:109] != 0 || word[105:102] != 0 || word[96:77] != 0
      || word[75:73] != 0 || word[71:40] != 0)) || (op_sel && (word[111:102] != 0 || word[97:40] != 0))
      || (op_lop3 && (word[111:109] != 0 || word[105:102] != 0 || word[97:90] != 0 || word[81] || word[78:72] != 0
      || word[63:40] != 0)) || (op_shf && (word[111:82] != 0 || word[79] || word[76] || word[74:72] != 0
      || word[63:40] != 0)) || (op_isetp && (word[97:84] != 0 || word[78] || word[75:40] != 0 || word[23:16] != 0));
  wire unnamed = (op_lop3 && word[80:79] > 2'd1) || (op_isetp && (word[81:79] > 3'd5 || word[83:82] == 2'd3));
  wire unwritable = (op_iadd && !word[76] && (pp_i != PT || !pp_not)) || (op_isetp && !word[76] && (pq_i != PT || pq_not));
  wire known = op_iadd || op_sel || op_lop3 || op_shf || op_isetp;
  wire illegal = !known || (!m_illegal && (reserved || unnamed || unwritable));
  wire is_iadd = op_iadd && !illegal, is_sel = op_sel && !illegal, is_lop3 = op_lop3 && !illegal;
  wire is_shf = op_shf && !illegal, is_isetp = op_isetp && !illegal;

  wire [31:0] guard = pg_not ? ~rd_pred(pg) : rd_pred(pg);
  wire [31:0] exec_mask = illegal ? 32'h0 : m_ignore_mask ? guard : active[sel] & guard;
  wire [31:0] pp = pp_not ? ~rd_pred(pp_i) : rd_pred(pp_i);
  wire [31:0] pq = pq_not ? ~rd_pred(pq_i) : rd_pred(pq_i);

  logic [31:0] d[32];
  logic [31:0] pu_v, pv_v, rd_we, pu_we, pv_we;
  logic writes_rd, writes_pu, writes_pv;

  always_comb begin
    writes_rd = (is_iadd || is_sel || is_lop3 || is_shf) && rd != RZ && rd < NREGS;
    writes_pu = (is_iadd || is_lop3 || is_isetp) && pu_i != PT;
    writes_pv = is_isetp && pv_i != PT;
    rd_we = writes_rd ? exec_mask : 32'h0;
    if (m_masked_write && writes_rd) rd_we |= exec_mask << 1;
    if (m_drop_write && rd == ra) rd_we = 32'h0;
    pu_we = writes_pu ? exec_mask : 32'h0;
    pv_we = writes_pv ? exec_mask : 32'h0;
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
        if (m_wrong_carry && l == 5) pu_v[l] = ~pu_v[l];
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

  // Whether the chosen mutation changes what this instruction does (what
  // the correct logic would do is at hand: the mutations are small).
  wire [31:0] ok_exec = illegal ? 32'h0 : active[sel] & guard;
  wire m_effect = (m_ignore_mask && exec_mask != ok_exec)
      || (m_masked_write && writes_rd && (rd_we & ~exec_mask) != 0)
      || (m_drop_write && writes_rd && rd == ra && exec_mask != 0)
      || (m_wrong_carry && is_iadd && pu_i != PT && exec_mask[5])
      || (m_illegal && known && (reserved || unnamed || unwritable));

  wire [15:0] sel_pc = pc[sel];

  always_ff @(posedge clk) begin
    ret_valid <= 1'b0;
    if (init_we) begin
      case (init_kind)
        2'd0: if (int'(init_idx) < NREGS) R[init_warp][init_idx][init_lane] <= init_val;
        2'd1: if (init_idx < 7) P[init_warp][init_idx][init_lane] <= init_val[0];
        2'd2: active[init_warp] <= init_val;
        default: if (int'(init_idx) < IMEM) imem[init_idx][init_lane[1:0]*32+:32] <= init_val;
      endcase
    end else if (start) begin
      last <= 8'(NWARPS - 1);
      for (int w = 0; w < NWARPS; w++) begin
        pc[w] <= 16'd0;
        running[w] <= w < int'(nwarps) && plen != 0;
      end
    end else if (sel_valid) begin
      last <= sel;
      ret_valid <= 1'b1;
      ret_warp <= sel;
      ret_pc <= 32'(sel_pc);
      ret_exec <= exec_mask;
      ret_illegal <= illegal;
      ret_rd_we <= rd_we;
      ret_rd <= rd;
      ret_rd_val <= d;
      ret_pu_we <= pu_we;
      ret_pu <= pu_i;
      ret_pu_val <= pu_v;
      ret_pv_we <= pv_we;
      ret_pv <= pv_i;
      ret_pv_val <= pv_v;
      for (int l = 0; l < 32; l++) begin
        if (rd_we[l]) R[sel][rd][l] <= d[l];
        if (pu_we[l]) P[sel][pu_i][l] <= pu_v[l];
        if (pv_we[l]) P[sel][pv_i][l] <= pv_v[l];  // pv after pu: it wins when both name one
      end
      // a trap ends the warp where it is
      pc[sel] <= illegal ? sel_pc : sel_pc + 16'd1;
      running[sel] <= !illegal && sel_pc + 16'd1 < plen;
      if (m_effect && !m_seen) begin
        m_seen <= 1'b1;
        $fdisplay(32'h8000_0002, "mutant %s: first effect at warp %0d pc %0d", mutation, sel, sel_pc);
      end
    end
  end
endmodule
