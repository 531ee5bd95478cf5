/* api/textures.c — arrays, texture and surface objects, and .texref /
 * .surfref binding (api/ptxemu.h).
 *
 * An array is one device allocation laid out as runtime/texture.h says
 * (levels, layers, slices, rows; tight rows).  An object is a tex_desc
 * written into a small device allocation of its own; its address is the
 * handle kernels receive. */
#include "api/api_ctx.h"
#include "runtime/texture.h"

#include <string.h>

struct ptxemu_array {
    tex_desc d;                 /* layout template: shape, format, dims, levels, base */
    ptxemu_channel_desc fmt;
    ptxemu_extent ext;
    unsigned flags;
    ptxemu_array *parent;       /* a level view of `parent`, or NULL */
    ptxemu_array **views;       /* level views, created on demand */
};

/* Channel count and bytes of a CUDA channel format; false when it is not
 * one a texture unit reads (equal 8/16/32-bit channels x, xy or xyzw). */
static bool format_of(ptxemu_ctx *ctx, const ptxemu_channel_desc *f, tex_desc *d)
{
    int bits[4] = {f->x, f->y, f->z, f->w};
    int n = 0;
    while (n < 4 && bits[n] > 0)
        n++;
    bool ok = n == 1 || n == 2 || n == 4;
    for (int i = 0; i < 4; i++)
        if ((i < n && bits[i] != bits[0]) || (i >= n && bits[i] != 0))
            ok = false;
    if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)
        ok = false;
    if (f->f == PTXEMU_CHANNEL_FLOAT && bits[0] == 8)
        ok = false;
    if ((unsigned)f->f > PTXEMU_CHANNEL_FLOAT)
        ok = false;
    if (!ok) {
        api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                 "channel format {%d, %d, %d, %d, kind %d}: textures take 1, 2 or 4 equal "
                 "channels of 8, 16 or 32 bits (float: 16 or 32)", f->x, f->y, f->z, f->w,
                 (int)f->f);
        return false;
    }
    d->kind = (uint8_t)f->f;
    d->nch = (uint8_t)n;
    d->chbytes = (uint8_t)(bits[0] / 8);
    return true;
}

ptxemu_status ptxemu_array_create(ptxemu_ctx *ctx, ptxemu_array **out,
                                  const ptxemu_channel_desc *fmt, ptxemu_extent ext,
                                  unsigned flags, unsigned levels)
{
    if (!ctx || !out || !fmt)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "array_create: NULL argument");
    tex_desc d;
    memset(&d, 0, sizeof d);
    if (!format_of(ctx, fmt, &d))
        return PTXEMU_ERR_INVALID_VALUE;
    if (levels == 0)
        levels = 1;
    bool layered = flags & PTXEMU_ARRAY_LAYERED, cube = flags & PTXEMU_ARRAY_CUBEMAP;
    const size_t lim = 1u << 16; /* the largest texture dimension of any GPU (65536) */
    if (ext.width == 0 || ext.width > lim || ext.height > lim || ext.depth > lim ||
        levels > TEX_MAX_LEVELS || (flags & ~15u))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "array_create: extent %zux%zux%zu, %u levels, flags 0x%x", ext.width,
                        ext.height, ext.depth, levels, flags);
    d.width = (uint32_t)ext.width;
    d.height = ext.height ? (uint32_t)ext.height : 1;
    d.depth = 1;
    d.layers = 1;
    if (cube) {
        if (ext.width != ext.height || ext.depth == 0 || ext.depth % 6 ||
            (!layered && ext.depth != 6))
            return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                            "cube map arrays are square with depth 6 (layered: 6 x n)");
        d.shape = layered ? TEX_ACUBE : TEX_CUBE;
        d.layers = (uint32_t)ext.depth;
    } else if (layered) {
        if (ext.depth == 0)
            return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "layered array with 0 layers");
        d.shape = ext.height ? TEX_A2D : TEX_A1D;
        d.layers = (uint32_t)ext.depth;
    } else if (ext.depth) {
        if (!ext.height)
            return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "3D array with height 0");
        d.shape = TEX_3D;
        d.depth = (uint32_t)ext.depth;
    } else {
        d.shape = ext.height ? TEX_2D : TEX_1D;
    }
    d.nlevels = (uint8_t)levels;
    uint64_t bytes = tex_layout(&d);
    d.base = mem_alloc_bytes(&ctx->mem, bytes, false);
    if (!d.base)
        return api_fail(ctx, PTXEMU_ERR_OUT_OF_MEMORY,
                        "array of %llu bytes: the device has %llu bytes, %llu in use",
                        (unsigned long long)bytes, (unsigned long long)ctx->mem.limit,
                        (unsigned long long)ctx->mem.total);
    ptxemu_array *a = g_new0(ptxemu_array, 1);
    a->d = d;
    a->fmt = *fmt;
    a->ext = ext;
    a->flags = flags;
    a->views = g_new0(ptxemu_array *, levels);
    if (!ctx->arrays)
        ctx->arrays = g_ptr_array_new();
    g_ptr_array_add(ctx->arrays, a);
    *out = a;
    return api_ok(ctx);
}

