/* runtime/decode.h — the decoder API: turning one parsed instruction
 * (frontend/ir.h) into an ex_instr at module load.
 *
 * Decoding runs one way: the loader (runtime/loader.c) opens a decoder per
 * function and hands each instruction to the family dispatch
 * (runtime/family_dispatch.c), which calls the decoder of the opcode row's
 * family (runtime/exec_<family>.c); those use the operand helpers here
 * (runtime/decode.c) and never call back into the loader. */
#ifndef PTXEMU_RUNTIME_DECODE_H
#define PTXEMU_RUNTIME_DECODE_H

#include "runtime/exec.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* What a family decoder sees of one instruction, and the function's slot
 * layout it decodes into. */
typedef struct ex_decoder {
    ex_module *mod;
    ex_func *fn;
    const ptx_module *ir;
    const ptx_func *irf;
    const ptx_instr *pi;        /* the instruction being decoded */
    GString *why;               /* set when it has no semantics yet */
    /* slot layout, owned by runtime/decode.c */
    uint32_t *reg_slot;         /* ptx reg id -> first slot */
    uint32_t nregs;             /* register slots; constant slots follow */
    GArray *consts;             /* uint64_t value of each constant slot */
    GHashTable *const_index;    /* value -> constant slot + 1 */
} ex_decoder;

/* ---- decoder lifetime (runtime/decode.c; the loader) ---- */
/* Lays out ef's register slots (ef->nregs) and starts an empty constant
 * table; d->pi is set per instruction. */
void ex_decoder_open(ex_decoder *d, ex_module *m, ex_func *ef);
/* Hands the constant slots to ef (nconst, const_vals) and frees the rest. */
void ex_decoder_close(ex_decoder *d, ex_func *ef);

/* Decodes d->pi into `in` with its family's decoder (runtime/
 * family_dispatch.c): true when it set in->fn; false, with d->why saying
 * why when known, when the instruction has no semantics yet. */
bool ex_decode_instr(ex_decoder *d, ex_instr *in);

/* The family decoders, one per family file (isa/families.def names them),
 * plus the three the arithmetic family tries in turn.  Each returns true
 * when it set in->fn (and fields); false with d->why set when the
 * instruction has no semantics yet. */
#define FAMILY(e, name, decoder, why) bool ex_decode_##decoder(ex_decoder *d, ex_instr *in);
#include "isa/families.def"
#undef FAMILY
bool ex_decode_int(ex_decoder *d, ex_instr *in);       /* runtime/exec_int.c */
bool ex_decode_float(ex_decoder *d, ex_instr *in);     /* runtime/exec_float.c */
bool ex_decode_half(ex_decoder *d, ex_instr *in);      /* runtime/exec_half.c */
bool ex_decode_cvta(ex_decoder *d, ex_instr *in);      /* runtime/exec_cvta.c */

/* ---- operand helpers (runtime/decode.c) ---- */
/* Operand i of the instruction, NULL when it has fewer. */
const ptx_operand *ex_opnd(const ex_decoder *d, unsigned i);
/* Element k of a vector operand {a, b, ...}. */
const ptx_operand *ex_vec_elem(const ex_decoder *d, const ptx_operand *vec, unsigned k);
/* Register slot (a register, with its vector component) or constant slot
 * (an immediate as the bits of type `as`, a function or global variable's
 * address) of an operand; EX_NONE for anything else. */
uint32_t ex_slot(ex_decoder *d, const ptx_operand *o, ptx_type as);
/* ex_slot of operand i; EX_NONE when the instruction has fewer operands. */
uint32_t ex_opnd_slot(ex_decoder *d, unsigned i, ptx_type as);
/* First slot of register `reg` (a ptx reg id); EX_NONE when reg < 0. */
uint32_t ex_reg_slot(const ex_decoder *d, int32_t reg);
/* The ex_space of a state space named on the instruction (.param: the
 * kernel's parameters in an entry, the frame in a function). */
ex_space ex_decode_space(const ex_decoder *d, ptx_space s);
/* Decodes an address operand [reg+off], [sym+off], [imm] into
 * in->a/imm/space (and EX_OP2_FRAME in in->op2 for a frame variable). */
bool ex_decode_address(ex_decoder *d, const ptx_operand *o, ex_instr *in, ptx_space space);
/* op2 bit ex_decode_address sets: the address is relative to the thread's
 * frame (a .local or function .param variable by name). */
#define EX_OP2_FRAME 1u
/* EX_ORD_* bits of a decoded PTX instruction (the loader, every one). */
uint8_t ex_mem_order(const ptx_instr *pi);

#endif
