/* runtime/exec_mma.c — the matrix family: mma.sync, wmma.load/store/mma,
 * ldmatrix, stmatrix and movmatrix (PTX ISA "Warp Level Matrix
 * Multiply-Accumulate Instructions").  Shapes, fragment layouts and the
 * arithmetic are isa/mma.c's; this file decodes the instructions, gathers
 * the warp's fragments into whole matrices and scatters results back.
 *
 * Every instruction here is .sync.aligned: all 32 lanes of the warp must
 * execute it together; anything else is a located fault.  wmma memory
 * access follows ptxemu's wmma fragment layout (isa/mma.h), so the values
 * any CUDA program observes through nvcuda::wmma are right whatever the
 * hardware's layout is. */
#include "runtime/exec_mma.h"
#include "runtime/decode.h"
#include "runtime/warp.h"
#include "isa/mma.h"

#include <string.h>

enum { MD_MMA, MD_LOAD, MD_STORE, MD_LDMATRIX, MD_STMATRIX, MD_MOVMATRIX };
#define REPLICA 0xffffu /* a second copy of an element: not read by mma */
#define MAX_REGS 16u

struct ex_mma_desc {
    ptx_mma_geom g;
    uint8_t kind;        /* MD_* */
    uint8_t which;       /* ptx_mma_opnd of a wmma.load/store fragment */
    uint8_t layout;      /* wmma.load/store memory layout: PTX_MMA_ROW/COL */
    uint8_t nmat;        /* ldmatrix/stmatrix: 1, 2 or 4 matrices */
    bool trans;
    uint32_t nreg[4];    /* registers of A, B, C, D */
    uint32_t stride;     /* wmma.load/store stride slot, EX_NONE: default */
    uint32_t work;       /* .f16-equivalent multiply-adds (timing) */
    uint32_t *slots[4];  /* register slots of A, B, C, D */
    uint16_t *idx[4];    /* lane * elems + i -> matrix index */
};

uint32_t ex_mma_work(const ex_instr *in)
{
    const ex_mma_desc *md = in->ext;
    return md && md->kind == MD_MMA ? md->work : 0;
}

/* ------------------------------------------------------------- helpers */

static bool full_warp(ex_warp *w, uint32_t mask, const char *what)
{
    if (mask == FULL_MASK)
        return true;
    ex_fault(w, -1, "%s is .sync.aligned: all 32 lanes of the warp must execute it "
                    "(lanes executing: 0x%08x)", what, mask);
    return false;
}

static void read_regs(const ex_warp *w, const uint32_t *slots, unsigned n, unsigned lane,
                      uint64_t *out)
{
    for (unsigned r = 0; r < n; r++)
        out[r] = w->r[slots[r]][lane];
}

static void write_regs(ex_warp *w, const uint32_t *slots, unsigned n, unsigned lane,
                       const uint64_t *v, unsigned bits)
{
    for (unsigned r = 0; r < n; r++)
        w->r[slots[r]][lane] = bits == 64 ? v[r] : (uint32_t)v[r];
}

/* Copies a warp's fragment of operand o into the matrix array m. */
static void gather(const ex_warp *w, const ex_mma_desc *md, ptx_mma_opnd o, uint64_t *m)
{
    unsigned bits = ptx_mma_elem_bits(ptx_mma_opnd_type(&md->g, o));
    unsigned e = ptx_mma_frag_elems(&md->g, o);
    uint64_t regs[MAX_REGS];
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        read_regs(w, md->slots[o], md->nreg[o], l, regs);
        for (unsigned i = 0; i < e; i++) {
            uint16_t ix = md->idx[o][l * e + i];
            if (ix != REPLICA)
                m[ix] = ptx_mma_get_elem(regs, bits, i);
        }
    }
}

static uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void store_le(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The state space a generic address resolves to (for the timing record). */
static uint8_t resolved_space(const ex_instr *in, uint64_t addr)
{
    if (in->space != EX_SPACE_GENERIC)
        return in->space;
    if (addr - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE)
        return EX_SPACE_SHARED;
    if (addr - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE)
        return EX_SPACE_LOCAL;
    return EX_SPACE_GLOBAL;
}

static uint64_t window_offset(uint8_t space, const ex_instr *in, uint64_t addr)
{
    if (in->space != EX_SPACE_GENERIC)
        return addr;
    return space == EX_SPACE_SHARED ? addr - MEM_SHARED_WINDOW
         : space == EX_SPACE_LOCAL  ? addr - MEM_LOCAL_WINDOW
                                    : addr;
}

/* ------------------------------------------------------------ handlers */

static void h_mma(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const ex_mma_desc *md = in->ext;
    if (!full_warp(w, mask, md->g.kind == PTX_MMA_WMMA ? "wmma.mma" : "mma"))
        return;
    uint64_t a[PTX_MMA_MAX_A], b[PTX_MMA_MAX_B], c[PTX_MMA_MAX_C], d[PTX_MMA_MAX_C];
    gather(w, md, PTX_MMA_A, a);
    gather(w, md, PTX_MMA_B, b);
    gather(w, md, PTX_MMA_C, c);
    ptx_mma_compute(&md->g, a, b, c, d);
    unsigned bits = ptx_mma_elem_bits((ptx_type)md->g.dtype);
    unsigned e = ptx_mma_frag_elems(&md->g, PTX_MMA_D);
    uint64_t regs[MAX_REGS];
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        memset(regs, 0, sizeof regs);
        for (unsigned i = 0; i < e; i++)
            ptx_mma_set_elem(regs, bits, i, d[md->idx[PTX_MMA_D][l * e + i]]);
        write_regs(w, md->slots[PTX_MMA_D], md->nreg[PTX_MMA_D], l, regs, bits);
    }
}

/* Address of element (row, col) of a wmma matrix in bits from the base. */
static uint64_t wmma_bit_offset(const ex_mma_desc *md, unsigned row, unsigned col,
                                uint64_t stride, unsigned bits)
{
    uint64_t el = md->layout == PTX_MMA_ROW ? row * stride + col : col * stride + row;
    return el * bits;
}

/* wmma.load / wmma.store: lane l's element i is the matrix element at
 * row-major position (l * E + i) mod (rows * cols) (isa/mma.h). */