static void array_free(ptxemu_array *a)
{
    for (unsigned l = 0; l < a->d.nlevels; l++)
        g_free(a->views[l]);
    g_free(a->views);
    g_free(a);
}

void api_arrays_free(ptxemu_ctx *ctx)
{
    if (!ctx->arrays)
        return;
    for (guint i = 0; i < ctx->arrays->len; i++)
        array_free(g_ptr_array_index(ctx->arrays, i));
    g_ptr_array_free(ctx->arrays, TRUE);
    ctx->arrays = NULL;
}

ptxemu_status ptxemu_array_destroy(ptxemu_ctx *ctx, ptxemu_array *a)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (!a)
        return api_ok(ctx);
    if (a->parent)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "array_destroy: a mipmap level belongs to its mipmapped array");
    ptxemu_status qs = api_queue_drain(ctx); /* queued work may read it */
    if (qs != PTXEMU_OK)
        return qs;
    if (!ctx->arrays || !g_ptr_array_remove_fast(ctx->arrays, a))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "array_destroy: not a live array");
    mem_free(&ctx->mem, a->d.base);
    array_free(a);
    return api_ok(ctx);
}

ptxemu_array *ptxemu_array_level(ptxemu_array *a, unsigned level)
{
    if (!a || a->parent || level >= a->d.nlevels)
        return NULL;
    if (!a->views[level]) {
        ptxemu_array *v = g_new0(ptxemu_array, 1);
        *v = *a;
        v->parent = a;
        v->views = NULL;
        v->d.base = a->d.base + a->d.level_off[level];
        v->d.width = tex_level_dim(a->d.width, level);
        v->d.height = tex_level_dim(a->d.height, level);
        v->d.depth = tex_level_dim(a->d.depth, level);
        v->d.nlevels = 1;
        memset(v->d.level_off, 0, sizeof v->d.level_off);
        v->ext.width = v->d.width;
        if (a->ext.height)
            v->ext.height = v->d.height;
        if (a->d.shape == TEX_3D)
            v->ext.depth = v->d.depth;
        a->views[level] = v;
    }
    return a->views[level];
}

void ptxemu_array_get_info(const ptxemu_array *a, ptxemu_channel_desc *fmt, ptxemu_extent *ext,
                           unsigned *flags, unsigned *levels)
{
    if (fmt)
        *fmt = a->fmt;
    if (ext)
        *ext = a->ext;
    if (flags)
        *flags = a->flags;
    if (levels)
        *levels = a->d.nlevels;
}

