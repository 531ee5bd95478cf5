/* isa/types.c — names, sizes and kinds of PTX types. */
#include "isa/types.h"

#include <string.h>

static const struct {
    const char *name;
    unsigned size;
    ptx_type_kind kind;
} type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"", 0, PTX_TK_NONE},
#define X(e, s, n, k) [PTX_T_##e] = {s, n, PTX_TK_##k},
    PTX_TYPE_LIST(X)
#undef X
};

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "?";
}

unsigned ptx_type_size(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].size : 0;
}

ptx_type_kind ptx_type_kind_of(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].kind : PTX_TK_NONE;
}

ptx_type ptx_type_from_name(const char *s, unsigned len)
{
    for (unsigned i = 1; i < PTX_T_COUNT; i++) {
        if (strlen(type_info[i].name) == len &&
            memcmp(type_info[i].name, s, len) == 0)
            return (ptx_type)i;
    }
    return PTX_T_NONE;
}
