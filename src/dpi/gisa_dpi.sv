// gisa's golden model for SystemVerilog testbenches: the DPI-C functions of
// include/gisa_dpi.h (compiled into libgisa). Link the testbench with
// libgisa (pkg-config --libs gisa) and import this package.
//
// Lockstep, per instruction the RTL retires:
//   void'(gisa_dpi_retire(h, warp, pc, exec_mask));
//   void'(gisa_dpi_write(h, GISA_RF_R, rd, lane, value));   // each lane written
//   if (gisa_dpi_check(h) != 0) $display("%s", gisa_dpi_message(h));
package gisa_dpi;
  localparam int GISA_RF_R = 0;   // per-lane general registers
  localparam int GISA_RF_P = 1;   // per-lane predicates (values 0/1)
  localparam int GISA_RF_UR = 2;  // uniform registers (lane 0)
  localparam int GISA_RF_UP = 3;  // uniform predicates (lane 0)

  // target "" = default, isa "" = the embedded descriptions, regs 0 = the most
  import "DPI-C" function chandle gisa_dpi_new(input string target, input string isa, input int regs,
                                               input int warps);
  import "DPI-C" function void gisa_dpi_free(input chandle h);
  import "DPI-C" function string gisa_dpi_last_error();

  import "DPI-C" function int gisa_dpi_load_asm(input chandle h, input string path);
  import "DPI-C" function int gisa_dpi_load_hex(input chandle h, input string path);
  import "DPI-C" function int gisa_dpi_program_length(input chandle h);
  // 32-bit part (0: bits 31..0 ... 3: bits 127..96) of word pc
  import "DPI-C" function int unsigned gisa_dpi_word(input chandle h, input int pc, input int part);

  import "DPI-C" function int gisa_dpi_load_state(input chandle h, input string path);
  import "DPI-C" function int gisa_dpi_set(input chandle h, input int warp, input int rf, input int index,
                                           input int lane, input int unsigned value);
  import "DPI-C" function int unsigned gisa_dpi_get(input chandle h, input int warp, input int rf,
                                                    input int index, input int lane);
  import "DPI-C" function int gisa_dpi_set_active(input chandle h, input int warp, input int unsigned mask);
  import "DPI-C" function int unsigned gisa_dpi_get_active(input chandle h, input int warp);

  // 0 stepped, 1 done, -1 fault
  import "DPI-C" function int gisa_dpi_step(input chandle h, input int warp);
  import "DPI-C" function int gisa_dpi_pc(input chandle h, input int warp);
  import "DPI-C" function int gisa_dpi_done(input chandle h, input int warp);

  import "DPI-C" function int gisa_dpi_commit_pc(input chandle h);
  import "DPI-C" function int unsigned gisa_dpi_commit_exec(input chandle h);
  import "DPI-C" function string gisa_dpi_commit_text(input chandle h);
  import "DPI-C" function int gisa_dpi_effect_count(input chandle h);
  import "DPI-C" function int gisa_dpi_effect_rf(input chandle h, input int i);
  import "DPI-C" function int gisa_dpi_effect_index(input chandle h, input int i);
  import "DPI-C" function int unsigned gisa_dpi_effect_mask(input chandle h, input int i);
  import "DPI-C" function int unsigned gisa_dpi_effect_value(input chandle h, input int i, input int lane);

  import "DPI-C" function int gisa_dpi_retire(input chandle h, input int warp, input int pc,
                                              input int unsigned exec_mask);
  import "DPI-C" function int gisa_dpi_write(input chandle h, input int rf, input int index, input int lane,
                                             input int unsigned value);
  import "DPI-C" function int gisa_dpi_check(input chandle h);
  // the RTL trapped at pc (illegal instruction): 0 when the model faults there too
  import "DPI-C" function int gisa_dpi_trap(input chandle h, input int warp, input int pc);
  // after a mismatch: the lines after gisa_dpi_message (word, lanes, sources), each ending in "\n"
  import "DPI-C" function string gisa_dpi_details(input chandle h);
  // the end of a run: every register the RTL has, then one comparison of the whole state
  import "DPI-C" function int gisa_dpi_rtl_state(input chandle h, input int warp, input int rf, input int index,
                                                 input int lane, input int unsigned value);
  import "DPI-C" function int gisa_dpi_compare_state(input chandle h);
  import "DPI-C" function int gisa_dpi_errors(input chandle h);
  import "DPI-C" function string gisa_dpi_message(input chandle h);
endpackage
