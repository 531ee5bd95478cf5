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

/* The row's latency kind picks the class; fma is costed as the mad it
 * replaces (it is absent from GPGPU-Sim 3.x's list, cost 1 there, but
 * today's nvcc emits it for every a*b+c). */
ptx_lat_class ptx_latency_class_of(ptx_opcode op, ptx_type type)
{
    const ptx_opinfo *info = ptx_opcode_info(op);
    switch (info->lat) {
    case PTX_LATK_ADD: return family(type, PTX_LAT_INT_ADD, PTX_LAT_FP_ADD, PTX_LAT_DP_ADD);
    case PTX_LATK_MAX: return family(type, PTX_LAT_INT_MAX, PTX_LAT_FP_MAX, PTX_LAT_DP_MAX);
    case PTX_LATK_MUL: return family(type, PTX_LAT_INT_MUL, PTX_LAT_FP_MUL, PTX_LAT_DP_MUL);
    case PTX_LATK_MAD: return family(type, PTX_LAT_INT_MAD, PTX_LAT_FP_MAD, PTX_LAT_DP_MAD);
    case PTX_LATK_DIV: return family(type, PTX_LAT_INT_DIV, PTX_LAT_FP_DIV, PTX_LAT_DP_DIV);
    case PTX_LATK_SFU: return PTX_LAT_SFU;
    case PTX_LATK_UNIT: break;
    }
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
