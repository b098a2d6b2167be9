/* Binding instructions to the engines: operands to roles by what the model
 * says they are (never by their names), and for the C semantic tables
 * (ops_*.c) modifier fields and their value names to the indices the
 * functions compare with, operand suffix names to sim_opnd.sel.
 *
 * The pre-decoder resolves everything once per program word
 * (sim_bind_roles, sim_read_mods, sim_read_sel), so the run loop reads
 * only numbers. sim_check_semantics (and sim_check_model for one model)
 * checks every name of the tables against the models up front, so that a
 * misspelt name is an error that names it instead of a silent 0 or a fault
 * at run time. */
#ifndef GISA_SIM_BIND_H
#define GISA_SIM_BIND_H
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

/* The semantic tables the simulator uses (optable.c), each ended by an
 * entry whose optype is NULL. */
extern const sim_opdef *const sim_families[];
extern const size_t sim_nfamilies;

/* The role of each operand slot of form F of op (roles[k] for F->ops[k],
 * -1 for PR; F has at most SIM_MAX_SLOTS operands), from the model: the
 * written operands (OutList) are the register result RO_D and the predicate
 * results RO_PU, RO_PV; sources are value sources, constants of the optype
 * (RO_IMM), predicate sources and R[URb+SImm9] (RO_IDX), each class in
 * syntax order, taking def's declared source roles (sim_opdef.sources,
 * pred_sources, constants) or the defaults. An opcode without an OutList
 * writes the operands its pseudo-code assigns. Without def (the doc engine) a constant
 * or predicate source with no room goes to a free role of its kind. NULL,
 * or why the form cannot be bound (written to why[cap]). Names play no
 * part: an author may call operands anything. */
const char *sim_bind_roles(const gisa_isa *isa, const isa_opcode *op, const syntax_form *F, const sim_opdef *def,
                           signed char *roles, char *why, size_t cap);

/* Fills m[0 .. def->nmods - 1] for one word: each modifier's index of the
 * name of its field's value in vals (indexed by the opcode's field index);
 * 0 when the opcode has no such field. Returns NULL, or why (written there,
 * at most cap bytes) when a value has no index: the word then faults. */
const char *sim_read_mods(const isa_opcode *op, const sim_opdef *def, const uint64_t *vals, uint32_t *m, char *why,
                          size_t cap);

/* The index of a suffix value name in def's suffix names, or -1. */
int sim_sel_index(const sim_opdef *def, const char *value_name);

/* Sets *sel for the operand sl of form F (sl->sfx_slot >= 0) from the
 * suffix's field in vals, or the suffix's default when no field encodes it.
 * Returns NULL, or why when the value has no index in def's suffix names. */
const char *sim_read_sel(const isa_opcode *op, const syntax_form *F, const opnd_slot *sl, const uint64_t *vals,
                         const sim_opdef *def, uint8_t *sel, char *why, size_t cap);

/* The load-time check of the tables against the models of every target
 * they serve (isas[0 .. nisas-1]; pass both shipped targets to check the
 * shipped tables). An error, naming the offending name, for:
 *  - an optype of a model with no table entry (unless bind.c lists it as
 *    not simulated), and two entries for one name;
 *  - an entry whose optype no model has;
 *  - a modifier field that no opcode of the entry's optypes has, in any
 *    model, and a value name that is not a value of the field's type in an
 *    opcode that has the field;
 *  - a suffix name that is not a value of the suffix of an operand of the
 *    entry's optypes, suffix names where no operand has a suffix, and an
 *    operand with a suffix where the entry names none;
 *  - a syntax line of a simulated optype whose operands do not bind to
 *    the roles its C function reads (sim_bind_roles).
 * The entry's optype is matched against each optype's `__Simulation
 * semantics` name (isa_optype.semantics), as the pre-decoder does. Returns
 * the number of errors added to diags. */
int sim_check_semantics(const gisa_isa *const *isas, size_t nisas, const sim_opdef *const *families,
                        size_t nfamilies, gisa_diags *diags);

/* The part of that check one model can answer alone, for a model loaded on
 * its own (a description of the user's): everything the model uses is
 * bound (its optypes, the value and suffix names of the fields it has, its
 * operands). What the tables name but no model uses (another target's
 * optypes, fields and operand names) is not looked at. Returns the number
 * of errors added to diags. */
int sim_check_model(const gisa_isa *isa, const sim_opdef *const *families, size_t nfamilies, gisa_diags *diags);
#endif
