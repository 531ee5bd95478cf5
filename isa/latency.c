/* isa/latency.c — the default latency table and the opcode -> class map.
 * Sources of the numbers are in isa/latency.h. */
#include "isa/latency.h"

#include <string.h>

static const ptx_latency_table default_table = {{
#define X(e, k, d) [PTX_LAT_##e] = (d),
    PTX_LATENCY_CLASSES(X)
#undef X
}};

static const char *const class_names[PTX_LAT_COUNT] = {
#define X(e, k, d) [PTX_LAT_##e] = (k),
    PTX_LATENCY_CLASSES(X)
#undef X
};

const ptx_latency_table *ptx_latency_default(void)
{
    return &default_table;
}

void ptx_latency_init(ptx_latency_table *t)
{
    *t = default_table;
}

/* Picks the int, fp32 or fp64 member of an ADD/MAX/MUL/MAD/DIV family the
 * way GPGPU-Sim does: f64 -> dp, other floats -> fp, everything else -> int
 * (GPGPU-Sim sends f16 to int; half precision runs on the fp32 pipes, so it
 * goes to fp here). */
static ptx_lat_class family(ptx_type t, ptx_lat_class int_c, ptx_lat_class fp_c,
                            ptx_lat_class dp_c)
{
    if (t == PTX_T_F64)
        return dp_c;
    if (ptx_type_kind_of(t) == PTX_TK_F)
        return fp_c;
    return int_c;
}

ptx_lat_class ptx_latency_class_of(ptx_opcode op, ptx_type type)
{
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
        return family(type, PTX_LAT_INT_ADD, PTX_LAT_FP_ADD, PTX_LAT_DP_ADD);
    case PTX_OP_MIN: case PTX_OP_MAX:
        return family(type, PTX_LAT_INT_MAX, PTX_LAT_FP_MAX, PTX_LAT_DP_MAX);
    case PTX_OP_MUL: case PTX_OP_MUL24:
        return family(type, PTX_LAT_INT_MUL, PTX_LAT_FP_MUL, PTX_LAT_DP_MUL);
    /* fma is absent from GPGPU-Sim 3.x's list (cost 1 there); today's nvcc
     * emits it for every a*b+c, so it is costed as the mad it replaces. */
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
        return family(type, PTX_LAT_INT_MAD, PTX_LAT_FP_MAD, PTX_LAT_DP_MAD);
    case PTX_OP_DIV: case PTX_OP_REM:
        return family(type, PTX_LAT_INT_DIV, PTX_LAT_FP_DIV, PTX_LAT_DP_DIV);
    case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return PTX_LAT_SFU;
    default:
        break;
    }
    const ptx_opinfo *info = ptx_opcode_info(op);
    if (!info)
        return PTX_LAT_OTHER;
    switch (info->unit) {
    case PTX_UNIT_MEM: return PTX_LAT_MEM;
    case PTX_UNIT_CTRL: return PTX_LAT_CTRL;
    case PTX_UNIT_SYNC: return PTX_LAT_SYNC;
    case PTX_UNIT_TEX: return PTX_LAT_TEX;
    case PTX_UNIT_MMA: return PTX_LAT_MMA;
    default: return PTX_LAT_OTHER;
    }
}

uint32_t ptx_latency_cycles(const ptx_latency_table *t, ptx_opcode op,
                            ptx_type type)
{
    if (!t)
        t = &default_table;
    return t->cycles[ptx_latency_class_of(op, type)];
}

const char *ptx_latency_class_name(ptx_lat_class c)
{
    return (unsigned)c < PTX_LAT_COUNT ? class_names[c] : "?";
}

bool ptx_latency_class_lookup(const char *name, ptx_lat_class *out)
{
    for (unsigned c = 0; c < PTX_LAT_COUNT; c++) {
        if (strcmp(class_names[c], name) == 0) {
            *out = (ptx_lat_class)c;
            return true;
        }
    }
    return false;
}
