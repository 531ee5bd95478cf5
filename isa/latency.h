/* isa/latency.h — per-instruction issue-to-result latencies used by the
 * phase analysis (and, until GPU configs exist, by anything else that needs
 * a static cost per instruction).
 *
 * The classes mirror GPGPU-Sim's `-ptx_opcode_latency_{int,fp,dp}` keys
 * ("ADD,MAX,MUL,MAD,DIV" for each of int, fp32 and fp64) so a GPU config can
 * override them one for one; everything those keys do not cover has its own
 * class so a config can override it too.  Memory, control and barrier
 * instructions cost their *issue* latency here (1 by default): how long the
 * memory system takes is the timing model's business, and the thesis defines
 * phase length as the time a warp needs to reach the end of a phase, not the
 * time its loads need to return. */
#ifndef PTXEMU_ISA_LATENCY_H
#define PTXEMU_ISA_LATENCY_H

#include "isa/opcodes.h"

#include <stdbool.h>
#include <stdint.h>

/* X(ENUM, "config key", default cycles) — defaults are GPGPU-Sim 3.x's
 * configs/GTX480/gpgpusim.config (Fermi, the generation of the thesis's
 * Table 3.1 Tesla M2090) and its ptx_instruction::set_opcode_and_latency:
 *   -ptx_opcode_latency_int 4,13,4,5,145
 *   -ptx_opcode_latency_fp  4,13,4,5,39
 *   -ptx_opcode_latency_dp  8,19,8,8,330
 * SFU functions (sqrt, rsqrt, rcp, sin, cos, lg2, ex2) take the fp64 MUL
 * latency there; every other opcode defaults to 1, except the tensor-core
 * class mma (mma.sync, wmma.mma), which Fermi lacks: 32 cycles, about what
 * published A100 microbenchmarks measure for mma.sync.m16n8k16 (Sun et
 * al., "Dissecting Tensor Cores via Microbenchmarks", arXiv:2206.02874);
 * its throughput is units.tensor (timing/config.h). */
#define PTX_LATENCY_CLASSES(X)                 \
    X(INT_ADD, "int_add", 4)                    \
    X(INT_MAX, "int_max", 13)                   \
    X(INT_MUL, "int_mul", 4)                    \
    X(INT_MAD, "int_mad", 5)                    \
    X(INT_DIV, "int_div", 145)                  \
    X(FP_ADD, "fp_add", 4)                      \
    X(FP_MAX, "fp_max", 13)                     \
    X(FP_MUL, "fp_mul", 4)                      \
    X(FP_MAD, "fp_mad", 5)                      \
    X(FP_DIV, "fp_div", 39)                     \
    X(DP_ADD, "dp_add", 8)                      \
    X(DP_MAX, "dp_max", 19)                     \
    X(DP_MUL, "dp_mul", 8)                      \
    X(DP_MAD, "dp_mad", 8)                      \
    X(DP_DIV, "dp_div", 330)                    \
    X(SFU, "sfu", 8)                            \
    X(OTHER, "other", 1)                        \
    X(MEM, "mem", 1)                            \
    X(CTRL, "ctrl", 1)                          \
    X(SYNC, "sync", 1)                          \
    X(TEX, "tex", 1)                            \
    X(MMA, "mma", 32)

typedef enum ptx_lat_class {
#define X(e, k, d) PTX_LAT_##e,
    PTX_LATENCY_CLASSES(X)
#undef X
    PTX_LAT_COUNT
} ptx_lat_class;

/* A latency table: cycles per class.  Copy the default and change entries
 * to model another GPU (a config file does exactly that). */
typedef struct ptx_latency_table {
    uint32_t cycles[PTX_LAT_COUNT];
} ptx_latency_table;

/* The built-in table (the defaults above).  Never NULL, never modified. */
const ptx_latency_table *ptx_latency_default(void);
/* Fills *t with the defaults. */
void ptx_latency_init(ptx_latency_table *t);

/* The class of an instruction given its opcode and first type modifier
 * (PTX_T_NONE when it has none; integer rules apply then). */
ptx_lat_class ptx_latency_class_of(ptx_opcode op, ptx_type type);
/* Latency of an opcode/type under table t (the default table when NULL). */
uint32_t ptx_latency_cycles(const ptx_latency_table *t, ptx_opcode op,
                            ptx_type type);

/* Config keys ("int_add", "sfu"...). */
const char *ptx_latency_class_name(ptx_lat_class c);
/* Class named `name`; false when there is none. */
bool ptx_latency_class_lookup(const char *name, ptx_lat_class *out);

#endif