ptxemu_status ptxemu_array_copy(ptxemu_ctx *ctx, ptxemu_array *a, int to_array, size_t x,
                                size_t y, size_t z, const ptxemu_copy_side *m,
                                size_t width_bytes, size_t height, size_t depth)
{
    if (!ctx || !a || !m)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "array copy: NULL argument");
    const tex_desc *d = &a->d;
    uint64_t row = tex_row_bytes(d, 0);
    uint64_t slices = d->shape == TEX_3D ? d->depth : d->layers;
    height = height ? height : 1;
    depth = depth ? depth : 1;
    if (x > row || width_bytes > row - x || y > d->height || height > d->height - y ||
        z > slices || depth > slices - z)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "array copy of %zu bytes x %zu rows x %zu slices at (%zu, %zu, %zu) "
                        "exceeds the array (%llu bytes x %u rows x %llu slices)",
                        width_bytes, height, depth, x, y, z, (unsigned long long)row,
                        d->height, (unsigned long long)slices);
    size_t mpitch = m->pitch ? m->pitch : width_bytes;
    size_t mheight = m->height ? m->height : height;
    if (mpitch < width_bytes)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "array copy: pitch %zu < width %zu",
                        mpitch, width_bytes);
    ptxemu_status qs = api_queue_drain(ctx);
    if (qs != PTXEMU_OK)
        return qs;
    for (size_t k = 0; k < depth; k++)
        for (size_t j = 0; j < height; j++) {
            uint64_t arr = d->base + (z + k) * row * d->height + (y + j) * row + x;
            size_t off = (k * mheight + j) * mpitch;
            ptxemu_status s;
            if (m->host) {
                uint8_t *h = (uint8_t *)m->host + off;
                s = to_array ? api_htod(ctx, arr, h, width_bytes)
                             : api_dtoh(ctx, h, arr, width_bytes);
            } else {
                s = to_array ? api_dtod(ctx, arr, m->dev + off, width_bytes)
                             : api_dtod(ctx, m->dev + off, arr, width_bytes);
            }
            if (s != PTXEMU_OK)
                return s;
        }
    return api_ok(ctx);
}

/* ---------------------------------------------------------------- objects */

/* The resource part of a descriptor. */
static bool resource_of(ptxemu_ctx *ctx, const ptxemu_resource_desc *r, tex_desc *d)
{
    memset(d, 0, sizeof *d);
    switch (r->type) {
    case PTXEMU_RES_ARRAY: case PTXEMU_RES_MIPMAPPED:
        if (!r->array) {
            api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "resource: no array");
            return false;
        }
        *d = r->array->d;
        if (r->type == PTXEMU_RES_ARRAY && d->nlevels > 1)
            d->nlevels = 1; /* level 0 of a mipmapped array, as one array */
        return true;
    case PTXEMU_RES_LINEAR: case PTXEMU_RES_PITCH2D: {
        if (!format_of(ctx, &r->fmt, d))
            return false;
        uint64_t esz = tex_elem_bytes(d);
        uint64_t bytes;
        if (r->type == PTXEMU_RES_LINEAR) {
            d->shape = TEX_1D;
            d->linear = 1;
            d->width = (uint32_t)(r->size_bytes / esz);
            d->height = 1;
            bytes = r->size_bytes;
            if (r->size_bytes / esz > (1u << 27) || d->width == 0) {
                api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                         "linear resource of %zu bytes (1 to 2^27 elements)", r->size_bytes);
                return false;
            }
        } else {
            d->shape = TEX_2D;
            d->width = (uint32_t)r->width;
            d->height = (uint32_t)r->height;
            d->pitch = r->pitch_bytes;
            bytes = (uint64_t)r->pitch_bytes * r->height;
            if (!r->width || !r->height || r->width > 65536 || r->height > 65536 ||
                r->pitch_bytes < r->width * esz) {
                api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                         "pitch2D resource %zux%zu with pitch %zu", r->width, r->height,
                         r->pitch_bytes);
                return false;
            }
        }
        d->depth = d->layers = d->nlevels = 1;
        d->base = r->ptr;
        if (!mem_find(&ctx->mem, r->ptr, bytes)) {
            api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                     "resource at 0x%llx: %llu bytes are not inside one allocation",
                     (unsigned long long)r->ptr, (unsigned long long)bytes);
            return false;
        }
        return true;
    }
    default:
        api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "resource type %d", (int)r->type);
        return false;
    }
}

static ptxemu_status store_object(ptxemu_ctx *ctx, const tex_desc *d, uint64_t *out)
{
    uint64_t h = mem_alloc_bytes(&ctx->mem, sizeof *d, false);
    if (!h)
        return api_fail(ctx, PTXEMU_ERR_OUT_OF_MEMORY, "no device memory for an object");
    memcpy(mem_find(&ctx->mem, h, sizeof *d)->data, d, sizeof *d);
    *out = h;
    return api_ok(ctx);
}