static void h_wmma_mem(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const ex_mma_desc *md = in->ext;
    bool store = md->kind == MD_STORE;
    if (!full_warp(w, mask, store ? "wmma.store" : "wmma.load"))
        return;
    ptx_mma_opnd o = (ptx_mma_opnd)md->which;
    unsigned rows, cols, bits = ptx_mma_elem_bits(ptx_mma_opnd_type(&md->g, o));
    ptx_mma_dims(&md->g, o, &rows, &cols);
    unsigned e = ptx_mma_frag_elems(&md->g, o), n = rows * cols;
    unsigned bytes = bits < 8 ? 1u : bits / 8u;
    unsigned row_align = md->nreg[o] * (bits == 64 ? 64u : 32u); /* fragment bits */
    if (row_align > 128u)
        row_align = 128u;
    ex_access *rec = w->rec;
    w->rec = NULL; /* one record per lane, filled below */
    uint64_t regs[MAX_REGS];
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        uint64_t base = (uint64_t)in->imm + (in->a != EX_NONE ? w->r[in->a][l] : 0);
        uint64_t stride = md->stride != EX_NONE ? (uint32_t)w->r[md->stride][l]
                        : md->layout == PTX_MMA_ROW ? cols : rows;
        /* CUDA's load_matrix_sync: a 256-bit aligned base; PTX ISA "Matrix
         * Storage for WMMA": each row (column) aligned to the fragment's
         * size, which we relax to 16 bytes at most (CUDA's ldm rule) */
        if ((base & 31u) || (stride * bits) % row_align) {
            ex_fault(w, (int)l, "%s needs a 32-byte aligned address and a stride that is "
                                "a multiple of %u bytes (address 0x%llx, stride %llu "
                                "elements)", store ? "wmma.store" : "wmma.load",
                     row_align / 8u, (unsigned long long)base, (unsigned long long)stride);
            break;
        }
        if (store)
            read_regs(w, md->slots[PTX_MMA_D], md->nreg[PTX_MMA_D], l, regs);
        else
            memset(regs, 0, sizeof regs);
        uint64_t first = 0;
        for (unsigned i = 0; i < e; i++) {
            unsigned p = (l * e + i) % n;
            uint64_t bit = wmma_bit_offset(md, p / cols, p % cols, stride, bits);
            uint64_t addr = base + bit / 8u;
            if (i == 0)
                first = addr;
            uint8_t *ptr = ex_addr(w, in, (ex_space)in->space, addr, bytes, (int)l, store);
            if (!ptr) {
                w->rec = rec;
                return;
            }
            if (bits >= 8 && store) {
                store_le(ptr, bytes, ptx_mma_get_elem(regs, bits, i));
            } else if (bits >= 8) {
                ptx_mma_set_elem(regs, bits, i, load_le(ptr, bytes));
            } else {
                unsigned sh = (unsigned)(bit % 8u), msk = (1u << bits) - 1u;
                if (store)
                    *ptr = (uint8_t)((*ptr & ~(msk << sh)) |
                                     ((ptx_mma_get_elem(regs, bits, i) & msk) << sh));
                else
                    ptx_mma_set_elem(regs, bits, i, (*ptr >> sh) & msk);
            }
        }
        if (!store)
            write_regs(w, md->slots[o], md->nreg[o], l, regs, bits);
        if (rec) { /* timing: the 16-byte block holding the lane's first element */
            rec->mask |= 1u << l;
            rec->space = resolved_space(in, first);
            rec->order = in->order;
            rec->size = 16;
            rec->write = store;
            rec->addr[l] = window_offset(rec->space, in, first) & ~(uint64_t)15u;
        }
    }
    w->rec = rec;
    if (store)
        ex_mark_progress(w);
}

/* ldmatrix/stmatrix .m8n8 .b16: lane 8j + r gives the address of row r of
 * matrix j (16 bytes); lane l holds, in register j, row l/4 elements
 * 2(l%4) and 2(l%4)+1 of matrix j, or with .trans column l/4 rows 2(l%4)
 * and 2(l%4)+1. */
static void h_ldstmatrix(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const ex_mma_desc *md = in->ext;
    bool store = md->kind == MD_STMATRIX;
    if (!full_warp(w, mask, store ? "stmatrix" : "ldmatrix"))
        return;
    uint16_t m[4][8][8];
    const uint32_t *slots = md->slots[PTX_MMA_D];
    if (store) {
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned j = 0; j < md->nmat; j++) {
                uint32_t v = (uint32_t)w->r[slots[j]][l];
                for (unsigned h = 0; h < 2; h++) {
                    unsigned r = l / 4u, c = 2u * (l % 4u) + h;
                    if (md->trans)
                        m[j][c][r] = (uint16_t)(v >> (16 * h));
                    else
                        m[j][r][c] = (uint16_t)(v >> (16 * h));
                }
            }
    }
    for (unsigned j = 0; j < md->nmat; j++)
        for (unsigned r = 0; r < 8; r++) {
            unsigned l = 8u * j + r;
            uint64_t addr = (uint64_t)in->imm + (in->a != EX_NONE ? w->r[in->a][l] : 0);
            uint8_t *p = ex_addr(w, in, (ex_space)in->space, addr, 16, (int)l, store);
            if (!p)
                return;
            for (unsigned c = 0; c < 8; c++) {
                if (store)
                    store_le(p + 2 * c, 2, m[j][r][c]);
                else
                    m[j][r][c] = (uint16_t)load_le(p + 2 * c, 2);
            }
        }
    if (store) {
        ex_mark_progress(w);
        return;
    }
    for (unsigned l = 0; l < WARP_SIZE; l++)
        for (unsigned j = 0; j < md->nmat; j++) {
            unsigned r = l / 4u, c = 2u * (l % 4u);
            uint32_t v = md->trans ? (uint32_t)m[j][c][r] | (uint32_t)m[j][c + 1][r] << 16
                                   : (uint32_t)m[j][r][c] | (uint32_t)m[j][r][c + 1] << 16;
            w->r[slots[j]][l] = v;
        }
}

