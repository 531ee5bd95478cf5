/* tests/runtime/test_texture.c — tex and tld4 through the real executor
 * against the CPU model of tests/runtime/tex_model.h (CUDA Programming
 * Guide "Texture Fetching", PTX ISA tex/tld4): every addressing mode x
 * filter mode x normalised/unnormalised coordinates x read mode, over
 * 1D/2D/3D, layered 1D/2D, cube and layered cube arrays, linear and pitch2D
 * resources with integer coordinates, mipmap level selection by .level and
 * .grad, and tld4 gathers of every component.  Texture objects come from
 * the host API (api/textures.c); the kernels take them as .u64 handles. */
#include "tests/runtime/tex_model.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 64 /* threads (two warps) = coordinates per case */

/* Per thread: c0..c3 (c0 holds the layer's bits for arrays), lod, dPdx[3],
 * dPdy[3], pad; out: four 32-bit results. */
typedef struct rec {
    float c[4];
    float lod;
    float dx[3], dy[3];
    float pad;
} rec;

#define KHEAD(name)                                                                 \
    ".visible .entry " name "(.param .u64 t, .param .u64 in, .param .u64 out)\n{\n"    \
    " .reg .u32 %r<8>;\n .reg .u64 %rd<8>;\n .reg .f32 %f<20>;\n"                     \
    " ld.param.u64 %rd1, [t];\n ld.param.u64 %rd2, [in];\n ld.param.u64 %rd3, [out];\n" \
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd4, %r1, 48;\n add.s64 %rd5, %rd2, %rd4;\n" \
    " ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5];\n"                               \
    " ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd5+16];\n"                            \
    " ld.global.v4.f32 {%f9, %f10, %f11, %f12}, [%rd5+32];\n"                         \
    " mov.b32 %r2, %f1;\n mov.b32 %r3, %f2;\n"                                         \
    " mul.wide.u32 %rd6, %r1, 16;\n add.s64 %rd7, %rd3, %rd6;\n"
#define KF(name, instr)                                                             \
    KHEAD(name) " " instr "\n st.global.v4.f32 [%rd7], {%f13, %f14, %f15, %f16};\n ret;\n}\n"
#define KU(name, instr)                                                             \
    KHEAD(name) " " instr "\n st.global.v4.u32 [%rd7], {%r4, %r5, %r6, %r7};\n ret;\n}\n"
#define DF "{%f13, %f14, %f15, %f16}"
#define DU "{%r4, %r5, %r6, %r7}"

