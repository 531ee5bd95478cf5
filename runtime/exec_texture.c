/* runtime/exec_texture.c — the texture family: tex, tld4, txq, suld, sust,
 * suq (PTX ISA "Texture Instructions" and "Surface Instructions").
 *
 * The texture or surface operand is a handle (runtime/texture.h): a .u64
 * register (unified mode: texture and surface objects), a kernel parameter
 * of type .texref/.surfref, or a module-scope .texref/.surfref variable,
 * whose 8 bytes hold the handle bound to it.  The handler reads the handle
 * per lane, checks that it names a descriptor, and runs the texel
 * arithmetic of runtime/texture.c.  Texture reads are recorded for the
 * timing model at the first texel each lane reads; surface accesses are
 * ordinary global accesses of the access size. */
#include "runtime/decode.h"
#include "runtime/texture.h"
#include "runtime/warp.h"

#include <string.h>

enum { SRC_REG, SRC_GLOBAL, SRC_KPARAM };
enum { SU_TRAP, SU_CLAMP, SU_ZERO };
/* txq/suq attributes */
enum {
    Q_WIDTH, Q_HEIGHT, Q_DEPTH, Q_DATA_TYPE, Q_ORDER, Q_NORMALIZED, Q_ARRAY_SIZE,
    Q_LEVELS, Q_SAMPLES, Q_FORCE_UNNORM, Q_FILTER, Q_ADDR0, Q_ADDR1, Q_ADDR2, Q_LAYOUT,
};

/* Decode-time facts of one texture-family instruction (owned by the
 * function's tables). */
typedef struct tex_ops {
    uint32_t dst[4];            /* destination elements (EX_NONE: sink) */
    uint32_t coord[4];          /* coordinate vector elements */
    uint32_t data[4];           /* sust source elements */
    uint32_t dx[4], dy[4];      /* .grad vectors */
    uint32_t lod;               /* .level operand */
    uint32_t handle;            /* register holding the handle (SRC_REG) */
    uint64_t where;             /* SRC_GLOBAL address or SRC_KPARAM offset */
    uint8_t src;
    uint8_t shape;              /* tex_shape */
    uint8_t ndst, ncoord, ndata;
    uint8_t int_coords;
    uint8_t lod_mode;
    uint8_t comp;               /* tld4 component */
    uint8_t query;              /* txq/suq attribute */
    uint8_t mode;               /* SU_* */
    uint8_t elem;               /* suld/sust element bytes */
    uint8_t nvec;               /* suld/sust elements */
    uint8_t is_surface;
    uint8_t redop;              /* sured: RED_* */
} tex_ops;

enum { RED_NONE, RED_ADD, RED_MIN, RED_MAX, RED_AND, RED_OR };

/* ------------------------------------------------------------ handlers */

/* The descriptor lane `l` names, or NULL after a fault. */
static const tex_desc *lane_desc(ex_warp *w, const tex_ops *o, unsigned l)
{
    uint64_t h = 0;
    if (o->src == SRC_REG) {
        h = w->r[o->handle][l];
    } else if (o->src == SRC_KPARAM) {
        if (o->where + 8 <= w->launch->kparam_size)
            memcpy(&h, w->launch->kparams + o->where, 8);
    } else {
        const uint8_t *p = mem_ptr(w->launch->mem, o->where, 8, &w->hint);
        if (p)
            memcpy(&h, p, 8);
    }
    const char *what = o->is_surface ? "surface" : "texture";
    mem_alloc *hint = NULL;
    const uint8_t *p = h ? mem_ptr(w->launch->mem, h, sizeof(tex_desc), &hint) : NULL;
    const tex_desc *t = (const tex_desc *)(const void *)p;
    if (!t || ((uintptr_t)p & 7u) ||
        t->magic != (o->is_surface ? SURF_MAGIC : TEX_MAGIC) || !tex_desc_valid(t)) {
        ex_fault(w, (int)l, "0x%llx is not a %s handle (unbound %sref, a destroyed or "
                 "wrong-kind object, or an overwritten descriptor)", (unsigned long long)h, what,
                 o->is_surface ? "surf" : "tex");
        return NULL;
    }
    return t;
}

static const char *const shape_names[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};

/* The instruction's geometry must be the resource's (a cube map's faces
 * are surfaces of a layered 2D array). */