/* movmatrix.m8n8.trans.b16: the 8x8 matrix held as ldmatrix holds one,
 * transposed. */
static void h_movmatrix(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (!full_warp(w, mask, "movmatrix"))
        return;
    uint16_t s[8][8];
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        uint32_t v = (uint32_t)w->r[in->a][l];
        s[l / 4u][2u * (l % 4u)] = (uint16_t)v;
        s[l / 4u][2u * (l % 4u) + 1] = (uint16_t)(v >> 16);
    }
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        unsigned r = l / 4u, c = 2u * (l % 4u);
        w->r[in->d][l] = (uint32_t)s[c][r] | (uint32_t)s[c + 1][r] << 16;
    }
}

/* ------------------------------------------------------------- decoding */

static ex_mma_desc *desc_new(ex_decoder *d, const ptx_mma_geom *g, const unsigned nreg[4],
                             bool tables)
{
    unsigned nslots = nreg[0] + nreg[1] + nreg[2] + nreg[3], nidx[4] = {0};
    gsize size = sizeof(ex_mma_desc) + nslots * sizeof(uint32_t);
    if (tables)
        for (unsigned o = 0; o < 4; o++) {
            nidx[o] = WARP_SIZE * ptx_mma_frag_elems(g, (ptx_mma_opnd)o);
            size += nidx[o] * sizeof(uint16_t);
        }
    ex_mma_desc *md = g_malloc0(size);
    md->g = *g;
    uint32_t *s = (uint32_t *)(md + 1);
    for (unsigned o = 0; o < 4; o++) {
        md->nreg[o] = nreg[o];
        md->slots[o] = s;
        s += nreg[o];
    }
    uint16_t *ix = (uint16_t *)s;
    for (unsigned o = 0; tables && o < 4; o++) {
        md->idx[o] = ix;
        unsigned e = ptx_mma_frag_elems(g, (ptx_mma_opnd)o), rows, cols;
        ptx_mma_dims(g, (ptx_mma_opnd)o, &rows, &cols);
        uint8_t *seen = g_malloc0((gsize)g->batch * rows * cols);
        for (unsigned l = 0; l < WARP_SIZE; l++)
            for (unsigned i = 0; i < e; i++) {
                unsigned p = ptx_mma_frag_index(g, (ptx_mma_opnd)o, l, i);
                ix[l * e + i] = (uint16_t)p;
                if (seen[p] && o != PTX_MMA_D)
                    ix[l * e + i] = REPLICA;
                seen[p] = 1;
            }
        g_free(seen);
        ix += nidx[o];
    }
    md->stride = EX_NONE;
    md->work = ptx_mma_work(g);
    if (!d->fn->tables)
        d->fn->tables = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(d->fn->tables, md);
    return md;
}