static const char module[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    KF("k1d", "tex.1d.v4.f32.f32 " DF ", [%rd1, {%f1}];")
    KF("k2d", "tex.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}];")
    KF("k3d", "tex.3d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2, %f3, %f4}];")
    KF("ka1d", "tex.a1d.v4.f32.f32 " DF ", [%rd1, {%r2, %f2}];")
    KF("ka2d", "tex.a2d.v4.f32.f32 " DF ", [%rd1, {%r2, %f2, %f3, %f4}];")
    KF("kcube", "tex.cube.v4.f32.f32 " DF ", [%rd1, {%f1, %f2, %f3, %f4}];")
    KF("kacube", "tex.acube.v4.f32.f32 " DF ", [%rd1, {%r2, %f2, %f3, %f4}];")
    KU("k1du", "tex.1d.v4.u32.f32 " DU ", [%rd1, {%f1}];")
    KU("k2du", "tex.2d.v4.s32.f32 " DU ", [%rd1, {%f1, %f2}];")
    KU("k3du", "tex.3d.v4.u32.f32 " DU ", [%rd1, {%f1, %f2, %f3, %f4}];")
    KU("ka1du", "tex.a1d.v4.u32.f32 " DU ", [%rd1, {%r2, %f2}];")
    KU("ka2du", "tex.a2d.v4.u32.f32 " DU ", [%rd1, {%r2, %f2, %f3, %f4}];")
    KU("kcubeu", "tex.cube.v4.u32.f32 " DU ", [%rd1, {%f1, %f2, %f3, %f4}];")
    KU("kacubeu", "tex.acube.v4.u32.f32 " DU ", [%rd1, {%r2, %f2, %f3, %f4}];")
    KF("k1di", "tex.1d.v4.f32.s32 " DF ", [%rd1, {%r2}];")
    KF("k2di", "tex.2d.v4.f32.s32 " DF ", [%rd1, {%r2, %r3}];")
    KF("k2dlev", "tex.level.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}], %f5;")
    KF("k2dgrad", "tex.grad.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}], {%f6, %f7}, {%f9, %f10};")
    KF("k3dlev", "tex.level.3d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2, %f3, %f4}], %f5;")
    KF("kg0", "tld4.r.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}];")
    KF("kg1", "tld4.g.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}];")
    KF("kg2", "tld4.b.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}];")
    KF("kg3", "tld4.a.2d.v4.f32.f32 " DF ", [%rd1, {%f1, %f2}];")
    KU("kga", "tld4.g.a2d.v4.u32.f32 " DU ", [%rd1, {%r2, %f2, %f3, %f4}];");

typedef struct fixture {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    ptxemu_dptr in, out;
    unsigned cases, checks;
} fixture;

static fixture *fixture_new(bool timing)
{
    fixture *f = calloc(1, sizeof *f);
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    o.timing = timing;
    o.memory_digest = 1;
    assert_int_equal(ptxemu_ctx_create(&f->ctx, &o), PTXEMU_OK);
    ptxemu_status s = ptxemu_module_load_string(f->ctx, module, "tex.ptx", &f->mod);
    if (s != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
    assert_int_equal(ptxemu_malloc(f->ctx, &f->in, NT * sizeof(rec)), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(f->ctx, &f->out, NT * 16), PTXEMU_OK);
    return f;
}

static int setup(void **state)
{
    *state = fixture_new(false);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    ptxemu_ctx_destroy(f->ctx);
    free(f);
    return 0;
}

/* Deterministic pseudo-random floats. */
static float rnd(uint32_t *s, float lo, float hi)
{
    *s = *s * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(*s >> 8) / 16777216.0f;
}

static uint16_t to_half(float v) /* exact for the small multiples of 1/4 used */
{
    if (v == 0.0f)
        return 0;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    v = fabsf(v);
    int e;
    float m = frexpf(v, &e); /* v = m * 2^e, m in [0.5, 1) */
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | (uint16_t)((m * 2048.0f) - 1024.0f));
}

/* Texel contents: distinct, format-specific values. */
static void fill(const model_tex *t, int level, uint8_t *p)
{
    int w = m_dim(t->w, level), h = m_dim(t->h, level), d = m_dim(t->d, level);
    long i = 0;
    for (int l = 0; l < t->layers; l++)
        for (int z = 0; z < d; z++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    for (int c = 0; c < t->nch; c++, i++) {
                        long k = x + 7 * y + 13 * z + 17 * l + 3 * c + 11 * level;
                        uint8_t *q = p + i * t->chbytes;
                        if (t->kind == M_FLOAT && t->chbytes == 4) {
                            float v = (float)(x + 8 * y + 40 * z + 100 * l) + 0.25f * c -
                                      3.5f * level;
                            memcpy(q, &v, 4);
                        } else if (t->kind == M_FLOAT) {
                            uint16_t hv = to_half((float)(x + 4 * y + 16 * l) * 0.5f + 0.25f * c);
                            memcpy(q, &hv, 2);
                        } else if (t->chbytes == 1) {
                            q[0] = (uint8_t)(k * 37 + 5);
                        } else if (t->chbytes == 2) {
                            uint16_t v = (uint16_t)(k * 4099 + 17);
                            memcpy(q, &v, 2);
                        } else {
                            uint32_t v = (uint32_t)(k * 2654435761u);
                            memcpy(q, &v, 4);
                        }
                    }
}

typedef struct texset {
    model_tex m;
    ptxemu_array *arr;
    void *host[8];
} texset;

static void make_array(fixture *f, texset *ts, int shape, int kind, int nch, int bits, int w,
                       int h, int d, int levels)
{
    model_tex *m = &ts->m;
    memset(ts, 0, sizeof *ts);
    m->shape = shape;
    m->kind = kind;
    m->nch = nch;
    m->chbytes = bits / 8;
    m->w = w;
    m->h = shape == M_1D || shape == M_A1D ? 1 : h;
    m->d = shape == M_3D ? d : 1;
    m->layers = shape == M_A1D || shape == M_A2D || shape == M_CUBE || shape == M_ACUBE ? d : 1;
    m->levels = levels;
    ptxemu_channel_desc cd = {bits, nch > 1 ? bits : 0, nch > 2 ? bits : 0, nch > 3 ? bits : 0,
                              (ptxemu_channel_kind)kind};
    ptxemu_extent ext = {(size_t)w, shape == M_1D || shape == M_A1D ? 0 : (size_t)h,
                         shape == M_1D || shape == M_2D ? 0 : (size_t)d};
    unsigned flags = (shape == M_A1D || shape == M_A2D || shape == M_ACUBE ? PTXEMU_ARRAY_LAYERED
                                                                          : 0) |
                     (shape == M_CUBE || shape == M_ACUBE ? PTXEMU_ARRAY_CUBEMAP : 0);
    ptxemu_status s = ptxemu_array_create(f->ctx, &ts->arr, &cd, ext, flags, (unsigned)levels);
    if (s != PTXEMU_OK)
        fail_msg("array_create: %s", ptxemu_last_error(f->ctx));
    for (int l = 0; l < levels; l++) {
        int lw = m_dim(w, l), lh = m_dim(m->h, l), ld = m_dim(m->d, l);
        size_t row = (size_t)lw * (size_t)(nch * bits / 8);
        size_t n = row * (size_t)lh * (size_t)ld * (size_t)m->layers;
        ts->host[l] = calloc(1, n);
        fill(m, l, ts->host[l]);
        m->level_data[l] = ts->host[l];
        ptxemu_copy_side side = {ts->host[l], 0, row, (size_t)lh};
        ptxemu_array *la = levels > 1 ? ptxemu_array_level(ts->arr, (unsigned)l) : ts->arr;
        assert_non_null(la);
        s = ptxemu_array_copy(f->ctx, la, 1, 0, 0, 0, &side, row, (size_t)lh,
                              (size_t)(ld * m->layers));
        if (s != PTXEMU_OK)
            fail_msg("array_copy: %s", ptxemu_last_error(f->ctx));
    }
}

static void free_array(fixture *f, texset *ts)
{
    assert_int_equal(ptxemu_array_destroy(f->ctx, ts->arr), PTXEMU_OK);
    for (int l = 0; l < 8; l++)
        free(ts->host[l]);
}

/* Coordinates for a case: unnormalised ones span [-1.5N, 2.5N], normalised
 * [-1.3, 2.3]; a quarter sit on texel centres or edges; layers run past
 * the last one. */
static void make_coords(const model_tex *m, bool norm, uint32_t seed, rec *r)
{
    uint32_t s = seed;
    int n[3] = {m->w, m->h, m->d};
    int first = m->shape == M_A1D || m->shape == M_A2D || m->shape == M_ACUBE;
    for (int i = 0; i < NT; i++) {
        memset(&r[i], 0, sizeof r[i]);
        for (int k = 0; k < 3; k++) {
            float v;
            if (m->shape == M_CUBE || m->shape == M_ACUBE)
                v = rnd(&s, -1.0f, 1.0f);
            else if (i % 4 == 0)
                v = (float)((int)rnd(&s, -2.0f, (float)n[k] + 2.0f)) + (i % 8 ? 0.5f : 0.0f);
            else
                v = rnd(&s, -1.5f, 2.5f) * (float)n[k];
            if (norm && !(m->shape == M_CUBE || m->shape == M_ACUBE))
                v /= (float)n[k];
            r[i].c[first + k] = v;
        }
        if (first) {
            uint32_t layer = (uint32_t)(i % (m->layers + 2));
            memcpy(&r[i].c[0], &layer, 4);
        }
        r[i].lod = rnd(&s, -1.0f, 5.0f);
        for (int k = 0; k < 3; k++) {
            r[i].dx[k] = rnd(&s, -4.0f, 4.0f) / (norm ? (float)n[k] : 1.0f);
            r[i].dy[k] = rnd(&s, -4.0f, 4.0f) / (norm ? (float)n[k] : 1.0f);
        }
    }
}

/* Launches `kernel` over the coordinates and compares with the model:
 * mode 0 tex, 1 tex.level, 2 tex.grad, 3 integer coordinates, 4+c tld4.c */
static void run_case(fixture *f, const model_tex *m, uint64_t tex, const char *kernel, int mode,
                     const rec *r, const char *what)
{
    assert_int_equal(ptxemu_memcpy_htod(f->ctx, f->in, r, NT * sizeof(rec)), PTXEMU_OK);
    void *args[] = {&tex, &f->in, &f->out};
    ptxemu_dim3 g = {1, 1, 1}, b = {NT, 1, 1};
    if (ptxemu_launch(f->mod, kernel, g, b, 0, args) != PTXEMU_OK)
        fail_msg("%s %s: %s", what, kernel, ptxemu_last_error(f->ctx));
    uint32_t out[NT][4];
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, out, f->out, sizeof out), PTXEMU_OK);
    bool fl = m_float_results(m);
    int first = m->shape == M_A1D || m->shape == M_A2D || m->shape == M_ACUBE;
    for (int i = 0; i < NT; i++) {
        double want[4];
        uint32_t layer;
        memcpy(&layer, &r[i].c[0], 4);
        const float *c = &r[i].c[first];
        if (mode == 3) {
            int32_t ic[2];
            memcpy(ic, &r[i].c[0], 8);
            int idx[2] = {m_address(m->addr[0] == M_BORDER ? M_BORDER : M_CLAMP, ic[0], m->w),
                          m_address(m->addr[1] == M_BORDER ? M_BORDER : M_CLAMP, ic[1], m->h)};
            if (m->shape == M_1D)
                idx[1] = 0;
            for (int k = 0; k < 4; k++)
                want[k] = idx[0] < 0 || idx[1] < 0 ? m->border[k]
                                                   : m_texel(m, 0, idx[0], idx[1], 0, 0, k);
        } else if (mode >= 4) {
            m_gather(m, c, layer, mode - 4, want);
        } else {
            m_fetch(m, c, layer, mode, r[i].lod, r[i].dx, r[i].dy, want);
        }
        for (int k = 0; k < 4; k++) {
            f->checks++;
            if (fl) {
                float got;
                memcpy(&got, &out[i][k], 4);
                double tol = 2e-6 * (fabs(want[k]) > 1 ? fabs(want[k]) : 1);
                if (!(fabs(got - want[k]) <= tol))
                    fail_msg("%s %s thread %d comp %d: coords (%g, %g, %g) layer %u lod %g: "
                             "got %.9g, model %.9g", what, kernel, i, k, (double)c[0],
                             (double)c[1], (double)c[2], layer, (double)r[i].lod, (double)got,
                             want[k]);
            } else if (out[i][k] != (uint32_t)(int64_t)want[k]) {
                fail_msg("%s %s thread %d comp %d: coords (%g, %g, %g) layer %u: got %u, "
                         "model %u", what, kernel, i, k, (double)c[0], (double)c[1],
                         (double)c[2], layer, out[i][k], (uint32_t)(int64_t)want[k]);
            }
        }
    }
    f->cases++;
}

