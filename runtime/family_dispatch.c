/* runtime/family_dispatch.c — binds an instruction to its family's decoder:
 * the opcode row names the family, isa/families.def names each family's
 * decoder, and this table is generated from that list (the isa layer may
 * not point at runtime code, so the row holds an enum, not a function). */
#include "runtime/decode.h"
#include "isa/opcodes.h"

/* The row of isa/families.def an opcode's family has. */
typedef struct family_entry {
    bool (*decode)(ex_decoder *d, ex_instr *in);
    const char *why;            /* no semantics yet: the reason, or NULL */
} family_entry;

static const family_entry families[PTX_FAM_COUNT] = {
#define FAMILY(e, name, decoder, why) [PTX_FAM_##e] = {ex_decode_##decoder, why},
#include "isa/families.def"
#undef FAMILY
};

static ptx_family family_of(const ex_decoder *d)
{
    return ptx_opcode_info((ptx_opcode)d->pi->op)->family;
}

/* A family without semantics: reports why, when the list says. */
bool ex_decode_none(ex_decoder *d, ex_instr *in)
{
    (void)in;
    const char *why = families[family_of(d)].why;
    if (why)
        g_string_assign(d->why, why);
    return false;
}

/* Arithmetic opcodes have an integer, an fp32/fp64 and a 16-bit float
 * decoder; the first that recognises the type takes it. */
bool ex_decode_arith(ex_decoder *d, ex_instr *in)
{
    static bool (*const arith[])(ex_decoder *, ex_instr *) = {
        ex_decode_int, ex_decode_float, ex_decode_half,
    };
    for (size_t i = 0; i < G_N_ELEMENTS(arith); i++) {
        if (arith[i](d, in))
            return true;
        if (d->why->len)
            return false; /* recognised, but not runnable */
    }
    return false;
}

bool ex_decode_instr(ex_decoder *d, ex_instr *in)
{
    ptx_family fam = family_of(d);
    if ((unsigned)fam >= PTX_FAM_COUNT)
        return false;
    return families[fam].decode(d, in);
}