/* Slots of a register list operand ({r0, r1, ...} or one register). */
static bool list_slots(ex_decoder *d, const ptx_operand *o, unsigned want, ptx_type t,
                       uint32_t *out, const char *what)
{
    unsigned n = 1;
    if (o && o->kind == PTX_OPND_VEC)
        n = (unsigned)o->id2;
    if (!o || n != want) {
        g_string_printf(d->why, "%s needs %u register%s", what, want, want == 1 ? "" : "s");
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        const ptx_operand *e = o->kind == PTX_OPND_VEC
                             ? ex_vec_elem(d, o, i) : o;
        out[i] = e->kind == PTX_OPND_SINK ? EX_NONE : ex_slot(d, e, t);
        if (out[i] == EX_NONE) {
            g_string_printf(d->why, "%s: operand %u is not a register or constant", what, i);
            return false;
        }
    }
    return true;
}

/* The register type used for immediates of an operand. */
static ptx_type reg_type_of(ptx_type elem)
{
    return elem == PTX_T_F64 ? PTX_T_F64 : elem == PTX_T_F32 ? PTX_T_F32
         : elem == PTX_T_S32 ? PTX_T_S32 : PTX_T_B32;
}

static bool fail(ex_decoder *d, const char *why)
{
    g_string_assign(d->why, why);
    return false;
}

/* The modifiers of an instruction, sorted out. */
typedef struct mods {
    unsigned m, n, k;
    bool has_shape, trans, satfinite, popc, sync, aligned;
    unsigned nlayout, nmat;
    uint8_t layout[2], bitop;
    char which;            /* 'a' 'b' 'c' 'd' or 0 */
    unsigned ntypes;
    uint8_t types[4];      /* the type modifiers in order (.b1 included: the
                              parser reads it as the video selector b1) */
    int wkind;             /* wmma: MD_LOAD / MD_STORE / MD_MMA, -1 none */
} mods;

static bool parse_mods(ex_decoder *d, mods *md)
{
    const ptx_instr *pi = d->pi;
    memset(md, 0, sizeof *md);
    md->wkind = -1;
    for (unsigned i = 0; i < pi->nmods; i++) {
        uint16_t id = pi->mods[i];
        const char *s = ptx_module_mod_name(d->ir, id);
        if (PTX_MOD_IS_TYPE(id) || !strcmp(s, "b1")) {
            if (md->ntypes == 4)
                return fail(d, "at most four types");
            md->types[md->ntypes++] =
                (uint8_t)(PTX_MOD_IS_TYPE(id) ? PTX_MOD_TYPE_OF(id) : PTX_T_B1);
            continue;
        }
        if (ptx_mod_groups(id) & (PTX_MG_BIT(SPACE) | PTX_MG_BIT(RND)))
            continue;
        unsigned m, n, k;
        if (!strcmp(s, "sync") || !strcmp(s, "aligned")) {
            md->sync |= s[0] == 's';
            md->aligned |= s[0] == 'a';
        } else if (ptx_mma_parse_shape(s, &m, &n, &k)) {
            md->m = m, md->n = n, md->k = k, md->has_shape = true;
        } else if (!strcmp(s, "row") || !strcmp(s, "col")) {
            if (md->nlayout < 2)
                md->layout[md->nlayout] = s[0] == 'r' ? PTX_MMA_ROW : PTX_MMA_COL;
            md->nlayout++;
        } else if (!strcmp(s, "x1") || !strcmp(s, "x2") || !strcmp(s, "x4")) {
            md->nmat = (unsigned)(s[1] - '0');
        } else if (!strcmp(s, "trans")) {
            md->trans = true;
        } else if (!strcmp(s, "satfinite")) {
            md->satfinite = true;
        } else if (!strcmp(s, "xor") || !strcmp(s, "and")) {
            md->bitop = s[0] == 'x' ? PTX_MMA_BITOP_XOR : PTX_MMA_BITOP_AND;
        } else if (!strcmp(s, "popc")) {
            md->popc = true;
        } else if (strlen(s) == 1 && s[0] >= 'a' && s[0] <= 'd') {
            md->which = s[0];
        } else if (!strcmp(s, "load") || !strcmp(s, "store") || !strcmp(s, "mma")) {
            md->wkind = s[0] == 'l' ? MD_LOAD : s[0] == 's' ? MD_STORE : MD_MMA;
        } else if (!strcmp(s, "sp") || !strncmp(s, "sp::", 4)) {
            g_string_assign(d->why, "sparse mma.sp (planned)");
            return false;
        } else {
            g_string_printf(d->why, "the .%s qualifier", s);
            return false;
        }
    }
    if (!md->sync || !md->aligned)
        return fail(d, "warp-level matrix instructions need .sync.aligned");
    if (md->bitop && !md->popc) {
        g_string_assign(d->why, ".xor/.and need .popc");
        return false;
    }
    return true;
}