static uint64_t make_tex(fixture *f, model_tex *m, const ptxemu_resource_desc *res, int addr,
                         int filter, int norm, int read_norm)
{
    ptxemu_texture_desc td;
    memset(&td, 0, sizeof td);
    td.addr[0] = td.addr[1] = td.addr[2] = addr;
    td.filter = filter;
    td.normalized = norm;
    td.read_normalized = read_norm;
    float border[4] = {-2.5f, 7.0f, 0.5f, 3.0f};
    memcpy(td.border, border, sizeof border);
    td.mip_filter = m->mipfilter;
    td.lod_bias = m->bias;
    td.min_lod = m->minl;
    td.max_lod = m->maxl;
    for (int k = 0; k < 3; k++)
        m->addr[k] = addr;
    m->filter = filter;
    m->normalized = norm;
    m->read_norm = read_norm;
    memcpy(m->border, border, sizeof border);
    uint64_t h = 0;
    if (ptxemu_texture_create(f->ctx, &h, res, &td) != PTXEMU_OK)
        fail_msg("texture_create: %s", ptxemu_last_error(f->ctx));
    return h;
}

typedef struct fmt {
    int kind, nch, bits, read_norm;
} fmt;
static const fmt formats[] = {
    {M_FLOAT, 1, 32, 0}, {M_FLOAT, 4, 32, 0}, {M_FLOAT, 2, 16, 0},
    {M_UNSIGNED, 4, 8, 0}, {M_UNSIGNED, 4, 8, 1}, {M_SIGNED, 1, 16, 1},
    {M_SIGNED, 2, 16, 0}, {M_UNSIGNED, 1, 32, 0},
};

