/* tests/runtime/tex_model.h — a CPU model of CUDA texture fetching, written
 * from the CUDA C++ Programming Guide ("Texture Fetching" appendix) and the
 * PTX ISA (tex, tld4), independently of runtime/texture.c: the texels come
 * from the test's own host copy, per level, indexed [layer][z][y][x][c].
 *
 *   point:   tex(x) = T[floor(x)]
 *   linear:  tex(x) = (1-a) T[i] + a T[i+1],  xB = x - 0.5, i = floor(xB),
 *            a = frac(xB) in 9-bit fixed point (8 fraction bits, rounded);
 *            2D and 3D take the products of the per-axis weights.
 *   normalised coordinates: x = u * N; wrap uses frac(u), mirror frac(u) or
 *   1 - frac(u) on odd periods; both need normalised coordinates (clamp
 *   otherwise); out-of-range texels are clamped, wrapped, mirrored or read
 *   as the border colour.  Missing channels read 0 (alpha 1).  Cube maps
 *   pick the face of the major axis.  Mip levels: lod (given, or log2 of
 *   the longer scaled gradient) plus bias, clamped to [min, max] and to the
 *   levels; point picks the nearest level, linear blends two. */
#ifndef PTXEMU_TESTS_TEX_MODEL_H
#define PTXEMU_TESTS_TEX_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { M_1D, M_2D, M_3D, M_A1D, M_A2D, M_CUBE, M_ACUBE };
enum { M_WRAP, M_CLAMP, M_MIRROR, M_BORDER };
enum { M_SIGNED, M_UNSIGNED, M_FLOAT };

typedef struct model_tex {
    int shape, kind, nch, chbytes;
    int w, h, d, layers, levels;
    const void *level_data[8];  /* host texels of each level, tight */
    int addr[3], filter, normalized, read_norm, mipfilter;
    float border[4], bias, minl, maxl;
} model_tex;

static inline int m_dim(int n, int level)
{
    int v = n >> level;
    return v < 1 ? 1 : v;
}

static inline bool m_float_results(const model_tex *t)
{
    return t->kind == M_FLOAT || (t->read_norm && t->chbytes < 4);
}