/* mma.sync and wmma.mma: d, a, b, c. */
static bool decode_mma(ex_decoder *d, ex_instr *in, const mods *mo, ptx_mma_kind kind)
{
    const ptx_instr *pi = d->pi;
    ptx_mma_geom g = {0};
    g.kind = (uint8_t)kind;
    g.m = (uint16_t)mo->m, g.n = (uint16_t)mo->n, g.k = (uint16_t)mo->k;
    if (!mo->has_shape || mo->k == 0)
        return fail(d, "a matrix shape .mMnNkK is required");
    if (mo->ntypes == 4) {
        g.dtype = mo->types[0], g.atype = mo->types[1];
        g.btype = mo->types[2], g.ctype = mo->types[3];
    } else if (mo->ntypes == 2 && kind == PTX_MMA_WMMA) { /* .f16 inputs implied */
        g.dtype = mo->types[0], g.ctype = mo->types[1];
        g.atype = g.btype = PTX_T_F16;
    } else {
        return fail(d, "the types .dtype.atype.btype.ctype are required");
    }
    if (mo->nlayout != 2)
        return fail(d, "two layouts (.row/.col for A and B) are required");
    g.alayout = mo->layout[0], g.blayout = mo->layout[1];
    g.bitop = mo->bitop, g.satfinite = mo->satfinite, g.rnd = pi->rnd;
    const char *bad = ptx_mma_check(&g);
    if (bad)
        return fail(d, bad);
    if (pi->nopnds != 4)
        return fail(d, "four operands d, a, b, c are required");
    unsigned nreg[4];
    for (unsigned o = 0; o < 4; o++)
        nreg[o] = ptx_mma_frag_regs(&g, (ptx_mma_opnd)o);
    ex_mma_desc *md = desc_new(d, &g, nreg, true);
    md->kind = MD_MMA;
    static const char *const names[] = {"A", "B", "C", "D"};
    static const unsigned opnd_of[] = {1, 2, 3, 0};
    for (unsigned o = 0; o < 4; o++) {
        ptx_type t = reg_type_of(ptx_mma_opnd_type(&g, (ptx_mma_opnd)o));
        if (!list_slots(d, ex_opnd(d, opnd_of[o]), nreg[o], t, md->slots[o], names[o]))
            return false;
    }
    in->ext = md;
    in->fn = h_mma;
    return true;
}

/* The geometry a wmma.load/store fragment of type t belongs to. */
static const char *wmma_frag_geom(ptx_mma_geom *g, const mods *mo, ptx_mma_opnd o, ptx_type t)
{
    memset(g, 0, sizeof *g);
    g->kind = PTX_MMA_WMMA;
    g->m = (uint16_t)mo->m, g->n = (uint16_t)mo->n, g->k = (uint16_t)mo->k;
    g->alayout = PTX_MMA_ROW, g->blayout = PTX_MMA_COL;
    ptx_type in_t = t, acc = PTX_T_F32;
    if (o <= PTX_MMA_B) {
        acc = t == PTX_T_F64 ? PTX_T_F64 : ptx_type_is_float(t) ? PTX_T_F32 : PTX_T_S32;
    } else {
        acc = t;
        if (t == PTX_T_F64)
            in_t = PTX_T_F64;
        else if (t == PTX_T_S32)
            in_t = mo->k == 32 ? PTX_T_S4 : mo->k == 128 ? PTX_T_B1 : PTX_T_S8;
        else if (t == PTX_T_F16 || t == PTX_T_F32)
            in_t = mo->k == 8 ? PTX_T_TF32 : PTX_T_F16;
        else
            return "wmma accumulators are .f16, .f32, .s32 or .f64";
    }
    if (in_t == PTX_T_F16 && o > PTX_MMA_B) /* .f16 inputs take .f16 or .f32 */
        acc = t;
    g->atype = g->btype = in_t;
    g->ctype = g->dtype = acc;
    g->bitop = in_t == PTX_T_B1 ? PTX_MMA_BITOP_XOR : PTX_MMA_BITOP_NONE;
    return ptx_mma_check(g);
}