/* Every shape x format x addressing x filter x normalisation (`quick`:
 * normalised coordinates, and every third format). */
static void sweep(fixture *f, bool quick)
{
    static const char *const kf[] = {"k1d", "k2d", "k3d", "ka1d", "ka2d", "kcube", "kacube"};
    static const char *const ku[] = {"k1du", "k2du", "k3du", "ka1du", "ka2du", "kcubeu",
                                     "kacubeu"};
    static const int dims[7][3] = {{7, 1, 1}, {5, 4, 1}, {4, 3, 3}, {6, 1, 3},
                                   {4, 3, 3}, {4, 4, 6}, {3, 3, 12}};
    rec r[NT];
    for (int shape = 0; shape < 7; shape++)
        for (size_t fi = quick ? (size_t)shape % 3 : 0; fi < G_N_ELEMENTS(formats);
             fi += quick ? 3 : 1) {
            const fmt *fm = &formats[fi];
            texset ts;
            make_array(f, &ts, shape, fm->kind, fm->nch, fm->bits, dims[shape][0],
                       dims[shape][1], dims[shape][2], 1);
            ptxemu_resource_desc res;
            memset(&res, 0, sizeof res);
            res.type = PTXEMU_RES_ARRAY;
            res.array = ts.arr;
            bool fl = fm->kind == M_FLOAT || fm->read_norm;
            for (int addr = 0; addr < 4; addr++)
                for (int filter = 0; filter < (fl ? 2 : 1); filter++)
                    for (int norm = quick; norm < 2; norm++) {
                        uint64_t h = make_tex(f, &ts.m, &res, addr, filter, norm, fm->read_norm);
                        make_coords(&ts.m, norm, (uint32_t)(shape * 1000 + fi * 100 + addr * 10 +
                                                            filter * 2 + norm), r);
                        char what[160];
                        snprintf(what, sizeof what, "shape %d format %zu addr %d filter %d norm %d",
                                 shape, fi, addr, filter, norm);
                        run_case(f, &ts.m, h, fl ? kf[shape] : ku[shape], 0, r, what);
                        assert_int_equal(ptxemu_object_destroy(f->ctx, h), PTXEMU_OK);
                    }
            free_array(f, &ts);
        }
    printf("# sweep: %u cases, %u values against the model\n", f->cases, f->checks);
}

