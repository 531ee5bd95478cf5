/* frontend/operands.h — which registers an instruction reads and writes,
 * from the operand roles of its opcode row (isa/opcodes.def).  The phase
 * pass, the spin analysis and the loader (which turns the registers into
 * slots for the timing model's scoreboard) all ask here, so the roles are
 * written down once. */
#ifndef PTXEMU_FRONTEND_OPERANDS_H
#define PTXEMU_FRONTEND_OPERANDS_H

#include "frontend/ir.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Is top-level operand i written by the instruction?  The row's role
 * letter decides; 'r' is written only with .red (bar.red d); long-tail
 * shapes ('*') write a leading register, vector or pair; call writes its
 * leading return list. */
bool ptx_instr_operand_is_def(const ptx_func *f, const ptx_instr *in, unsigned i);

/* Called once per register an instruction names: `reg` is the register id,
 * `comp` its .x/.y/.z/.w component (1..4) or 0 for the whole register. */
typedef void (*ptx_reg_visit)(void *user, int32_t reg, uint8_t comp, bool write);

/* Visits the guard predicate (read) and then every register of every
 * operand in operand order: address bases, vector and list elements and
 * both halves of a p|q pair included.  Duplicates are visited again. */
void ptx_instr_visit_regs(const ptx_func *f, const ptx_instr *in, ptx_reg_visit visit,
                          void *user);

/* Register ids written (defs) or read (uses, guard first), appended to `out`
 * as int32_t in operand order (duplicates possible). */
void ptx_instr_defs(const ptx_func *f, const ptx_instr *in, GArray *out);
void ptx_instr_uses(const ptx_func *f, const ptx_instr *in, GArray *out);

#endif
