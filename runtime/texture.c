/* runtime/texture.c — texel layout, addressing, filtering and mipmap level
 * selection of the texture unit (rules in runtime/texture.h). */
#include "runtime/texture.h"

#include "isa/half.h"

#include <math.h>
#include <string.h>

uint64_t tex_row_bytes(const tex_desc *t, unsigned level)
{
    if (level == 0 && t->pitch)
        return t->pitch;
    return (uint64_t)tex_level_dim(t->width, level) * tex_elem_bytes(t);
}

static uint32_t level_h(const tex_desc *t, unsigned level)
{
    return tex_level_dim(t->height, level);
}
static uint32_t level_d(const tex_desc *t, unsigned level)
{
    return tex_level_dim(t->depth, level);
}

uint64_t tex_level_bytes(const tex_desc *t, unsigned level)
{
    return tex_row_bytes(t, level) * level_h(t, level) * level_d(t, level) * t->layers;
}

uint64_t tex_layout(tex_desc *t)
{
    uint64_t off = 0;
    for (unsigned l = 0; l < t->nlevels && l < TEX_MAX_LEVELS; l++) {
        t->level_off[l] = off;
        off += tex_level_bytes(t, l);
        off = (off + 255u) & ~(uint64_t)255u; /* each level starts aligned */
    }
    return off;
}

uint64_t tex_texel_addr(const tex_desc *t, unsigned level, uint32_t x, uint32_t y, uint32_t z,
                        uint32_t layer)
{
    uint64_t row = tex_row_bytes(t, level);
    uint64_t slice = row * level_h(t, level);
    uint64_t lay = slice * level_d(t, level);
    return t->base + t->level_off[level] + layer * lay + z * slice + y * row +
           (uint64_t)x * tex_elem_bytes(t);
}

/* ------------------------------------------------------------- sampling */

/* The sampler a fetch uses: the descriptor's, except cube maps (directions
 * select a face; coordinates on the face are normalised and clamped). */
typedef struct samp {
    const tex_desc *t;
    dev_memory *mem;
    mem_alloc **hint;
    uint8_t mode[3];
    bool normalized;
    bool float_mode;            /* float results (float texels or normalised reads) */
    uint64_t first;
    const char **err;
} samp;

/* floor to an integer index without undefined conversions (NaN -> far left). */
static int64_t ifloor(float x)
{
    if (!(x > -1e9f))
        return -1000000000;
    if (x > 1e9f)
        return 1000000000;
    return (int64_t)floorf(x);
}

/* Texel-space coordinate of a float coordinate on axis k of n texels:
 * wrap and mirror act on normalised coordinates (Programming Guide:
 * they are only supported with normalised coordinates). */
static float axis_scale(const samp *s, unsigned k, float c, uint32_t n)
{
    if (!s->normalized)
        return c;
    if (s->mode[k] == TEX_WRAP) {
        c = c - floorf(c);
    } else if (s->mode[k] == TEX_MIRROR) {
        float f = floorf(c);
        float fr = c - f;
        c = (ifloor(f) & 1) ? 1.0f - fr : fr;
    }
    return c * (float)n;
}

/* A texel index after addressing; -1 for a border texel. */
static int64_t axis_index(const samp *s, unsigned k, int64_t i, uint32_t n)
{
    if (i >= 0 && i < (int64_t)n)
        return i;
    int64_t nn = n;
    switch (s->mode[k]) {
    case TEX_WRAP:
        return ((i % nn) + nn) % nn;
    case TEX_MIRROR: {
        int64_t p = ((i % (2 * nn)) + 2 * nn) % (2 * nn);
        return p < nn ? p : 2 * nn - 1 - p;
    }
    case TEX_BORDER:
        return -1;
    default:
        return i < 0 ? 0 : nn - 1;
    }
}

static int ndims(const tex_desc *t)
{
    switch (t->shape) {
    case TEX_1D: case TEX_A1D: return 1;
    case TEX_3D: return 3;
    default: return 2;
    }
}

/* One texel as four values (doubles hold every 32-bit integer exactly);
 * missing channels read 0 and alpha 1. */