static void test_sweep(void **state)
{
    sweep(*state, false);
}

/* Mipmapped 2D and 3D arrays: .level and .grad with both mip filters and
 * bias/clamps. */
static void test_mipmaps(void **state)
{
    fixture *f = *state;
    rec r[NT];
    for (int three = 0; three < 2; three++) {
        texset ts;
        make_array(f, &ts, three ? M_3D : M_2D, M_FLOAT, 1, 32, 16, 8, three ? 8 : 1,
                   three ? 4 : 5);
        ptxemu_resource_desc res;
        memset(&res, 0, sizeof res);
        res.type = PTXEMU_RES_MIPMAPPED;
        res.array = ts.arr;
        for (int mf = 0; mf < 2; mf++)
            for (int filter = 0; filter < 2; filter++)
                for (int clampset = 0; clampset < 2; clampset++) {
                    ts.m.mipfilter = mf;
                    ts.m.bias = clampset ? 0.75f : 0.0f;
                    ts.m.minl = clampset ? 0.5f : 0.0f;
                    ts.m.maxl = clampset ? 2.25f : 16.0f;
                    uint64_t h = make_tex(f, &ts.m, &res, filter ? M_WRAP : M_CLAMP, filter, 1, 0);
                    make_coords(&ts.m, true, (uint32_t)(77 + mf * 4 + filter * 2 + clampset), r);
                    char what[128];
                    snprintf(what, sizeof what, "mip 3d=%d mipfilter %d filter %d clamps %d",
                             three, mf, filter, clampset);
                    run_case(f, &ts.m, h, three ? "k3dlev" : "k2dlev", 1, r, what);
                    if (!three)
                        run_case(f, &ts.m, h, "k2dgrad", 2, r, what);
                    /* without .level: level 0 after bias and clamps */
                    run_case(f, &ts.m, h, three ? "k3d" : "k2d", 0, r, what);
                    assert_int_equal(ptxemu_object_destroy(f->ctx, h), PTXEMU_OK);
                }
        free_array(f, &ts);
    }
}

