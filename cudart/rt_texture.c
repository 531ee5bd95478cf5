/* cudart/rt_texture.c — CUDA arrays (plain, layered, cube, 3D, mipmapped)
 * and texture/surface objects over the host API (api/textures.c).
 * A cudaArray_t or cudaMipmappedArray_t is a ptxemu_array*; a texture or
 * surface object is the emulator's 64-bit handle.  The CUDA descriptors
 * an object was made from are kept for the cudaGet*ObjectDesc calls.
 * CUDA 13 has no texture references, so there is no bind call to offer. */
#include "cudart/rt_texture.h"

#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

/* driver_types.h / texture_types.h, CUDA 13.0 */
struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f;
};
struct cudaResourceDesc {
    int resType;
    union {
        struct { void *array; } array;
        struct { void *mipmap; } mipmap;
        struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned flags;
};
struct cudaTextureDesc {
    int addressMode[3];
    int filterMode;
    int readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
struct cudaResourceViewDesc;

enum { ARRAY_OWNED = 1, ARRAY_LEVEL = 2 };

typedef struct rt_array_rec {
    int kind;                   /* ARRAY_OWNED, ARRAY_LEVEL */
    bool mipmapped;             /* made by cudaMallocMipmappedArray */
} rt_array_rec;

typedef struct rt_texobj {
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    bool surface;
} rt_texobj;

ptxemu_array *rt_array(cudart *rt, const void *handle)
{
    return handle && g_hash_table_contains(rt->arrays, handle) ? (ptxemu_array *)handle : NULL;
}

void rt_texture_reset(cudart *rt)
{
    /* the arrays themselves go with the context (ptxemu_ctx_destroy) */
    g_hash_table_remove_all(rt->arrays);
    g_hash_table_remove_all(rt->tex_objects);
}

static cudaError_t make_array(cudart *rt, void **out, const struct cudaChannelFormatDesc *d,
                              struct cudaExtent e, unsigned levels, unsigned flags, bool mip)
{
    if (!out || !d)
        return cudaErrorInvalidValue;
    if (!rt->ctx)
        return rt->init_error;
    ptxemu_channel_desc cd = {d->x, d->y, d->z, d->w, (ptxemu_channel_kind)d->f};
    ptxemu_extent ext = {e.width, e.height, e.depth};
    ptxemu_array *a;
    ptxemu_status s = ptxemu_array_create(rt->ctx, &a, &cd, ext, flags, levels);
    if (s != PTXEMU_OK)
        return rt_status(rt, s, mip ? "cudaMallocMipmappedArray" : "cudaMallocArray");
    rt_array_rec *r = g_new0(rt_array_rec, 1);
    r->kind = ARRAY_OWNED;
    r->mipmapped = mip;
    g_hash_table_insert(rt->arrays, a, r);
    *out = a;
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMallocArray(void **array, const struct cudaChannelFormatDesc *desc,
                                          size_t width, size_t height, unsigned flags)
{
    cudart *rt = rt_enter();
    struct cudaExtent e = {width, height, 0};
    return rt_leave(rt, make_array(rt, array, desc, e, 1, flags, false));
}

CUDART_EXPORT cudaError_t cudaMalloc3DArray(void **array, const struct cudaChannelFormatDesc *desc,
                                            struct cudaExtent extent, unsigned flags)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, make_array(rt, array, desc, extent, 1, flags, false));
}

CUDART_EXPORT cudaError_t cudaMallocMipmappedArray(void **mipmap,
                                                   const struct cudaChannelFormatDesc *desc,
                                                   struct cudaExtent extent, unsigned levels,
                                                   unsigned flags)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, make_array(rt, mipmap, desc, extent, levels, flags, true));
}