static bool read_texel(samp *s, unsigned level, const int64_t idx[3], uint32_t layer,
                       double v[4])
{
    const tex_desc *t = s->t;
    if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0) {
        for (int c = 0; c < 4; c++)
            v[c] = s->float_mode ? (double)t->border[c] : (double)(int64_t)t->border[c];
        return true;
    }
    uint64_t a = tex_texel_addr(t, level, (uint32_t)idx[0], (uint32_t)idx[1],
                                (uint32_t)idx[2], layer);
    const uint8_t *p = mem_ptr(s->mem, a, tex_elem_bytes(t), s->hint);
    if (!p) {
        *s->err = "texel outside device memory (the resource was freed or is too small)";
        return false;
    }
    if (!s->first)
        s->first = a;
    for (int c = 0; c < 4; c++) {
        if (c >= t->nch) {
            v[c] = c == 3 ? 1.0 : 0.0;
            continue;
        }
        const uint8_t *q = p + (size_t)c * t->chbytes;
        double x;
        if (t->kind == TEX_FLOAT) {
            if (t->chbytes == 2) {
                uint16_t h;
                memcpy(&h, q, 2);
                x = ptx_f16_to_double(h);
            } else {
                float f;
                memcpy(&f, q, 4);
                x = f;
            }
        } else if (t->kind == TEX_UNSIGNED) {
            uint32_t u = t->chbytes == 1 ? q[0] : 0;
            if (t->chbytes == 2) {
                uint16_t h;
                memcpy(&h, q, 2);
                u = h;
            } else if (t->chbytes == 4) {
                memcpy(&u, q, 4);
            }
            x = u;
            if (t->read_norm && t->chbytes < 4)
                x /= t->chbytes == 1 ? 255.0 : 65535.0;
        } else {
            int32_t i = t->chbytes == 1 ? (int8_t)q[0] : 0;
            if (t->chbytes == 2) {
                int16_t h;
                memcpy(&h, q, 2);
                i = h;
            } else if (t->chbytes == 4) {
                memcpy(&i, q, 4);
            }
            x = i;
            if (t->read_norm && t->chbytes < 4) {
                x /= t->chbytes == 1 ? 127.0 : 32767.0;
                if (x < -1.0)
                    x = -1.0;
            }
        }
        v[c] = x;
    }
    return true;
}