static inline double m_half(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Channel c of a texel in range. */
static inline double m_texel(const model_tex *t, int level, int x, int y, int z, int layer, int c)
{
    if (c >= t->nch)
        return c == 3 ? 1.0 : 0.0;
    long w = m_dim(t->w, level), h = m_dim(t->h, level), d = m_dim(t->d, level);
    long idx = ((((long)layer * d + z) * h + y) * w + x) * t->nch + c;
    const uint8_t *p = (const uint8_t *)t->level_data[level] + idx * t->chbytes;
    double v;
    if (t->kind == M_FLOAT) {
        if (t->chbytes == 2) {
            uint16_t u;
            memcpy(&u, p, 2);
            return m_half(u);
        }
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    if (t->chbytes == 1)
        v = t->kind == M_SIGNED ? (double)(int8_t)p[0] : (double)p[0];
    else if (t->chbytes == 2) {
        uint16_t u;
        memcpy(&u, p, 2);
        v = t->kind == M_SIGNED ? (double)(int16_t)u : (double)u;
    } else {
        uint32_t u;
        memcpy(&u, p, 4);
        v = t->kind == M_SIGNED ? (double)(int32_t)u : (double)u;
    }
    if (t->read_norm && t->chbytes < 4) {
        double scale = t->kind == M_SIGNED ? (t->chbytes == 1 ? 127.0 : 32767.0)
                                           : (t->chbytes == 1 ? 255.0 : 65535.0);
        v /= scale;
        if (v < -1.0)
            v = -1.0;
    }
    return v;
}

/* A texel index after addressing, -1 for the border (walks, not formulas). */
static inline int m_address(int mode, int i, int n)
{
    switch (mode) {
    case M_WRAP:
        while (i < 0)
            i += n;
        while (i >= n)
            i -= n;
        return i;
    case M_MIRROR:
        for (;;) {
            if (i < 0)
                i = -1 - i;
            else if (i >= n)
                i = 2 * n - 1 - i;
            else
                return i;
        }
    case M_BORDER:
        return i < 0 || i >= n ? -1 : i;
    default:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

typedef struct m_axis {
    int i[2];
    double w[2];
    int n;                      /* 1 point, 2 linear */
} m_axis;

static inline void m_make_axis(const model_tex *t, int mode, bool norm, float u, int n,
                               m_axis *ax)
{
    float x = u;
    if (norm) {
        if (mode == M_WRAP)
            x = u - floorf(u);
        else if (mode == M_MIRROR)
            x = ((long)floorf(u) % 2 != 0) ? 1.0f - (u - floorf(u)) : u - floorf(u);
        x *= (float)n;
    }
    if (!(t->filter && m_float_results(t))) {
        ax->n = 1;
        ax->i[0] = m_address(mode, (int)floorf(x), n);
        ax->w[0] = 1.0;
        return;
    }
    float xb = x - 0.5f;
    int i = (int)floorf(xb);
    float frac = xb - floorf(xb);
    double a = floor(frac * 256.0 + 0.5) / 256.0;
    ax->n = 2;
    ax->i[0] = m_address(mode, i, n);
    ax->i[1] = m_address(mode, i + 1, n);
    ax->w[0] = 1.0 - a;
    ax->w[1] = a;
}

static inline void m_cube(const float c[3], int *face, float *s, float *tt)
{
    float ax = fabsf(c[0]), ay = fabsf(c[1]), az = fabsf(c[2]), m, sc, tc;
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
    *s = (sc / m + 1.0f) * 0.5f;
    *tt = (tc / m + 1.0f) * 0.5f;
}

/* Sample of one level: out[4]. */
static inline void m_level(const model_tex *t, int level, const float cin[3], unsigned layer_in,
                           double out[4])
{
    int nd = t->shape == M_1D || t->shape == M_A1D ? 1 : t->shape == M_3D ? 3 : 2;
    float c[3] = {cin[0], cin[1], cin[2]};
    int layer = 0;
    int modes[3] = {t->addr[0], t->addr[1], t->addr[2]};
    bool norm = t->normalized;
    if (t->shape == M_A1D || t->shape == M_A2D)
        layer = layer_in < (unsigned)t->layers ? (int)layer_in : t->layers - 1;
    if (t->shape == M_CUBE || t->shape == M_ACUBE) {
        int face;
        m_cube(cin, &face, &c[0], &c[1]);
        int cubes = t->layers / 6;
        int idx = t->shape == M_ACUBE ? (layer_in < (unsigned)cubes ? (int)layer_in : cubes - 1)
                                      : 0;
        layer = idx * 6 + face;
        norm = true;
        modes[0] = modes[1] = M_CLAMP;
    }
    for (int k = 0; k < 3; k++)
        if (!norm && (modes[k] == M_WRAP || modes[k] == M_MIRROR))
            modes[k] = M_CLAMP;
    int dims[3] = {m_dim(t->w, level), m_dim(t->h, level), m_dim(t->d, level)};
    m_axis ax[3];
    for (int k = 0; k < 3; k++) {
        if (k < nd) {
            m_make_axis(t, modes[k], norm, c[k], dims[k], &ax[k]);
        } else {
            ax[k].n = 1;
            ax[k].i[0] = 0;
            ax[k].w[0] = 1.0;
        }
    }
    for (int ch = 0; ch < 4; ch++) {
        double sum = 0.0;
        for (int a = 0; a < ax[0].n; a++)
            for (int b = 0; b < ax[1].n; b++)
                for (int g = 0; g < ax[2].n; g++) {
                    double w = ax[0].w[a] * ax[1].w[b] * ax[2].w[g];
                    double v;
                    if (ax[0].i[a] < 0 || ax[1].i[b] < 0 || ax[2].i[g] < 0)
                        v = m_float_results(t) ? t->border[ch] : (double)(int64_t)t->border[ch];
                    else
                        v = m_texel(t, level, ax[0].i[a], ax[1].i[b], ax[2].i[g], layer, ch);
                    sum += w * v;
                }
        out[ch] = sum;
    }
}

/* lod_mode 0: level 0 (no lod), 1: lod given, 2: gradients. */
static inline void m_fetch(const model_tex *t, const float c[3], unsigned layer, int lod_mode,
                           float lod, const float dx[3], const float dy[3], double out[4])
{
    if (t->levels <= 1) {
        m_level(t, 0, c, layer, out);
        return;
    }
    float l = 0.0f;
    if (lod_mode == 1) {
        l = lod;
    } else if (lod_mode == 2) {
        int nd = t->shape == M_1D || t->shape == M_A1D ? 1 : t->shape == M_3D ? 3 : 2;
        int n[3] = {t->w, t->h, t->d};
        double px = 0, py = 0;
        for (int k = 0; k < nd; k++) {
            double s = t->normalized ? n[k] : 1.0;
            px += dx[k] * s * dx[k] * s;
            py += dy[k] * s * dy[k] * s;
        }
        double r = sqrt(px > py ? px : py);
        l = r > 0 ? (float)log2(r) : -1000.0f;
    }
    l += t->bias;
    l = l < t->minl ? t->minl : l;
    l = l > t->maxl ? t->maxl : l;
    l = l < 0 ? 0 : l;
    l = l > (float)(t->levels - 1) ? (float)(t->levels - 1) : l;
    int l0 = (int)floorf(l);
    double f = l - (float)l0;
    if (!t->mipfilter) {
        l0 = f >= 0.5 ? l0 + 1 : l0;
        f = 0;
    }
    f = floor(f * 256.0 + 0.5) / 256.0;
    m_level(t, l0, c, layer, out);
    if (f > 0 && l0 + 1 < t->levels) {
        double o1[4];
        m_level(t, l0 + 1, c, layer, o1);
        for (int k = 0; k < 4; k++)
            out[k] = (1.0 - f) * out[k] + f * o1[k];
    }
}

/* tld4: component comp of the footprint, counter-clockwise from the lower
 * left: (i0,j1) (i1,j1) (i1,j0) (i0,j0). */
static inline void m_gather(const model_tex *t, const float c[3], unsigned layer_in, int comp,
                            double out[4])
{
    int layer = t->shape == M_A2D ? (layer_in < (unsigned)t->layers ? (int)layer_in
                                                                    : t->layers - 1)
                                  : 0;
    m_axis ax[2];
    model_tex lin = *t;
    lin.filter = 1;
    lin.kind = M_FLOAT; /* the footprint is the linear filter's, whatever the format */
    int dims[2] = {t->w, t->h};
    for (int k = 0; k < 2; k++) {
        int mode = t->addr[k];
        if (!t->normalized && (mode == M_WRAP || mode == M_MIRROR))
            mode = M_CLAMP;
        m_make_axis(&lin, mode, t->normalized, c[k], dims[k], &ax[k]);
    }
    int order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (int k = 0; k < 4; k++) {
        int x = ax[0].i[order[k][0]], y = ax[1].i[order[k][1]];
        if (x < 0 || y < 0)
            out[k] = m_float_results(t) ? t->border[comp] : (double)(int64_t)t->border[comp];
        else
            out[k] = m_texel(t, 0, x, y, 0, layer, comp);
    }
}

#endif
