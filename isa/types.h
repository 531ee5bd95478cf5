/* isa/types.h — PTX scalar types and rounding modes shared by the front end,
 * the instruction semantics and the executor. */
#ifndef PTXEMU_ISA_TYPES_H
#define PTXEMU_ISA_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* X(enum suffix, PTX spelling, size in bytes, kind)
 * kind: B bit-size, U unsigned, S signed, F float, P predicate, O opaque */
#define PTX_TYPE_LIST(X)            \
    X(B8, "b8", 1, B)               \
    X(B16, "b16", 2, B)             \
    X(B32, "b32", 4, B)             \
    X(B64, "b64", 8, B)             \
    X(B128, "b128", 16, B)          \
    X(U8, "u8", 1, U)               \
    X(U16, "u16", 2, U)             \
    X(U32, "u32", 4, U)             \
    X(U64, "u64", 8, U)             \
    X(S8, "s8", 1, S)               \
    X(S16, "s16", 2, S)             \
    X(S32, "s32", 4, S)             \
    X(S64, "s64", 8, S)             \
    X(S16X2, "s16x2", 4, S)         \
    X(U16X2, "u16x2", 4, U)         \
    X(F16, "f16", 2, F)             \
    X(F16X2, "f16x2", 4, F)         \
    X(BF16, "bf16", 2, F)           \
    X(BF16X2, "bf16x2", 4, F)       \
    X(TF32, "tf32", 4, F)           \
    X(F32, "f32", 4, F)             \
    X(F64, "f64", 8, F)             \
    X(E4M3, "e4m3", 1, F)           \
    X(E5M2, "e5m2", 1, F)           \
    X(E4M3X2, "e4m3x2", 2, F)       \
    X(E5M2X2, "e5m2x2", 2, F)       \
    X(E2M1X2, "e2m1x2", 1, F)       \
    X(E2M3X2, "e2m3x2", 2, F)       \
    X(E3M2X2, "e3m2x2", 2, F)       \
    X(UE8M0X2, "ue8m0x2", 2, F)     \
    X(S4, "s4", 1, S)               \
    X(U4, "u4", 1, U)               \
    X(B1, "b1", 1, B)               \
    X(PRED, "pred", 1, P)           \
    X(TEXREF, "texref", 8, O)       \
    X(SAMPLERREF, "samplerref", 8, O) \
    X(SURFREF, "surfref", 8, O)

typedef enum ptx_type {
    PTX_T_NONE = 0,
#define X(e, s, n, k) PTX_T_##e,
    PTX_TYPE_LIST(X)
#undef X
    PTX_T_COUNT
} ptx_type;

typedef enum ptx_type_kind {
    PTX_TK_NONE, PTX_TK_B, PTX_TK_U, PTX_TK_S, PTX_TK_F, PTX_TK_P, PTX_TK_O
} ptx_type_kind;

/* Rounding modifiers: IEEE (rn rz rm rp rna rs) for float results and the
 * integer-rounding forms (rni rzi rmi rpi) for float->int/float->float cvt. */
typedef enum ptx_rnd {
    PTX_RND_NONE = 0, /* not given: the instruction's default applies */
    PTX_RND_RN,
    PTX_RND_RZ,
    PTX_RND_RM,
    PTX_RND_RP,
    PTX_RND_RNA, /* to nearest, ties away (cvt to tf32) */
    PTX_RND_RS,  /* stochastic (accepted, treated as rn) */
    PTX_RND_RNI,
    PTX_RND_RZI,
    PTX_RND_RMI,
    PTX_RND_RPI,
} ptx_rnd;

const char *ptx_type_name(ptx_type t);
unsigned ptx_type_size(ptx_type t);
ptx_type_kind ptx_type_kind_of(ptx_type t);
/* Parses "u32" (no dot); returns PTX_T_NONE when unknown. */
ptx_type ptx_type_from_name(const char *s, unsigned len);

static inline bool ptx_type_is_float(ptx_type t)
{
    return ptx_type_kind_of(t) == PTX_TK_F;
}
static inline bool ptx_type_is_signed(ptx_type t)
{
    return ptx_type_kind_of(t) == PTX_TK_S;
}

#endif