/* A filtered sample of one level at texel-space coordinates x[]. */
static bool sample_level(samp *s, unsigned level, const float x[3], uint32_t layer,
                         double out[4])
{
    const tex_desc *t = s->t;
    int nd = ndims(t);
    uint32_t n[3] = {tex_level_dim(t->width, level), level_h(t, level), level_d(t, level)};
    if (!(t->filter && s->float_mode)) {
        int64_t idx[3] = {0, 0, 0};
        for (int k = 0; k < nd; k++)
            idx[k] = axis_index(s, (unsigned)k, ifloor(x[k]), n[k]);
        return read_texel(s, level, idx, layer, out);
    }
    int64_t i0[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    for (int k = 0; k < nd; k++) {
        float xb = x[k] - 0.5f;
        float f = floorf(xb);
        i0[k] = ifloor(xb);
        a[k] = tex_weight(xb - f);
    }
    for (int c = 0; c < 4; c++)
        out[c] = 0.0;
    for (unsigned corner = 0; corner < (1u << nd); corner++) {
        double w = 1.0;
        int64_t idx[3] = {0, 0, 0};
        for (int k = 0; k < nd; k++) {
            bool hi = (corner >> k) & 1u;
            w *= hi ? (double)a[k] : 1.0 - (double)a[k];
            idx[k] = axis_index(s, (unsigned)k, i0[k] + (hi ? 1 : 0), n[k]);
        }
        double v[4];
        if (!read_texel(s, level, idx, layer, v))
            return false;
        for (int c = 0; c < 4; c++)
            out[c] += w * v[c];
    }
    return true;
}

/* Cube-map face and face coordinates in [0, 1] (Programming Guide,
 * "Cubemap Textures": the major axis picks the face). */
static void cube_face(const float c[3], unsigned *face, float *u, float *v)
{
    float ax = fabsf(c[0]), ay = fabsf(c[1]), az = fabsf(c[2]);
    float sc, tc, m;
    if (ax >= ay && ax >= az) {
        m = ax;
        *face = c[0] >= 0 ? 0 : 1;
        sc = c[0] >= 0 ? -c[2] : c[2];
        tc = -c[1];
    } else if (ay >= az) {
        m = ay;
        *face = c[1] >= 0 ? 2 : 3;
        sc = c[0];
        tc = c[1] >= 0 ? c[2] : -c[2];
    } else {
        m = az;
        *face = c[2] >= 0 ? 4 : 5;
        sc = c[2] >= 0 ? c[0] : -c[0];
        tc = -c[1];
    }
    if (!(m > 0.0f)) {
        *u = *v = 0.5f;
        return;
    }
    *u = (sc / m + 1.0f) * 0.5f;
    *v = (tc / m + 1.0f) * 0.5f;
}

static void samp_init(samp *s, const tex_desc *t, dev_memory *mem, mem_alloc **hint,
                      const char **err)
{
    s->t = t;
    s->mem = mem;
    s->hint = hint;
    s->err = err;
    s->first = 0;
    s->normalized = t->normalized != 0;
    s->float_mode = t->kind == TEX_FLOAT || (t->read_norm && t->chbytes < 4);
    for (int k = 0; k < 3; k++) {
        uint8_t m = t->addr[k];
        /* wrap and mirror need normalised coordinates; otherwise clamp */
        if (!s->normalized && (m == TEX_WRAP || m == TEX_MIRROR))
            m = TEX_CLAMP;
        s->mode[k] = m;
    }
    if (t->shape == TEX_CUBE || t->shape == TEX_ACUBE) {
        s->normalized = true;
        s->mode[0] = s->mode[1] = TEX_CLAMP;
    }
}

/* Face coordinates and layer of a query. */
static void query_coords(const tex_desc *t, const tex_query *q, float c[3], uint32_t *layer)
{
    c[0] = q->c[0];
    c[1] = q->c[1];
    c[2] = q->c[2];
    uint32_t layers = t->layers ? t->layers : 1;
    *layer = 0;
    if (t->shape == TEX_A1D || t->shape == TEX_A2D)
        *layer = q->layer < layers ? q->layer : layers - 1;
    if (t->shape == TEX_CUBE || t->shape == TEX_ACUBE) {
        unsigned face;
        cube_face(q->c, &face, &c[0], &c[1]);
        uint32_t cubes = layers / 6 ? layers / 6 : 1;
        uint32_t idx = t->shape == TEX_ACUBE ? (q->layer < cubes ? q->layer : cubes - 1) : 0;
        *layer = idx * 6 + face;
        c[2] = 0;
    }
}

/* The level of detail, with the sampler's bias and clamps. */
static float select_lod(const tex_desc *t, const tex_query *q)
{
    float lod = 0.0f;
    if (q->lod_mode == TEX_LOD_LEVEL) {
        lod = q->lod;
    } else if (q->lod_mode == TEX_LOD_GRAD) {
        uint32_t n[3] = {t->width, t->height, t->depth};
        int nd = ndims(t);
        double rx = 0, ry = 0;
        for (int k = 0; k < nd; k++) {
            double sc = t->normalized || t->shape == TEX_CUBE || t->shape == TEX_ACUBE ? n[k] : 1.0;
            rx += (q->dpdx[k] * sc) * (q->dpdx[k] * sc);
            ry += (q->dpdy[k] * sc) * (q->dpdy[k] * sc);
        }
        double r = sqrt(rx > ry ? rx : ry);
        lod = r > 0 ? (float)log2(r) : -1000.0f;
    }
    if (!(lod == lod))
        lod = 0.0f;
    lod += t->lod_bias;
    if (lod < t->min_lod)
        lod = t->min_lod;
    if (lod > t->max_lod)
        lod = t->max_lod;
    if (lod < 0.0f)
        lod = 0.0f;
    if (lod > (float)(t->nlevels - 1))
        lod = (float)(t->nlevels - 1);
    return lod;
}

static bool fetch_at_level(samp *s, const tex_query *q, unsigned level, double out[4])
{
    const tex_desc *t = s->t;
    float c[3];
    uint32_t layer;
    query_coords(t, q, c, &layer);
    uint32_t n[3] = {tex_level_dim(t->width, level), level_h(t, level), level_d(t, level)};
    float x[3] = {0, 0, 0};
    for (int k = 0; k < ndims(t); k++)
        x[k] = axis_scale(s, (unsigned)k, c[k], n[k]);
    return sample_level(s, level, x, layer, out);
}

static void store_result(const samp *s, const double v[4], tex_result *out)
{
    out->is_float = s->float_mode;
    for (int c = 0; c < 4; c++) {
        if (s->float_mode) {
            float f = (float)v[c];
            memcpy(&out->v[c], &f, 4);
        } else {
            out->v[c] = (uint32_t)(int64_t)v[c];
        }
    }
    out->first_addr = s->first;
}

bool tex_fetch(const tex_desc *t, dev_memory *mem, mem_alloc **hint, const tex_query *q,
               tex_result *out, const char **err)
{
    samp s;
    samp_init(&s, t, mem, hint, err);
    double v[4];
    if (q->int_coords) {
        /* integer coordinates name a texel of level 0: no filtering */
        int64_t idx[3] = {0, 0, 0};
        uint32_t n[3] = {t->width, t->height, t->depth};
        float c[3];
        uint32_t layer;
        query_coords(t, q, c, &layer);
        for (int k = 0; k < ndims(t); k++) {
            idx[k] = q->ic[k];
            if (t->linear && (idx[k] < 0 || idx[k] >= n[k])) {
                memset(out, 0, sizeof *out); /* tex1Dfetch out of range: zero */
                out->is_float = s.float_mode;
                return true;
            }
            idx[k] = axis_index(&s, (unsigned)k, idx[k], n[k]);
        }
        if (!read_texel(&s, 0, idx, layer, v))
            return false;
        store_result(&s, v, out);
        return true;
    }
    if (t->nlevels <= 1) {
        if (!fetch_at_level(&s, q, 0, v))
            return false;
        store_result(&s, v, out);
        return true;
    }
    float lod = select_lod(t, q);
    unsigned l0 = (unsigned)lod;
    float f = lod - (float)l0;
    if (!t->mipfilter) { /* nearest level */
        if (f >= 0.5f)
            l0++;
        f = 0.0f;
    }
    f = tex_weight(f);
    if (!fetch_at_level(&s, q, l0, v))
        return false;
    if (f > 0.0f && l0 + 1 < t->nlevels) {
        double v1[4];
        if (!fetch_at_level(&s, q, l0 + 1, v1))
            return false;
        for (int c = 0; c < 4; c++)
            v[c] = (1.0 - f) * v[c] + f * v1[c];
    }
    store_result(&s, v, out);
    return true;
}

bool tex_gather(const tex_desc *t, dev_memory *mem, mem_alloc **hint, const tex_query *q,
                unsigned comp, tex_result *out, const char **err)
{
    samp s;
    samp_init(&s, t, mem, hint, err);
    float c[3];
    uint32_t layer;
    query_coords(t, q, c, &layer);
    uint32_t n[2] = {t->width, t->height};
    int64_t i[2], j[2];
    for (int k = 0; k < 2; k++) {
        float xb = axis_scale(&s, (unsigned)k, c[k], n[k]) - 0.5f;
        int64_t lo = ifloor(xb);
        int64_t *dst = k == 0 ? i : j;
        dst[0] = axis_index(&s, (unsigned)k, lo, n[k]);
        dst[1] = axis_index(&s, (unsigned)k, lo + 1, n[k]);
    }
    /* counter-clockwise from the lower left (PTX ISA, tld4) */
    const int64_t order[4][2] = {{i[0], j[1]}, {i[1], j[1]}, {i[1], j[0]}, {i[0], j[0]}};
    double g[4];
    for (int k = 0; k < 4; k++) {
        int64_t idx[3] = {order[k][0], order[k][1], 0};
        double v[4];
        if (!read_texel(&s, 0, idx, layer, v))
            return false;
        g[k] = v[comp & 3];
    }
    store_result(&s, g, out);
    return true;
}
