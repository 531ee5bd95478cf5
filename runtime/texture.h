/* runtime/texture.h — texture and surface objects: the descriptor that a
 * 64-bit handle points at, and the texel arithmetic of the texture unit.
 *
 * A texture or surface object (CUDA's cudaTextureObject_t and
 * cudaSurfaceObject_t, PTX's unified mode) is the device address of a
 * tex_desc stored in device memory; a module-scope .texref/.surfref holds
 * such a handle (8 bytes), so "bindless" and "bound" take one path.  The
 * descriptor says where the texels are, their format, and (for textures)
 * the sampler state.  Texels of every resource are laid out row-major:
 * level l, layer (cube face), z, y, x; rows of level 0 may have a pitch.
 *
 * The rules come from the CUDA C++ Programming Guide, "Texture Fetching"
 * appendix (point and linear filtering with 9-bit fixed-point weights of 8
 * fractional bits, the addressing modes, cube-map face selection) and the
 * PTX ISA (tex, tld4, txq, suld, sust, suq). */
#ifndef PTXEMU_RUNTIME_TEXTURE_H
#define PTXEMU_RUNTIME_TEXTURE_H

#include "runtime/memory.h"

#include <stdbool.h>
#include <stdint.h>

#define TEX_MAGIC 0x58455450u   /* "PTEX" */
#define SURF_MAGIC 0x46525553u  /* "SURF" */
#define TEX_MAX_LEVELS 16u

/* Resource geometry (PTX .geom). */
typedef enum tex_shape {
    TEX_1D, TEX_2D, TEX_3D, TEX_A1D, TEX_A2D, TEX_CUBE, TEX_ACUBE,
} tex_shape;
/* Channel kinds, with CUDA's cudaChannelFormatKind values. */
typedef enum tex_kind { TEX_SIGNED = 0, TEX_UNSIGNED = 1, TEX_FLOAT = 2 } tex_kind;
/* Addressing modes, with cudaTextureAddressMode values. */
typedef enum tex_addr { TEX_WRAP = 0, TEX_CLAMP = 1, TEX_MIRROR = 2, TEX_BORDER = 3 } tex_addr;

typedef struct tex_desc {
    uint32_t magic;             /* TEX_MAGIC or SURF_MAGIC */
    uint8_t shape;              /* tex_shape */
    uint8_t kind;               /* tex_kind of every channel */
    uint8_t nch;                /* channels 1, 2 or 4 */
    uint8_t chbytes;            /* bytes per channel: 1, 2 or 4 (float: 2 = half) */
    uint8_t linear;             /* linear-memory resource (tex1Dfetch: out of range = 0) */
    uint8_t nlevels;            /* mipmap levels, >= 1 */
    uint8_t addr[3];            /* tex_addr per dimension */
    uint8_t filter;             /* 0 point, 1 linear */
    uint8_t mipfilter;          /* 0 point, 1 linear */
    uint8_t normalized;         /* coordinates in [0, 1) */
    uint8_t read_norm;          /* integer texels read as normalised floats */
    uint8_t pad_[3];
    uint32_t width, height, depth, layers; /* level 0; 1 for unused; cube: 6 per cube */
    float border[4];
    float lod_bias, min_lod, max_lod;
    uint32_t max_aniso;
    uint64_t base;              /* device address of level 0 */
    uint64_t pitch;             /* row bytes of level 0 (0: width * element) */
    uint64_t level_off[TEX_MAX_LEVELS]; /* bytes from base to each level */
} tex_desc;

static inline uint32_t tex_elem_bytes(const tex_desc *t)
{
    return (uint32_t)t->nch * t->chbytes;
}
static inline uint32_t tex_level_dim(uint32_t d, unsigned level)
{
    uint32_t v = d >> level;
    return v ? v : 1;
}
/* Row and slice strides of a level, in bytes. */
uint64_t tex_row_bytes(const tex_desc *t, unsigned level);
/* Bytes one level takes (all layers). */
uint64_t tex_level_bytes(const tex_desc *t, unsigned level);
/* Bytes a resource of this geometry needs for all levels, filling
 * level_off (tight rows). */
uint64_t tex_layout(tex_desc *t);
/* The address of texel (x, y, z, layer) of `level` (no bounds check). */
uint64_t tex_texel_addr(const tex_desc *t, unsigned level, uint32_t x, uint32_t y,
                        uint32_t z, uint32_t layer);

/* One fetch's inputs, decided per lane. */
typedef enum tex_lod_mode { TEX_LOD_ZERO, TEX_LOD_LEVEL, TEX_LOD_GRAD } tex_lod_mode;
typedef struct tex_query {
    float c[3];                 /* coordinates (float forms) */
    int32_t ic[3];              /* coordinates (integer forms) */
    bool int_coords;
    uint32_t layer;             /* array index (a1d, a2d, acube) */
    uint8_t lod_mode;           /* tex_lod_mode */
    float lod;
    float dpdx[3], dpdy[3];
} tex_query;

/* What a fetch produced: four 32-bit values (f32 bits when `is_float`),
 * and the first texel address it read (for the timing model, 0: none). */
typedef struct tex_result {
    uint32_t v[4];
    bool is_float;
    uint64_t first_addr;
} tex_result;

/* tex: filtered fetch.  false (with *err) when a texel lies outside
 * device memory. */
bool tex_fetch(const tex_desc *t, dev_memory *mem, mem_alloc **hint, const tex_query *q,
               tex_result *out, const char **err);
/* tld4.comp: component `comp` of the four texels of the bilinear
 * footprint, counter-clockwise from the lower left: (i0,j1) (i1,j1)
 * (i1,j0) (i0,j0). */
bool tex_gather(const tex_desc *t, dev_memory *mem, mem_alloc **hint, const tex_query *q,
                unsigned comp, tex_result *out, const char **err);

/* Quantises a filter weight to CUDA's 9-bit fixed point (8 fraction bits);
 * a NaN (from an infinite coordinate) weighs 0. */
static inline float tex_weight(float frac)
{
    if (!(frac >= 0.0f && frac <= 1.0f))
        return 0.0f;
    return (float)(int)(frac * 256.0f + 0.5f) / 256.0f;
}

/* Whether a descriptor's fields are in range (it lives in device memory,
 * where a stray store can change it). */
static inline bool tex_desc_valid(const tex_desc *t)
{
    return t->shape <= TEX_ACUBE && t->kind <= TEX_FLOAT &&
           (t->nch == 1 || t->nch == 2 || t->nch == 4) &&
           (t->chbytes == 1 || t->chbytes == 2 || t->chbytes == 4) && t->nlevels >= 1 &&
           t->nlevels <= TEX_MAX_LEVELS && t->width && t->height && t->depth && t->layers &&
           t->addr[0] <= TEX_BORDER && t->addr[1] <= TEX_BORDER && t->addr[2] <= TEX_BORDER;
}

#endif