static bool decode_wmma_mem(ex_decoder *d, ex_instr *in, const mods *mo)
{
    const ptx_instr *pi = d->pi;
    bool store = mo->wkind == MD_STORE;
    if (!mo->has_shape || mo->k == 0)
        return fail(d, "a matrix shape .mMnNkK is required");
    if (store ? mo->which != 'd' : !(mo->which >= 'a' && mo->which <= 'c'))
        return fail(d, store ? "wmma.store takes .d" : "wmma.load takes .a, .b or .c");
    if (mo->nlayout != 1)
        return fail(d, "one layout (.row or .col) is required");
    if (mo->ntypes != 1)
        return fail(d, "one element type is required");
    ptx_mma_opnd o = store ? PTX_MMA_D : (ptx_mma_opnd)(mo->which - 'a');
    ptx_mma_geom g;
    const char *bad = wmma_frag_geom(&g, mo, o, (ptx_type)mo->types[0]);
    if (bad)
        return fail(d, bad);
    unsigned bits = ptx_mma_elem_bits((ptx_type)mo->types[0]);
    if (bits < 8 && o <= PTX_MMA_B && mo->layout[0] != (o == PTX_MMA_A ? PTX_MMA_ROW : PTX_MMA_COL))
        return fail(d, "sub-byte wmma.load needs .row for A and .col for B");
    unsigned nreg[4] = {0};
    nreg[o] = ptx_mma_frag_regs(&g, o);
    if (pi->nopnds < 2 || pi->nopnds > 3)
        return fail(d, "operands: fragment, [address] and an optional stride");
    ex_mma_desc *md = desc_new(d, &g, nreg, false);
    md->kind = (uint8_t)mo->wkind;
    md->which = (uint8_t)o;
    md->layout = mo->layout[0];
    const ptx_operand *frag = ex_opnd(d, store ? 1 : 0), *addr = ex_opnd(d, store ? 0 : 1);
    ptx_type rt = reg_type_of(ptx_mma_opnd_type(&g, o));
    if (!list_slots(d, frag, nreg[o], rt, md->slots[o], "the fragment"))
        return false;
    if (addr->kind != PTX_OPND_ADDR)
        return fail(d, "the address operand must be [address]");
    if (!ex_decode_address(d, addr, in, (ptx_space)pi->space))
        return false;
    if (in->space == EX_SPACE_LOCAL || in->space == EX_SPACE_FPARAM ||
        in->space == EX_SPACE_KPARAM)
        return fail(d, "wmma.load/store of .local or .param variables (use a generic address)");
    if (pi->nopnds == 3) {
        md->stride = ex_opnd_slot(d, 2, PTX_T_U32);
        if (md->stride == EX_NONE)
            return fail(d, "the stride must be a register or an immediate");
    }
    in->ext = md;
    in->fn = h_wmma_mem;
    in->op = store ? PTX_OP_WMMA_STORE : PTX_OP_WMMA_LOAD; /* the LD/ST unit (timing) */
    return true;
}