/* tld4 on 2D float4 and layered uchar4 arrays, every component. */
static void test_gather(void **state)
{
    fixture *f = *state;
    rec r[NT];
    for (int layered = 0; layered < 2; layered++) {
        texset ts;
        make_array(f, &ts, layered ? M_A2D : M_2D, layered ? M_UNSIGNED : M_FLOAT, 4,
                   layered ? 8 : 32, 5, 4, 3, 1);
        ptxemu_resource_desc res;
        memset(&res, 0, sizeof res);
        res.type = PTXEMU_RES_ARRAY;
        res.array = ts.arr;
        for (int addr = 0; addr < 4; addr++)
            for (int norm = 0; norm < 2; norm++) {
                uint64_t h = make_tex(f, &ts.m, &res, addr, 0, norm, 0);
                make_coords(&ts.m, norm, (uint32_t)(900 + addr * 2 + norm), r);
                if (layered) {
                    run_case(f, &ts.m, h, "kga", 5, r, "tld4.g.a2d");
                } else {
                    static const char *const kg[] = {"kg0", "kg1", "kg2", "kg3"};
                    for (int c = 0; c < 4; c++)
                        run_case(f, &ts.m, h, kg[c], 4 + c, r, "tld4.2d");
                }
                assert_int_equal(ptxemu_object_destroy(f->ctx, h), PTXEMU_OK);
            }
        free_array(f, &ts);
    }
}

/* tex1Dfetch on linear memory (out of range reads zero) and integer
 * coordinates on a pitch2D resource. */