static bool shape_ok(ex_warp *w, const tex_ops *o, const tex_desc *t, unsigned l)
{
    if (t->shape == o->shape ||
        (o->is_surface && o->shape == TEX_A2D && (t->shape == TEX_CUBE || t->shape == TEX_ACUBE)))
        return true;
    ex_fault(w, (int)l, "%s.%s on a %s resource", o->is_surface ? "surface access" : "tex",
             shape_names[o->shape], shape_names[t->shape < 7 ? t->shape : 0]);
    return false;
}

static float rf(const ex_warp *w, uint32_t slot, unsigned l)
{
    uint32_t bits = (uint32_t)w->r[slot][l];
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Coordinates in PTX order: arrays put the layer first. */
static void lane_query(const ex_warp *w, const tex_ops *o, unsigned l, tex_query *q)
{
    memset(q, 0, sizeof *q);
    unsigned first = 0;
    if (o->shape == TEX_A1D || o->shape == TEX_A2D || o->shape == TEX_ACUBE) {
        q->layer = (uint32_t)w->r[o->coord[0]][l];
        first = 1;
    }
    q->int_coords = o->int_coords;
    for (unsigned k = 0; k < 3 && first + k < o->ncoord; k++) {
        q->ic[k] = (int32_t)(uint32_t)w->r[o->coord[first + k]][l];
        q->c[k] = rf(w, o->coord[first + k], l);
    }
    q->lod_mode = o->lod_mode;
    if (o->lod_mode == TEX_LOD_LEVEL) {
        q->lod = rf(w, o->lod, l);
    } else if (o->lod_mode == TEX_LOD_GRAD) {
        for (unsigned k = 0; k < 3; k++) {
            q->dpdx[k] = o->dx[k] != EX_NONE ? rf(w, o->dx[k], l) : 0.0f;
            q->dpdy[k] = o->dy[k] != EX_NONE ? rf(w, o->dy[k], l) : 0.0f;
        }
    }
}

static void record_read(ex_warp *w, const ex_instr *in, unsigned l, uint64_t addr,
                        unsigned size, bool write)
{
    ex_access *r = w->rec;
    if (!r || !addr)
        return;
    r->mask |= 1u << l;
    r->space = write ? EX_SPACE_GLOBAL : EX_SPACE_TEX;
    r->order = in->order;
    r->size = (uint16_t)size;
    r->write = write;
    r->addr[l] = addr;
}

static void h_tex(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const tex_ops *o = in->ext;
    EX_LANES(mask, l, {
        const tex_desc *t = lane_desc(w, o, l);
        if (!t || !shape_ok(w, o, t, l))
            return;
        tex_query q;
        lane_query(w, o, l, &q);
        tex_result res;
        const char *err = NULL;
        bool ok = in->op == PTX_OP_TLD4
                      ? tex_gather(t, w->launch->mem, &w->hint, &q, o->comp, &res, &err)
                      : tex_fetch(t, w->launch->mem, &w->hint, &q, &res, &err);
        if (!ok) {
            ex_fault(w, (int)l, "%s: %s", in->op == PTX_OP_TLD4 ? "tld4" : "tex", err);
            return;
        }
        record_read(w, in, l, res.first_addr, tex_elem_bytes(t), false);
        for (unsigned k = 0; k < o->ndst; k++)
            if (o->dst[k] != EX_NONE)
                w->r[o->dst[k]][l] = res.v[k];
    });
}

static uint32_t query_value(const tex_desc *t, unsigned query, unsigned level)
{
    static const uint32_t norm[2][3] = {{0x10D0, 0x10D1, 0}, {0x10D2, 0x10D3, 0}};
    static const uint32_t plain[3][3] = {{0x10D7, 0x10D8, 0x10D9}, {0x10DA, 0x10DB, 0x10DC},
                                         {0, 0x10DD, 0x10DE}};
    unsigned bi = t->chbytes == 1 ? 0 : t->chbytes == 2 ? 1 : 2;
    switch (query) {
    case Q_WIDTH: return tex_level_dim(t->width, level);
    case Q_HEIGHT: return tex_level_dim(t->height, level);
    case Q_DEPTH: return tex_level_dim(t->depth, level);
    case Q_DATA_TYPE: /* OpenCL channel data types (PTX: the source language's enum) */
        if (t->read_norm && t->kind != TEX_FLOAT && bi < 2)
            return norm[t->kind == TEX_UNSIGNED][bi];
        return plain[t->kind][bi];
    case Q_ORDER: return t->nch == 1 ? 0x10B0 : t->nch == 2 ? 0x10B2 : 0x10B5;
    case Q_NORMALIZED: return t->normalized;
    case Q_ARRAY_SIZE:
        return t->shape == TEX_ACUBE ? t->layers / 6
               : (t->shape == TEX_A1D || t->shape == TEX_A2D) ? t->layers : 0;
    case Q_LEVELS: return t->nlevels;
    case Q_SAMPLES: return 1;
    case Q_FORCE_UNNORM: return !t->normalized;
    case Q_FILTER: return t->filter;
    case Q_ADDR0: return t->addr[0];
    case Q_ADDR1: return t->addr[1];
    case Q_ADDR2: return t->addr[2];
    case Q_LAYOUT: return t->pitch != 0 || t->linear; /* 1: pitch-linear */
    default: return 0;
    }
}

static void h_query(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const tex_ops *o = in->ext;
    EX_LANES(mask, l, {
        const tex_desc *t = lane_desc(w, o, l);
        if (!t)
            return;
        unsigned level = o->lod != EX_NONE ? (unsigned)w->r[o->lod][l] : 0;
        uint32_t v = level < t->nlevels || o->lod == EX_NONE ? query_value(t, o->query, level)
                                                              : 0;
        w->r[in->d][l] = v;
    });
}

/* The address of a surface access, after the boundary mode; 0 for a
 * .zero access out of bounds; false after a .trap fault. */
static bool surface_addr(ex_warp *w, const tex_ops *o, const tex_desc *t, unsigned l,
                         uint64_t *addr)
{
    int64_t c[3] = {0, 0, 0};
    int64_t layer = 0;
    unsigned first = 0;
    if (o->shape == TEX_A1D || o->shape == TEX_A2D) {
        layer = (int32_t)(uint32_t)w->r[o->coord[0]][l];
        first = 1;
    }
    unsigned nspace = o->shape == TEX_3D ? 3 : (o->shape == TEX_1D || o->shape == TEX_A1D) ? 1 : 2;
    for (unsigned k = 0; k < nspace && first + k < o->ncoord; k++)
        c[k] = (int32_t)(uint32_t)w->r[o->coord[first + k]][l];
    unsigned size = (unsigned)o->elem * o->nvec;
    int64_t row = (int64_t)t->width * tex_elem_bytes(t);
    int64_t lim[4] = {row - size, (int64_t)t->height - 1, (int64_t)t->depth - 1,
                      (int64_t)(t->layers ? t->layers : 1) - 1};
    int64_t *v[4] = {&c[0], &c[1], &c[2], &layer};
    bool out = false;
    for (int k = 0; k < 4; k++)
        if (*v[k] < 0 || *v[k] > lim[k])
            out = true;
    if (out) {
        if (o->mode == SU_TRAP) {
            ex_fault(w, (int)l, "surface access out of bounds (.trap): byte x %lld, y %lld, "
                     "z %lld, layer %lld of a %ux%ux%u surface with %u layers, %u-byte "
                     "elements", (long long)c[0], (long long)c[1], (long long)c[2],
                     (long long)layer, t->width, t->height, t->depth, t->layers,
                     tex_elem_bytes(t));
            return false;
        }
        if (o->mode == SU_ZERO) {
            *addr = 0;
            return true;
        }
        for (int k = 0; k < 4; k++) /* .clamp: the nearest location */
            *v[k] = *v[k] < 0 ? 0 : *v[k] > lim[k] ? lim[k] : *v[k];
        if (lim[0] < 0)
            c[0] = 0;
        c[0] -= c[0] % size;
    }
    uint64_t rb = tex_row_bytes(t, 0), slice = rb * t->height;
    *addr = t->base + (uint64_t)layer * slice * t->depth + (uint64_t)c[2] * slice +
            (uint64_t)c[1] * rb + (uint64_t)c[0];
    return true;
}

static void h_suld(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const tex_ops *o = in->ext;
    EX_LANES(mask, l, {
        const tex_desc *t = lane_desc(w, o, l);
        if (!t || !shape_ok(w, o, t, l))
            return;
        uint64_t a;
        if (!surface_addr(w, o, t, l, &a))
            return;
        const uint8_t *p = NULL;
        if (a) {
            p = ex_addr(w, in, EX_SPACE_GLOBAL, a, (unsigned)o->elem * o->nvec, (int)l, false);
            if (!p)
                return;
        }
        for (unsigned k = 0; k < o->nvec; k++) {
            uint64_t v = 0;
            if (p)
                memcpy(&v, p + (size_t)k * o->elem, o->elem);
            if (o->dst[k] != EX_NONE)
                w->r[o->dst[k]][l] = v;
        }
    });
}

static void h_sust(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const tex_ops *o = in->ext;
    EX_LANES(mask, l, {
        const tex_desc *t = lane_desc(w, o, l);
        if (!t || !shape_ok(w, o, t, l))
            return;
        uint64_t a;
        if (!surface_addr(w, o, t, l, &a))
            return;
        if (!a)
            continue; /* .zero: the store is dropped */
        uint8_t *p = ex_addr(w, in, EX_SPACE_GLOBAL, a, (unsigned)o->elem * o->nvec, (int)l,
                             true);
        if (!p)
            return;
        for (unsigned k = 0; k < o->nvec; k++) {
            uint64_t v = w->r[o->data[k]][l];
            memcpy(p + (size_t)k * o->elem, &v, o->elem);
        }
    });
    ex_mark_progress(w);
}

/* sured.b: one read-modify-write of the element at the address (no
 * result); signed or unsigned min/max by the type. */
static void h_sured(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const tex_ops *o = in->ext;
    bool sgn = in->flags & EXF_SIGNED;
    EX_LANES(mask, l, {
        const tex_desc *t = lane_desc(w, o, l);
        if (!t || !shape_ok(w, o, t, l))
            return;
        uint64_t a;
        if (!surface_addr(w, o, t, l, &a))
            return;
        if (!a)
            continue; /* .zero: dropped */
        uint8_t *p = ex_addr(w, in, EX_SPACE_GLOBAL, a, o->elem, (int)l, true);
        if (!p)
            return;
        uint64_t old = 0, v = w->r[o->data[0]][l], r;
        memcpy(&old, p, o->elem);
        if (o->elem == 4 && sgn) { /* compare as 32-bit signed values */
            old = (uint64_t)(int64_t)(int32_t)old;
            v = (uint64_t)(int64_t)(int32_t)v;
        } else if (o->elem == 4) {
            v = (uint32_t)v;
        }
        bool lt = sgn ? (int64_t)v < (int64_t)old : v < old;
        switch (o->redop) {
        case RED_ADD: r = old + v; break;
        case RED_MIN: r = lt ? v : old; break;
        case RED_MAX: r = lt ? old : v; break;
        case RED_AND: r = old & v; break;
        default: r = old | v; break;
        }
        memcpy(p, &r, o->elem);
    });
    ex_mark_progress(w);
}

/* ------------------------------------------------------------ decoders */

static bool fail(ex_decoder *d, const char *msg)
{
    g_string_assign(d->why, msg);
    return false;
}

static const ptx_operand *elem(const ex_decoder *d, const ptx_operand *list, unsigned i)
{
    return &g_array_index(d->irf->operands, ptx_operand, list->id + (int32_t)i);
}

/* The elements of a vector operand (or one register) as slots of `type`. */
static int vector_slots(ex_decoder *d, const ptx_operand *o, ptx_type type, uint32_t *slots,
                        unsigned max)
{
    if (o->kind != PTX_OPND_VEC) {
        if (max < 1)
            return -1;
        slots[0] = o->kind == PTX_OPND_SINK ? EX_NONE : ex_slot(d, o, type);
        return o->kind == PTX_OPND_SINK || slots[0] != EX_NONE ? 1 : -1;
    }
    if ((unsigned)o->id2 > max)
        return -1;
    for (int i = 0; i < o->id2; i++) {
        const ptx_operand *e = elem(d, o, (unsigned)i);
        slots[i] = e->kind == PTX_OPND_SINK ? EX_NONE : ex_slot(d, e, type);
        if (e->kind != PTX_OPND_SINK && slots[i] == EX_NONE)
            return -1;
    }
    return o->id2;
}

/* The texture/surface named by the first element of [a, ...]. */
static bool decode_handle(ex_decoder *d, const ptx_operand *a, tex_ops *o)
{
    if (a->kind == PTX_OPND_REG) {
        o->src = SRC_REG;
        o->handle = ex_slot(d, a, PTX_T_U64);
        return o->handle != EX_NONE;
    }
    if (a->kind != PTX_OPND_SYM)
        return fail(d, "the texture or surface operand is a register or a .texref/.surfref name");
    const ptx_symbol *s = ptx_module_sym(d->ir, a->id);
    if (s->kind != PTX_SYM_VAR)
        return fail(d, "the texture or surface operand is a register or a .texref/.surfref name");
    const ptx_var *v = ptx_module_var(d->ir, s->index);
    if (v->type != PTX_T_TEXREF && v->type != PTX_T_SURFREF && v->type != PTX_T_U64 &&
        v->type != PTX_T_B64 && v->type != PTX_T_S64)
        return fail(d, "the named variable is not a .texref or .surfref");
    if (v->space == PTX_SPACE_PARAM && d->fn->is_entry && v->func >= 0) {
        o->src = SRC_KPARAM;
        o->where = d->mod->var_addr[s->index];
        return true;
    }
    if (v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST) {
        o->src = SRC_GLOBAL;
        o->where = d->mod->var_addr[s->index];
        return true;
    }
    return fail(d, "a .texref/.surfref that is a .func parameter");
}

/* The geometry and the other modifiers; returns false on an unknown one. */
static bool scan_mods(ex_decoder *d, tex_ops *o, int *geom_seen)
{
    static const char *const geoms[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
    static const char *const queries[] = {
        "width", "height", "depth", "channel_data_type", "channel_order",
        "normalized_coords", "array_size", "num_mipmap_levels", "num_samples",
        "force_unnormalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1",
        "addr_mode_2", "memory_layout"};
    const ptx_instr *pi = d->pi;
    *geom_seen = 0;
    o->query = 0xff;
    for (unsigned i = 0; i < pi->nmods; i++) {
        if (PTX_MOD_IS_TYPE(pi->mods[i]))
            continue;
        const char *m = ptx_module_mod_name(d->ir, pi->mods[i]);
        bool known = false;
        for (unsigned g = 0; g < G_N_ELEMENTS(geoms); g++)
            if (strcmp(m, geoms[g]) == 0) {
                o->shape = (uint8_t)g;
                *geom_seen = 1;
                known = true;
            }
        for (unsigned q = 0; q < G_N_ELEMENTS(queries); q++)
            if (strcmp(m, queries[q]) == 0) {
                o->query = (uint8_t)q;
                known = true;
            }
        if (known)
            continue;
        if (strcmp(m, "level") == 0) {
            o->lod_mode = TEX_LOD_LEVEL;
        } else if (strcmp(m, "grad") == 0) {
            o->lod_mode = TEX_LOD_GRAD;
        } else if (strcmp(m, "v2") == 0 || strcmp(m, "v4") == 0 ||
                   strcmp(m, "ca") == 0 || strcmp(m, "cg") == 0 || strcmp(m, "cs") == 0 ||
                   strcmp(m, "cv") == 0 || strcmp(m, "wb") == 0 || strcmp(m, "wt") == 0) {
            /* vector width from pi->vec; cache operators do not change values */
        } else if (strlen(m) == 1 && strchr("rgba", m[0])) {
            o->comp = (uint8_t)(strchr("rgba", m[0]) - "rgba");
        } else if (strcmp(m, "add") == 0 || strcmp(m, "min") == 0 || strcmp(m, "max") == 0 ||
                   strcmp(m, "and") == 0 || strcmp(m, "or") == 0) {
            o->redop = m[0] == 'a' ? (m[1] == 'd' ? RED_ADD : RED_AND)
                       : m[0] == 'o' ? RED_OR : m[1] == 'i' ? RED_MIN : RED_MAX;
        } else if (strcmp(m, "trap") == 0) {
            o->mode = SU_TRAP;
        } else if (strcmp(m, "clamp") == 0) {
            o->mode = SU_CLAMP;
        } else if (strcmp(m, "zero") == 0) {
            o->mode = SU_ZERO;
        } else {
            g_string_printf(d->why, ".%s", m);
            return false;
        }
    }
    return true;
}

static tex_ops *new_ops(ex_decoder *d, ex_instr *in)
{
    tex_ops *o = g_new0(tex_ops, 1);
    for (unsigned k = 0; k < 4; k++)
        o->dst[k] = o->coord[k] = o->data[k] = o->dx[k] = o->dy[k] = EX_NONE;
    o->lod = o->handle = EX_NONE;
    if (!d->fn->tables)
        d->fn->tables = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(d->fn->tables, o);
    in->ext = o;
    return o;
}

/* Coordinates needed by a geometry: tex/tld4 (texture) and suld/sust. */
static unsigned coords_needed(unsigned shape)
{
    static const unsigned n[] = {1, 2, 4, 2, 4, 4, 4};
    return n[shape];
}

static bool decode_tex(ex_decoder *d, ex_instr *in, bool gather)
{
    const ptx_instr *pi = d->pi;
    tex_ops *o = new_ops(d, in);
    int geom;
    if (!scan_mods(d, o, &geom))
        return false;
    if (!geom)
        return fail(d, "a geometry (.1d .2d .3d .a1d .a2d .cube .acube) is required");
    if (pi->ntypes != 2)
        return fail(d, "tex and tld4 take a destination and a coordinate type");
    ptx_type dt = (ptx_type)pi->types[0], ct = (ptx_type)pi->types[1];
    if (dt != PTX_T_F32 && dt != PTX_T_S32 && dt != PTX_T_U32)
        return fail(d, "destination types other than .f32, .s32 and .u32 (.f16/.f16x2)");
    if (ct != PTX_T_F32 && ct != PTX_T_S32)
        return fail(d, "coordinate types other than .f32 and .s32");
    if (gather && o->shape != TEX_2D && o->shape != TEX_A2D && o->shape != TEX_CUBE &&
        o->shape != TEX_ACUBE)
        return fail(d, "tld4 with a geometry other than .2d, .a2d, .cube, .acube");
    if (pi->vec != 4)
        return fail(d, "tex and tld4 return .v4 vectors");
    o->int_coords = ct == PTX_T_S32;
    const ptx_operand *dst = ex_opnd(d, 0), *addr = ex_opnd(d, 1);
    if (!dst || dst->kind != PTX_OPND_VEC)
        return fail(d, "a destination vector (predicate destinations d|p are not modelled)");
    int nd = vector_slots(d, dst, dt, o->dst, 4);
    if (nd < 1)
        return fail(d, "destination vector");
    o->ndst = (uint8_t)nd;
    if (!addr || addr->kind != PTX_OPND_ADDRLIST)
        return fail(d, "operand [tex, {coordinates}]");
    if (addr->id2 != 2)
        return fail(d, "an explicit sampler operand (independent texturing mode)");
    if (!decode_handle(d, elem(d, addr, 0), o))
        return false;
    const ptx_operand *cv = elem(d, addr, 1);
    bool array = o->shape == TEX_A1D || o->shape == TEX_A2D || o->shape == TEX_ACUBE;
    /* the array index is an integer whatever the coordinate type */
    uint32_t cs[4];
    int nc = vector_slots(d, cv, ct, cs, 4);
    /* vectors are padded to 4 elements; the last is unused except for .acube */
    unsigned need = coords_needed(o->shape);
    if (nc < (int)(need == 4 && o->shape != TEX_ACUBE ? 3 : need))
        return fail(d, "coordinate vector shorter than the geometry needs");
    for (int k = 0; k < nc; k++)
        o->coord[k] = cs[k];
    if (array)
        o->coord[0] = ex_slot(d, elem(d, cv, 0), PTX_T_U32);
    o->ncoord = (uint8_t)nc;
    unsigned next = 2;
    if (o->lod_mode == TEX_LOD_LEVEL) {
        o->lod = ex_opnd_slot(d, next, PTX_T_F32);
        if (o->lod == EX_NONE)
            return fail(d, ".level needs a level-of-detail operand");
        next++;
    } else if (o->lod_mode == TEX_LOD_GRAD) {
        const ptx_operand *gx = ex_opnd(d, next), *gy = ex_opnd(d, next + 1);
        if (!gx || !gy || vector_slots(d, gx, PTX_T_F32, o->dx, 4) < 1 ||
            vector_slots(d, gy, PTX_T_F32, o->dy, 4) < 1)
            return fail(d, ".grad needs dPdx and dPdy vectors");
        next += 2;
    }
    if (pi->nopnds > next)
        return fail(d, "texel offset or depth-compare operands");
    if (o->lod_mode != TEX_LOD_ZERO && o->int_coords)
        return fail(d, ".level/.grad with integer coordinates");
    in->fn = h_tex;
    return true;
}

static bool decode_query(ex_decoder *d, ex_instr *in, bool surface)
{
    const ptx_instr *pi = d->pi;
    tex_ops *o = new_ops(d, in);
    o->is_surface = surface;
    int geom;
    if (!scan_mods(d, o, &geom))
        return false;
    if (o->query == 0xff)
        return fail(d, "an attribute to query");
    bool tex_only = o->query == Q_NORMALIZED || o->query == Q_LEVELS ||
                    o->query == Q_SAMPLES || o->query >= Q_FORCE_UNNORM;
    if (o->query == Q_LAYOUT ? !surface : (surface && tex_only))
        return fail(d, "this attribute for this instruction");
    if (o->query >= Q_FORCE_UNNORM && o->query < Q_LAYOUT)
        o->is_surface = 0;
    in->d = ex_opnd_slot(d, 0, PTX_T_B32);
    const ptx_operand *a = ex_opnd(d, 1);
    if (in->d == EX_NONE || !a)
        return fail(d, "operands d, [a]");
    const ptx_operand *h = a;
    if (a->kind == PTX_OPND_ADDRLIST)
        h = elem(d, a, 0);
    else if (a->kind == PTX_OPND_ADDR) {
        ptx_operand r = {0};
        if (a->id >= 0) {
            r.kind = PTX_OPND_REG;
            r.id = a->id;
        } else {
            r.kind = PTX_OPND_SYM;
            r.id = a->id2;
        }
        if (!decode_handle(d, &r, o))
            return false;
        h = NULL;
    }
    if (h && !decode_handle(d, h, o))
        return false;
    if (o->lod_mode == TEX_LOD_LEVEL) {
        if (o->query > Q_DEPTH)
            return fail(d, "txq.level queries width, height or depth");
        o->lod = ex_opnd_slot(d, 2, PTX_T_U32);
        if (o->lod == EX_NONE)
            return fail(d, "txq.level needs a level operand");
    }
    (void)pi;
    in->fn = h_query;
    return true;
}

static bool decode_surface(ex_decoder *d, ex_instr *in, bool store)
{
    const ptx_instr *pi = d->pi;
    tex_ops *o = new_ops(d, in);
    o->is_surface = 1;
    for (unsigned i = 0; i < pi->nmods; i++)
        if (strcmp(ptx_module_mod_name(d->ir, pi->mods[i]), "p") == 0)
            return fail(d, "formatted surface access (.p)");
    int geom;
    if (!scan_mods(d, o, &geom))
        return false;
    if (!geom || o->shape > TEX_A2D)
        return fail(d, "a geometry .1d .2d .3d .a1d or .a2d is required");
    if (pi->ntypes != 1)
        return fail(d, "one data type (.b8 .b16 .b32 .b64)");
    ptx_type ty = (ptx_type)pi->types[0];
    unsigned sz = ptx_type_size(ty);
    if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
        return fail(d, "data type");
    o->elem = (uint8_t)sz;
    o->nvec = pi->vec ? pi->vec : 1;
    const ptx_operand *addr = ex_opnd(d, store ? 0 : 1), *val = ex_opnd(d, store ? 1 : 0);
    if (!addr || addr->kind != PTX_OPND_ADDRLIST || addr->id2 != 2 || !val)
        return fail(d, "operand [surf, {coordinates}]");
    if (!decode_handle(d, elem(d, addr, 0), o))
        return false;
    uint32_t cs[4];
    int nc = vector_slots(d, elem(d, addr, 1), PTX_T_S32, cs, 4);
    if (nc < (int)(coords_needed(o->shape) == 4 ? 3 : coords_needed(o->shape)))
        return fail(d, "coordinate vector shorter than the geometry needs");
    memcpy(o->coord, cs, sizeof(uint32_t) * (unsigned)nc);
    o->ncoord = (uint8_t)nc;
    int nv = vector_slots(d, val, ty, store ? o->data : o->dst, 4);
    if (nv != o->nvec)
        return fail(d, "value vector size does not match the vector width");
    if (store)
        for (int k = 0; k < nv; k++)
            if (o->data[k] == EX_NONE)
                return fail(d, "sink in a store");
    if (pi->nopnds != 2)
        return fail(d, "operands");
    in->fn = store ? h_sust : h_suld;
    return true;
}

/* istypep.type p, a: whether the handle names an object of that kind
 * (there are no sampler objects: .samplerref is always false). */
static void h_istypep(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    EX_LANES(mask, l, {
        uint64_t h = w->r[in->a][l];
        mem_alloc *hint = NULL;
        const uint8_t *p = h ? mem_ptr(w->launch->mem, h, sizeof(tex_desc), &hint) : NULL;
        uint32_t magic = 0;
        if (p)
            memcpy(&magic, p, 4);
        w->r[in->d][l] = in->imm != 0 && magic == (uint32_t)in->imm;
    });
}

static bool decode_istypep(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    if (pi->ntypes != 1 || pi->nopnds != 2)
        return fail(d, "istypep takes one type and operands p, a");
    ptx_type t = (ptx_type)pi->types[0];
    if (t != PTX_T_TEXREF && t != PTX_T_SURFREF && t != PTX_T_SAMPLERREF)
        return fail(d, "istypep's type is .texref, .samplerref or .surfref");
    in->imm = t == PTX_T_TEXREF ? TEX_MAGIC : t == PTX_T_SURFREF ? SURF_MAGIC : 0;
    in->d = ex_opnd_slot(d, 0, PTX_T_PRED);
    in->a = ex_opnd_slot(d, 1, PTX_T_U64);
    if (in->d == EX_NONE || in->a == EX_NONE)
        return fail(d, "istypep takes a predicate and a .u64 register");
    in->fn = h_istypep;
    return true;
}

/* sured.b.op.geom.ctype.mode [a, b], c (byte addressing). */
static bool decode_sured(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    tex_ops *o = new_ops(d, in);
    o->is_surface = 1;
    for (unsigned i = 0; i < pi->nmods; i++)
        if (strcmp(ptx_module_mod_name(d->ir, pi->mods[i]), "p") == 0)
            return fail(d, "sured.p (sample addressing)");
    int geom;
    if (!scan_mods(d, o, &geom))
        return false;
    if (!geom || o->shape > TEX_3D)
        return fail(d, "sured takes .1d, .2d or .3d");
    if (o->redop == RED_NONE)
        return fail(d, "sured needs .add, .min, .max, .and or .or");
    ptx_type ty = pi->ntypes == 1 ? (ptx_type)pi->types[0] : PTX_T_B32;
    if (pi->ntypes != 1 || (ty != PTX_T_U32 && ty != PTX_T_S32 && ty != PTX_T_B32 &&
                            ty != PTX_T_U64 && ty != PTX_T_S64))
        return fail(d, "sured.b type (.u32 .s32 .b32 .u64 .s64)");
    if ((o->redop == RED_AND || o->redop == RED_OR) && ty != PTX_T_B32)
        return fail(d, "sured .and/.or take .b32");
    if (ty == PTX_T_S32 || ty == PTX_T_S64)
        in->flags |= EXF_SIGNED;
    o->elem = (uint8_t)ptx_type_size(ty);
    o->nvec = 1;
    const ptx_operand *addr = ex_opnd(d, 0), *val = ex_opnd(d, 1);
    if (pi->nopnds != 2 || !addr || addr->kind != PTX_OPND_ADDRLIST || addr->id2 != 2)
        return fail(d, "operands [surf, {coordinates}], value");
    if (!decode_handle(d, elem(d, addr, 0), o))
        return false;
    uint32_t cs[4];
    int nc = vector_slots(d, elem(d, addr, 1), PTX_T_S32, cs, 4);
    if (nc < (int)(coords_needed(o->shape) == 4 ? 3 : coords_needed(o->shape)))
        return fail(d, "coordinate vector shorter than the geometry needs");
    memcpy(o->coord, cs, sizeof(uint32_t) * (unsigned)nc);
    o->ncoord = (uint8_t)nc;
    o->data[0] = ex_slot(d, val, ty);
    if (o->data[0] == EX_NONE)
        return fail(d, "value operand");
    in->fn = h_sured;
    return true;
}

bool ex_decode_texture(ex_decoder *d, ex_instr *in)
{
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_TEX: return decode_tex(d, in, false);
    case PTX_OP_TLD4: return decode_tex(d, in, true);
    case PTX_OP_TXQ: return decode_query(d, in, false);
    case PTX_OP_SUQ: return decode_query(d, in, true);
    case PTX_OP_SULD: return decode_surface(d, in, false);
    case PTX_OP_SUST: return decode_surface(d, in, true);
    case PTX_OP_SURED: return decode_sured(d, in);
    case PTX_OP_ISTYPEP: return decode_istypep(d, in);
    default:
        return fail(d, "this texture-family instruction");
    }
}