static bool decode_ldstmatrix(ex_decoder *d, ex_instr *in, const mods *mo, bool store)
{
    const ptx_instr *pi = d->pi;
    if (!mo->has_shape || mo->m != 8 || mo->n != 8 || mo->k != 0)
        return fail(d, store ? "stmatrix shapes other than .m8n8 (.m16n8 .b8)"
                             : "ldmatrix shapes other than .m8n8 (.m16n16/.m8n16 8-bit forms)");
    if (mo->ntypes != 1 || mo->types[0] != PTX_T_B16)
        return fail(d, ".m8n8 takes the .b16 type");
    if (mo->nmat == 0)
        return fail(d, "one of .x1, .x2, .x4 is required");
    if (pi->nopnds != 2)
        return fail(d, "two operands are required");
    unsigned nreg[4] = {0, 0, 0, mo->nmat};
    ptx_mma_geom g = {0};
    ex_mma_desc *md = desc_new(d, &g, nreg, false);
    md->kind = store ? MD_STMATRIX : MD_LDMATRIX;
    md->nmat = (uint8_t)mo->nmat;
    md->trans = mo->trans;
    const ptx_operand *regs = ex_opnd(d, store ? 1 : 0), *addr = ex_opnd(d, store ? 0 : 1);
    if (!list_slots(d, regs, mo->nmat, PTX_T_B32, md->slots[PTX_MMA_D], "the fragment"))
        return false;
    if (addr->kind != PTX_OPND_ADDR)
        return fail(d, "the address operand must be [address]");
    if (!ex_decode_address(d, addr, in, (ptx_space)pi->space))
        return false;
    if (in->space != EX_SPACE_SHARED && in->space != EX_SPACE_GENERIC)
        return fail(d, "ldmatrix/stmatrix address shared memory (.shared or generic)");
    in->ext = md;
    in->fn = h_ldstmatrix;
    return true;
}

static bool decode_movmatrix(ex_decoder *d, ex_instr *in, const mods *mo)
{
    const ptx_instr *pi = d->pi;
    if (!mo->has_shape || mo->m != 8 || mo->n != 8 || mo->k != 0 || !mo->trans ||
        mo->ntypes != 1 || mo->types[0] != PTX_T_B16 || pi->nopnds != 2)
        return fail(d, "movmatrix is .sync.aligned.m8n8.trans.b16 d, a");
    in->d = ex_opnd_slot(d, 0, PTX_T_B32);
    in->a = ex_opnd_slot(d, 1, PTX_T_B32);
    if (in->d == EX_NONE || in->a == EX_NONE)
        return fail(d, "movmatrix operands are 32-bit registers");
    in->fn = h_movmatrix;
    return true;
}

bool ex_decode_matrix(ex_decoder *d, ex_instr *in)
{
    mods mo;
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_WGMMA:
        return fail(d, "wgmma (warpgroup MMA with shared-memory descriptors)");
    case PTX_OP_TCGEN05:
        return fail(d, "tcgen05 (tensor memory)");
    default:
        break;
    }
    if (!parse_mods(d, &mo))
        return false;
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_MMA:
        return decode_mma(d, in, &mo, PTX_MMA_SYNC);
    case PTX_OP_WMMA:
        if (mo.wkind == MD_MMA)
            return decode_mma(d, in, &mo, PTX_MMA_WMMA);
        if (mo.wkind == MD_LOAD || mo.wkind == MD_STORE)
            return decode_wmma_mem(d, in, &mo);
        return fail(d, "wmma needs .load, .store or .mma");
    case PTX_OP_LDMATRIX:
        return decode_ldstmatrix(d, in, &mo, false);
    case PTX_OP_STMATRIX:
        return decode_ldstmatrix(d, in, &mo, true);
    case PTX_OP_MOVMATRIX:
        return decode_movmatrix(d, in, &mo);
    default:
        return fail(d, "matrix instruction");
    }
}