CUDART_EXPORT cudaError_t cudaGetMipmappedArrayLevel(void **level, const void *mipmap,
                                                     unsigned n)
{
    cudart *rt = rt_enter();
    ptxemu_array *a = rt_array(rt, mipmap);
    ptxemu_array *l = a && level ? ptxemu_array_level(a, n) : NULL;
    if (!l)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!g_hash_table_contains(rt->arrays, l)) {
        rt_array_rec *r = g_new0(rt_array_rec, 1);
        r->kind = ARRAY_LEVEL;
        g_hash_table_insert(rt->arrays, l, r);
    }
    *level = l;
    return rt_leave(rt, cudaSuccess);
}

static cudaError_t free_array(cudart *rt, void *array, bool mip)
{
    if (!array)
        return cudaSuccess;
    ptxemu_array *a = rt_array(rt, array);
    rt_array_rec *r = a ? g_hash_table_lookup(rt->arrays, a) : NULL;
    if (!r || r->kind != ARRAY_OWNED || r->mipmapped != mip)
        return cudaErrorInvalidValue;
    unsigned levels;
    ptxemu_array_get_info(a, NULL, NULL, NULL, &levels);
    for (unsigned l = 0; l < levels && mip; l++) /* its level handles go with it */
        g_hash_table_remove(rt->arrays, ptxemu_array_level(a, l));
    g_hash_table_remove(rt->arrays, a);
    return rt_status(rt, ptxemu_array_destroy(rt->ctx, a), "cudaFreeArray");
}

CUDART_EXPORT cudaError_t cudaFreeArray(void *array)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, free_array(rt, array, false));
}

CUDART_EXPORT cudaError_t cudaFreeMipmappedArray(void *mipmap)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, free_array(rt, mipmap, true));
}

CUDART_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                           struct cudaExtent *extent, unsigned *flags,
                                           void *array)
{
    cudart *rt = rt_enter();
    ptxemu_array *a = rt_array(rt, array);
    if (!a)
        return rt_leave(rt, cudaErrorInvalidValue);
    ptxemu_channel_desc cd;
    ptxemu_extent e;
    ptxemu_array_get_info(a, &cd, &e, flags, NULL);
    if (desc)
        *desc = (struct cudaChannelFormatDesc){cd.x, cd.y, cd.z, cd.w, (int)cd.f};
    if (extent)
        *extent = (struct cudaExtent){e.width, e.height, e.depth};
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, const void *array)
{
    return cudaArrayGetInfo(desc, NULL, NULL, (void *)array);
}

/* ---------------------------------------------------------------- objects */

static cudaError_t resource_of(cudart *rt, const struct cudaResourceDesc *r,
                               ptxemu_resource_desc *out)
{
    memset(out, 0, sizeof *out);
    out->type = (ptxemu_resource_type)r->resType;
    switch (r->resType) {
    case PTXEMU_RES_ARRAY:
        out->array = rt_array(rt, r->res.array.array);
        return out->array ? cudaSuccess : cudaErrorInvalidResourceHandle;
    case PTXEMU_RES_MIPMAPPED:
        out->array = rt_array(rt, r->res.mipmap.mipmap);
        return out->array ? cudaSuccess : cudaErrorInvalidResourceHandle;
    case PTXEMU_RES_LINEAR: {
        const struct cudaChannelFormatDesc *d = &r->res.linear.desc;
        out->ptr = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        out->fmt = (ptxemu_channel_desc){d->x, d->y, d->z, d->w, (ptxemu_channel_kind)d->f};
        out->size_bytes = r->res.linear.sizeInBytes;
        return cudaSuccess;
    }
    case PTXEMU_RES_PITCH2D: {
        const struct cudaChannelFormatDesc *d = &r->res.pitch2D.desc;
        out->ptr = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        out->fmt = (ptxemu_channel_desc){d->x, d->y, d->z, d->w, (ptxemu_channel_kind)d->f};
        out->width = r->res.pitch2D.width;
        out->height = r->res.pitch2D.height;
        out->pitch_bytes = r->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    }
    default:
        return cudaErrorInvalidValue;
    }
}

