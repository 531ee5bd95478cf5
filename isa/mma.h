/* isa/mma.h — warp-level matrix multiply-accumulate: which shape and type
 * combinations PTX defines (PTX ISA "Warp Level Matrix Multiply-Accumulate
 * Instructions"), where each lane holds which element of a fragment, and
 * the arithmetic D = A x B + C on whole matrices.
 *
 * mma.sync fragments follow the manual's "Matrix Fragments for mma.mXnYkZ"
 * formulas (groupID = lane >> 2, threadID_in_group = lane % 4).  wmma
 * fragments are implementation-defined in the manual; ptxemu's choice
 * (docs/isa-coverage.md "Tensor cores") is: element e of lane l holds the
 * matrix element at row-major position (l * E + e) mod (rows * cols), E
 * the fragment's elements per lane, so .f16 A/B fragments with more slots
 * than elements hold every element two or four times.
 *
 * Rounding (the manual leaves accumulation order open; this is ptxemu's
 * documented model): inputs are converted exactly (.tf32: the 13 low bits
 * of the .b32 are ignored), each product is exact and added to the
 * accumulator in k order with one rounding per step (a fused multiply-add
 * chain starting from C): f32 for .f16/.bf16/.tf32/.e4m3/.e5m2 inputs, then
 * one round-to-nearest to .f16 when D is .f16; f64 (in the instruction's
 * rounding mode, .rn by default) for .f64.  NaN results are canonical.
 * Integers accumulate exactly in 64 bits; .satfinite clamps the result to
 * the s32 range, otherwise it wraps.  .b1: D = C + popc(a op b) with op
 * .xor or .and over the k bits. */
#ifndef PTXEMU_ISA_MMA_H
#define PTXEMU_ISA_MMA_H

#include "isa/types.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum ptx_mma_kind { PTX_MMA_SYNC, PTX_MMA_WMMA } ptx_mma_kind;
typedef enum ptx_mma_opnd { PTX_MMA_A, PTX_MMA_B, PTX_MMA_C, PTX_MMA_D } ptx_mma_opnd;
enum { PTX_MMA_ROW = 0, PTX_MMA_COL = 1 };
enum { PTX_MMA_BITOP_NONE, PTX_MMA_BITOP_XOR, PTX_MMA_BITOP_AND };

/* Largest matrices any shape has (m16n8k256 .b1 A: 16 x 256). */
#define PTX_MMA_MAX_A 4096u
#define PTX_MMA_MAX_B 2048u
#define PTX_MMA_MAX_C 256u
/* Most elements one lane holds of one operand (m16n8k256 .b1 A). */
#define PTX_MMA_MAX_PER_LANE 128u

typedef struct ptx_mma_geom {
    uint8_t kind;                       /* ptx_mma_kind */
    uint16_t m, n, k;
    uint8_t atype, btype, ctype, dtype; /* ptx_type */
    uint8_t alayout, blayout;           /* PTX_MMA_ROW / COL */
    uint8_t bitop;                      /* PTX_MMA_BITOP_* (.b1 only) */
    bool satfinite;
    uint8_t rnd;                        /* ptx_rnd for .f64 (NONE: .rn) */
    uint8_t batch;                      /* independent products (4: m8n8k4 .f16) */
} ptx_mma_geom;

/* Parses "m16n8k16" (k may be absent: "m8n8"); false when malformed. */
bool ptx_mma_parse_shape(const char *s, unsigned *m, unsigned *n, unsigned *k);

/* NULL when PTX defines the combination in g (and fills g->batch), else
 * why not ("mma with .bf16 needs .f32 accumulators", ...). */
const char *ptx_mma_check(ptx_mma_geom *g);

/* Bits of one element of type t (16 .f16, 4 .s4, 1 .b1, 64 .f64...). */
unsigned ptx_mma_elem_bits(ptx_type t);
/* Element type of an operand. */
ptx_type ptx_mma_opnd_type(const ptx_mma_geom *g, ptx_mma_opnd o);
/* Rows and columns of one matrix of the operand (A m x k, B k x n, C/D m x n). */
void ptx_mma_dims(const ptx_mma_geom *g, ptx_mma_opnd o, unsigned *rows, unsigned *cols);
/* Elements one lane holds, and the registers that takes (64-bit for .f64,
 * 32-bit otherwise). */
unsigned ptx_mma_frag_elems(const ptx_mma_geom *g, ptx_mma_opnd o);
unsigned ptx_mma_frag_regs(const ptx_mma_geom *g, ptx_mma_opnd o);
/* Where element i of lane `lane` lives: row-major index into the operand's
 * batch x rows x cols array. */
unsigned ptx_mma_frag_index(const ptx_mma_geom *g, ptx_mma_opnd o, unsigned lane, unsigned i);

/* Element i (0-based, low to high) of a fragment held in regs (one 64-bit
 * slot per register; 32-bit registers use the low half), as raw bits. */
uint64_t ptx_mma_get_elem(const uint64_t *regs, unsigned bits, unsigned i);
void ptx_mma_set_elem(uint64_t *regs, unsigned bits, unsigned i, uint64_t v);

/* D = A x B + C over whole matrices of raw element bits (row-major,
 * batch-major), as the header comment describes. */
void ptx_mma_compute(const ptx_mma_geom *g, const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, uint64_t *d);

/* Multiply-adds of one warp instruction in units of .f16 ones (the
 * tensor-unit throughput the timing model charges: A100 ratios, .tf32 2x
 * and .f64 16x dearer, 8-bit 2x, 4-bit 4x, .b1 16x cheaper). */
uint32_t ptx_mma_work(const ptx_mma_geom *g);

#endif