static void test_linear_pitch(void **state)
{
    fixture *f = *state;
    float lin[10];
    for (int i = 0; i < 10; i++)
        lin[i] = 1.5f * (float)i - 4.0f;
    ptxemu_dptr dl;
    assert_int_equal(ptxemu_malloc(f->ctx, &dl, sizeof lin), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(f->ctx, dl, lin, sizeof lin), PTXEMU_OK);
    ptxemu_resource_desc res;
    memset(&res, 0, sizeof res);
    res.type = PTXEMU_RES_LINEAR;
    res.ptr = dl;
    res.fmt = (ptxemu_channel_desc){32, 0, 0, 0, PTXEMU_CHANNEL_FLOAT};
    res.size_bytes = sizeof lin;
    ptxemu_texture_desc td;
    memset(&td, 0, sizeof td);
    uint64_t h;
    assert_int_equal(ptxemu_texture_create(f->ctx, &h, &res, &td), PTXEMU_OK);
    rec r[NT];
    memset(r, 0, sizeof r);
    for (int i = 0; i < NT; i++) {
        int32_t x = i - 20;
        memcpy(&r[i].c[0], &x, 4);
    }
    assert_int_equal(ptxemu_memcpy_htod(f->ctx, f->in, r, sizeof r), PTXEMU_OK);
    void *args[] = {&h, &f->in, &f->out};
    ptxemu_dim3 g = {1, 1, 1}, b = {NT, 1, 1};
    assert_int_equal(ptxemu_launch(f->mod, "k1di", g, b, 0, args), PTXEMU_OK);
    float out[NT][4];
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, out, f->out, sizeof out), PTXEMU_OK);
    for (int i = 0; i < NT; i++) {
        int x = i - 20;
        float want = x >= 0 && x < 10 ? lin[x] : 0.0f;
        assert_true(out[i][0] == want);
        assert_true(out[i][3] == (x >= 0 && x < 10 ? 1.0f : 0.0f));
    }
    assert_int_equal(ptxemu_object_destroy(f->ctx, h), PTXEMU_OK);

    /* pitch2D: 6x5 floats, rows 32 bytes apart */
    float img[5][8];
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 8; x++)
            img[y][x] = x < 6 ? (float)(10 * y + x) : -99.0f;
    ptxemu_dptr dp;
    assert_int_equal(ptxemu_malloc(f->ctx, &dp, sizeof img), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(f->ctx, dp, img, sizeof img), PTXEMU_OK);
    memset(&res, 0, sizeof res);
    res.type = PTXEMU_RES_PITCH2D;
    res.ptr = dp;
    res.fmt = (ptxemu_channel_desc){32, 0, 0, 0, PTXEMU_CHANNEL_FLOAT};
    res.width = 6;
    res.height = 5;
    res.pitch_bytes = 32;
    float tight[5][6];
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6; x++)
            tight[y][x] = img[y][x];
    model_tex m;
    memset(&m, 0, sizeof m);
    m.shape = M_2D;
    m.kind = M_FLOAT;
    m.nch = 1;
    m.chbytes = 4;
    m.w = 6;
    m.h = 5;
    m.d = m.layers = m.levels = 1;
    m.level_data[0] = tight;
    for (int addr = M_CLAMP; addr <= M_BORDER; addr += 2) {
        h = make_tex(f, &m, &res, addr, 1, 0, 0);
        for (int i = 0; i < NT; i++) {
            int32_t c2[2] = {i % 9 - 2, i / 9 - 1};
            memcpy(r[i].c, c2, 8);
        }
        run_case(f, &m, h, "k2di", 3, r, "pitch2D integer coordinates");
        make_coords(&m, false, 4242, r);
        run_case(f, &m, h, "k2d", 0, r, "pitch2D linear");
        /* infinite and NaN coordinates and levels: a defined (clamped or
         * border) texel, never a fault or undefined arithmetic */
        const float odd[] = {INFINITY, -INFINITY, NAN, 3e38f, -3e38f};
        for (int i = 0; i < NT; i++) {
            r[i].c[0] = odd[i % 5];
            r[i].c[1] = odd[(i / 5) % 5];
            r[i].lod = odd[(i / 3) % 5];
        }
        assert_int_equal(ptxemu_memcpy_htod(f->ctx, f->in, r, sizeof r), PTXEMU_OK);
        void *args2[] = {&h, &f->in, &f->out};
        assert_int_equal(ptxemu_launch(f->mod, "k2d", g, b, 0, args2), PTXEMU_OK);
        assert_int_equal(ptxemu_object_destroy(f->ctx, h), PTXEMU_OK);
    }
}

/* The timing model runs the same texture kernels (tex through the texture
 * cache): the same values as the model, device memory equal to the
 * functional run's (digest after every launch), and texture-cache lookups
 * in the statistics. */
static void test_timing_equal(void **state)
{
    (void)state;
    uint64_t digest[2];
    for (int timing = 0; timing < 2; timing++) {
        fixture *f = fixture_new(timing != 0);
        sweep(f, true);
        void *st = f;
        test_gather(&st);
        test_mipmaps(&st);
        ptxemu_counters c;
        ptxemu_get_counters(f->ctx, &c);
        digest[timing] = c.memory_digest;
        if (timing) {
            const char *j = ptxemu_timing_stats_json(f->ctx);
            assert_non_null(j);
            const char *tot = strstr(j, "\"total\"");
            assert_non_null(tot);
            const char *h = strstr(tot, "\"tex_hits\": "), *m = strstr(tot, "\"tex_misses\": ");
            assert_non_null(h);
            assert_non_null(m);
            unsigned long long hits = strtoull(h + 12, NULL, 10);
            unsigned long long misses = strtoull(m + 14, NULL, 10);
            printf("# timing: %llu texture-cache hits, %llu misses, %llu cycles\n", hits, misses,
                   (unsigned long long)c.cycles);
            assert_true(hits > 0 && misses > 0);
        }
        ptxemu_ctx_destroy(f->ctx);
        free(f);
    }
    assert_true(digest[0] == digest[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sweep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mipmaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gather, setup, teardown),
        cmocka_unit_test_setup_teardown(test_linear_pitch, setup, teardown),
        cmocka_unit_test(test_timing_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