static void keep(cudart *rt, uint64_t h, const struct cudaResourceDesc *r,
                 const struct cudaTextureDesc *t)
{
    rt_texobj *o = g_new0(rt_texobj, 1);
    o->res = *r;
    if (t)
        o->tex = *t;
    o->surface = t == NULL;
    g_hash_table_insert(rt->tex_objects, (gpointer)(uintptr_t)h, o);
}

CUDART_EXPORT cudaError_t cudaCreateTextureObject(uint64_t *tex, const struct cudaResourceDesc *r,
                                                  const struct cudaTextureDesc *t,
                                                  const struct cudaResourceViewDesc *view)
{
    cudart *rt = rt_enter();
    if (!tex || !r || !t)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (view)
        return rt_leave(rt, rt_unsupported(rt, "cudaCreateTextureObject with a resource view "
                                               "(not supported yet)"));
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    ptxemu_resource_desc res;
    cudaError_t e = resource_of(rt, r, &res);
    if (e != cudaSuccess)
        return rt_leave(rt, e);
    ptxemu_texture_desc td;
    memset(&td, 0, sizeof td);
    memcpy(td.addr, t->addressMode, sizeof td.addr);
    td.filter = t->filterMode;
    td.read_normalized = t->readMode;
    td.srgb = t->sRGB;
    memcpy(td.border, t->borderColor, sizeof td.border);
    td.normalized = t->normalizedCoords;
    td.max_aniso = t->maxAnisotropy;
    td.mip_filter = t->mipmapFilterMode;
    td.lod_bias = t->mipmapLevelBias;
    td.min_lod = t->minMipmapLevelClamp;
    td.max_lod = t->maxMipmapLevelClamp;
    uint64_t h;
    ptxemu_status s = ptxemu_texture_create(rt->ctx, &h, &res, &td);
    if (s != PTXEMU_OK)
        return rt_leave(rt, rt_status(rt, s, "cudaCreateTextureObject"));
    keep(rt, h, r, t);
    *tex = h;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaCreateSurfaceObject(uint64_t *surf, const struct cudaResourceDesc *r)
{
    cudart *rt = rt_enter();
    if (!surf || !r)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    ptxemu_resource_desc res;
    cudaError_t e = resource_of(rt, r, &res);
    if (e != cudaSuccess)
        return rt_leave(rt, e);
    uint64_t h;
    ptxemu_status s = ptxemu_surface_create(rt->ctx, &h, &res);
    if (s != PTXEMU_OK)
        return rt_leave(rt, rt_status(rt, s, "cudaCreateSurfaceObject"));
    keep(rt, h, r, NULL);
    *surf = h;
    return rt_leave(rt, cudaSuccess);
}

static cudaError_t destroy(cudart *rt, uint64_t h, bool surface)
{
    rt_texobj *o = g_hash_table_lookup(rt->tex_objects, (gpointer)(uintptr_t)h);
    if (!o || o->surface != surface)
        return cudaErrorInvalidValue;
    g_hash_table_remove(rt->tex_objects, (gpointer)(uintptr_t)h);
    return rt_status(rt, ptxemu_object_destroy(rt->ctx, h), "cudaDestroyTextureObject");
}

CUDART_EXPORT cudaError_t cudaDestroyTextureObject(uint64_t tex)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, destroy(rt, tex, false));
}

CUDART_EXPORT cudaError_t cudaDestroySurfaceObject(uint64_t surf)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, destroy(rt, surf, true));
}

static cudaError_t get_desc(cudart *rt, uint64_t h, bool surface, struct cudaResourceDesc *r,
                            struct cudaTextureDesc *t)
{
    rt_texobj *o = g_hash_table_lookup(rt->tex_objects, (gpointer)(uintptr_t)h);
    if (!o || o->surface != surface || (!r && !t))
        return cudaErrorInvalidValue;
    if (r)
        *r = o->res;
    if (t)
        *t = o->tex;
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *r, uint64_t h)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, get_desc(rt, h, false, r, NULL));
}

CUDART_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *t, uint64_t h)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, get_desc(rt, h, false, NULL, t));
}

CUDART_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *r, uint64_t h)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, get_desc(rt, h, true, r, NULL));
}