ptxemu_status ptxemu_texture_create(ptxemu_ctx *ctx, uint64_t *tex,
                                    const ptxemu_resource_desc *res,
                                    const ptxemu_texture_desc *td)
{
    if (!ctx || !tex || !res || !td)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "texture_create: NULL argument");
    tex_desc d;
    if (!resource_of(ctx, res, &d))
        return PTXEMU_ERR_INVALID_VALUE;
    d.magic = TEX_MAGIC;
    for (int k = 0; k < 3; k++) {
        if (td->addr[k] < 0 || td->addr[k] > TEX_BORDER)
            return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "address mode %d", td->addr[k]);
        d.addr[k] = (uint8_t)td->addr[k];
    }
    d.filter = td->filter != 0;
    d.mipfilter = td->mip_filter != 0;
    d.normalized = td->normalized != 0;
    d.read_norm = td->read_normalized != 0;
    if (d.read_norm && d.kind != TEX_FLOAT && d.chbytes == 4)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "normalised-float reads take 8- or 16-bit integer channels");
    bool float_results = d.kind == TEX_FLOAT || d.read_norm;
    if (d.filter && !float_results)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "linear filtering needs float results (float channels or "
                        "normalised-float reads)");
    if (td->srgb)
        return api_fail(ctx, PTXEMU_ERR_UNSUPPORTED, "not supported yet: sRGB textures");
    if (td->max_aniso > 1)
        return api_fail(ctx, PTXEMU_ERR_UNSUPPORTED,
                        "not supported yet: anisotropic filtering (maxAnisotropy %u)",
                        td->max_aniso);
    memcpy(d.border, td->border, sizeof d.border);
    d.lod_bias = td->lod_bias;
    d.min_lod = td->min_lod;
    d.max_lod = td->max_lod;
    return store_object(ctx, &d, tex);
}

ptxemu_status ptxemu_surface_create(ptxemu_ctx *ctx, uint64_t *surf,
                                    const ptxemu_resource_desc *res)
{
    if (!ctx || !surf || !res)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "surface_create: NULL argument");
    if (res->type != PTXEMU_RES_ARRAY || !res->array ||
        !(res->array->flags & PTXEMU_ARRAY_SURFACE))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "a surface needs an array made with the surface load/store flag");
    tex_desc d;
    if (!resource_of(ctx, res, &d))
        return PTXEMU_ERR_INVALID_VALUE;
    d.magic = SURF_MAGIC;
    return store_object(ctx, &d, surf);
}

ptxemu_status ptxemu_object_destroy(ptxemu_ctx *ctx, uint64_t h)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (!h)
        return api_ok(ctx);
    ptxemu_status qs = api_queue_drain(ctx);
    if (qs != PTXEMU_OK)
        return qs;
    mem_alloc *a = mem_find(&ctx->mem, h, sizeof(tex_desc));
    uint32_t magic = 0;
    if (a && a->base == h)
        memcpy(&magic, a->data, 4);
    if (magic != TEX_MAGIC && magic != SURF_MAGIC)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE,
                        "0x%llx is not a texture or surface object", (unsigned long long)h);
    memset(a->data, 0, 4); /* a stale handle faults rather than reading freed texels */
    mem_free(&ctx->mem, h);
    return api_ok(ctx);
}

ptxemu_status ptxemu_module_bind_ref(ptxemu_module *mod, const char *name, uint64_t handle)
{
    if (!mod || !name)
        return PTXEMU_ERR_INVALID_VALUE;
    int32_t s = ptx_module_find(mod->ir, name);
    const ptx_var *v = s >= 0 && ptx_module_sym(mod->ir, s)->kind == PTX_SYM_VAR
                           ? ptx_module_var(mod->ir, ptx_module_sym(mod->ir, s)->index)
                           : NULL;
    if (!v || (v->type != PTX_T_TEXREF && v->type != PTX_T_SURFREF) ||
        v->space != PTX_SPACE_GLOBAL)
        return api_fail(mod->ctx, PTXEMU_ERR_NOT_FOUND,
                        "no module-scope .texref or .surfref named '%s'", name);
    return ptxemu_memcpy_to_symbol(mod, name, &handle, 8, 0);
}
