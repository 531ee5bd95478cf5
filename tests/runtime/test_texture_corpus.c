/* tests/runtime/test_texture_corpus.c — nvcc 13's texture and surface code
 * (tests/corpus/cuda/texture_objects.cu, committed PTX for sm_75, sm_80,
 * sm_90) through the real executor, against the CPU model of
 * tests/runtime/tex_model.h and host references of the surface updates. */
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

#define N 48

typedef struct fx {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    const char *arch;
} fx;

static float rnd(uint32_t *s, float lo, float hi)
{
    *s = *s * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(*s >> 8) / 16777216.0f;
}

static ptxemu_dptr up(fx *f, const void *p, size_t n)
{
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(f->ctx, &d, n), PTXEMU_OK);
    if (p)
        assert_int_equal(ptxemu_memcpy_htod(f->ctx, d, p, n), PTXEMU_OK);
    return d;
}

static void run(fx *f, const char *k, unsigned gx, unsigned gy, unsigned bx, void **args)
{
    ptxemu_dim3 g = {gx, gy, 1}, b = {bx, 1, 1};
    if (ptxemu_launch(f->mod, k, g, b, 0, args) != PTXEMU_OK)
        fail_msg("%s %s: %s", f->arch, k, ptxemu_last_error(f->ctx));
}

static void near(fx *f, const char *k, int i, double got, double want)
{
    if (!(fabs(got - want) <= 2e-6 * (fabs(want) > 1 ? fabs(want) : 1)))
        fail_msg("%s %s [%d]: got %.9g, model %.9g", f->arch, k, i, got, want);
}

/* An array of `m`'s geometry filled with float texels v(x,y,z,layer,c). */
static ptxemu_array *float_array(fx *f, model_tex *m, float *host, unsigned flags)
{
    ptxemu_channel_desc cd = {32, m->nch > 1 ? 32 : 0, m->nch > 2 ? 32 : 0, m->nch > 3 ? 32 : 0,
                              PTXEMU_CHANNEL_FLOAT};
    size_t depth = m->shape == M_3D ? (size_t)m->d : m->layers > 1 ? (size_t)m->layers : 0;
    ptxemu_array *a;
    ptxemu_extent ext = {(size_t)m->w, (size_t)m->h, depth};
    assert_int_equal(ptxemu_array_create(f->ctx, &a, &cd, ext, flags, (unsigned)m->levels),
                     PTXEMU_OK);
    size_t off = 0;
    for (int l = 0; l < m->levels; l++) {
        int w = m_dim(m->w, l), h = m_dim(m->h, l), d = m_dim(m->d, l);
        size_t n = (size_t)w * h * d * m->layers * m->nch;
        for (size_t i = 0; i < n; i++)
            host[off + i] = (float)((i * 37 + 11 * (size_t)l) % 97) - 20.0f + 0.25f * (float)l;
        m->level_data[l] = host + off;
        size_t row = (size_t)w * m->nch * 4;
        ptxemu_copy_side side = {host + off, 0, row, (size_t)h};
        ptxemu_array *la = m->levels > 1 ? ptxemu_array_level(a, (unsigned)l) : a;
        assert_int_equal(ptxemu_array_copy(f->ctx, la, 1, 0, 0, 0, &side, row, (size_t)h,
                                           (size_t)(d * m->layers)), PTXEMU_OK);
        off += n;
    }
    return a;
}

static uint64_t texture(fx *f, model_tex *m, const ptxemu_resource_desc *r)
{
    ptxemu_texture_desc td;
    memset(&td, 0, sizeof td);
    memcpy(td.addr, m->addr, sizeof td.addr);
    td.filter = m->filter;
    td.normalized = m->normalized;
    td.mip_filter = m->mipfilter;
    td.max_lod = m->maxl;
    memcpy(td.border, m->border, sizeof td.border);
    uint64_t h;
    if (ptxemu_texture_create(f->ctx, &h, r, &td) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
    return h;
}

static void textures(fx *f)
{
    uint32_t seed = 5;
    static float host[4096];
    ptxemu_dptr out = up(f, NULL, N * 16 * 2), cin = up(f, NULL, N * 16);
    int n = N;
    /* tex1Dfetch: linear memory, out of range is zero */
    float lin[20];
    for (int i = 0; i < 20; i++)
        lin[i] = 0.5f * (float)i - 3.0f;
    ptxemu_dptr dl = up(f, lin, sizeof lin);
    ptxemu_resource_desc rl = {PTXEMU_RES_LINEAR, NULL, dl, {32, 0, 0, 0, PTXEMU_CHANNEL_FLOAT},
                               sizeof lin, 0, 0, 0};
    model_tex ml = {0};
    uint64_t h = texture(f, &ml, &rl);
    void *a1[] = {&h, &out, &n};
    run(f, "fetch_linear", 1, 1, N, a1);
    float o[N * 8];
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, o, out, N * 4), PTXEMU_OK);
    for (int i = 0; i < N; i++)
        near(f, "fetch_linear", i, o[i], i - 3 >= 0 && i - 3 < 20 ? lin[i - 3] : 0.0);

    /* shapes: 2D float4 linear wrap (normalised), 3D linear clamp,
     * layered point border, cube linear */
    static const struct {
        const char *k;
        int shape, nch, w, h, d, filter, addr, norm;
    } cases[] = {
        {"sample_2d", M_2D, 4, 6, 5, 1, 1, M_WRAP, 1},
        {"sample_2d", M_2D, 4, 6, 5, 1, 1, M_MIRROR, 1},
        {"sample_3d", M_3D, 1, 4, 3, 5, 1, M_CLAMP, 0},
        {"sample_layered", M_A2D, 1, 5, 4, 3, 0, M_BORDER, 0},
        {"sample_cube", M_CUBE, 1, 4, 4, 6, 1, M_CLAMP, 1},
        {"gather_green", M_2D, 4, 6, 5, 1, 0, M_BORDER, 0},
    };
    for (size_t ci = 0; ci < G_N_ELEMENTS(cases); ci++) {
        model_tex m = {0};
        m.shape = cases[ci].shape;
        m.kind = M_FLOAT;
        m.nch = cases[ci].nch;
        m.chbytes = 4;
        m.w = cases[ci].w;
        m.h = cases[ci].h;
        m.d = m.shape == M_3D ? cases[ci].d : 1;
        m.layers = m.shape == M_3D ? 1 : cases[ci].d;
        m.levels = 1;
        m.filter = cases[ci].filter;
        m.normalized = cases[ci].norm;
        m.addr[0] = m.addr[1] = m.addr[2] = cases[ci].addr;
        m.border[0] = 9.5f;
        m.border[3] = -1.0f;
        unsigned flags = m.shape == M_A2D ? PTXEMU_ARRAY_LAYERED
                         : m.shape == M_CUBE ? PTXEMU_ARRAY_CUBEMAP : 0;
        ptxemu_array *arr = float_array(f, &m, host, flags);
        ptxemu_resource_desc r = {PTXEMU_RES_ARRAY, arr, 0, {0}, 0, 0, 0, 0};
        h = texture(f, &m, &r);
        float c[N][4];
        bool two = m.shape == M_2D;
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < 3; k++) {
                int dim = k == 0 ? m.w : k == 1 ? m.h : m.d;
                c[i][k] = m.shape == M_CUBE ? rnd(&seed, -1, 1)
                          : m.normalized ? rnd(&seed, -1.4f, 2.4f)
                                         : rnd(&seed, -2.0f, (float)dim + 2.0f);
            }
            c[i][3] = (float)(i % (m.layers + 2));
        }
        float c2[N][2];
        for (int i = 0; i < N; i++) {
            c2[i][0] = c[i][0];
            c2[i][1] = c[i][1];
        }
        assert_int_equal(ptxemu_memcpy_htod(f->ctx, cin, two ? (void *)c2 : (void *)c,
                                            two ? sizeof c2 : sizeof c), PTXEMU_OK);
        void *args[] = {&h, &cin, &out, &n};
        run(f, cases[ci].k, 1, 1, N, args);
        int per = two ? 4 : 1;
        assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, o, out, (size_t)N * per * 4), PTXEMU_OK);
        for (int i = 0; i < N; i++) {
            double want[4];
            if (strcmp(cases[ci].k, "gather_green") == 0)
                m_gather(&m, c[i], 0, 1, want);
            else
                m_fetch(&m, c[i], (unsigned)(int)c[i][3], 0, 0, NULL, NULL, want);
            for (int k = 0; k < per; k++)
                near(f, cases[ci].k, i * per + k, o[i * per + k], want[k]);
        }
        assert_int_equal(ptxemu_object_destroy(f->ctx, h), PTXEMU_OK);
        assert_int_equal(ptxemu_array_destroy(f->ctx, arr), PTXEMU_OK);
    }

    /* mipmaps: tex2DLod and tex2DGrad (isotropic gradient c.w) */
    model_tex m = {0};
    m.shape = M_2D;
    m.kind = M_FLOAT;
    m.nch = 1;
    m.chbytes = 4;
    m.w = 16;
    m.h = 8;
    m.d = m.layers = 1;
    m.levels = 4;
    m.filter = 1;
    m.normalized = 1;
    m.mipfilter = 1;
    m.maxl = 10.0f;
    ptxemu_array *mip = float_array(f, &m, host, 0);
    ptxemu_resource_desc rm = {PTXEMU_RES_MIPMAPPED, mip, 0, {0}, 0, 0, 0, 0};
    h = texture(f, &m, &rm);
    float c[N][4];
    for (int i = 0; i < N; i++) {
        c[i][0] = rnd(&seed, 0, 1);
        c[i][1] = rnd(&seed, 0, 1);
        c[i][2] = rnd(&seed, -0.5f, 4.0f);
        c[i][3] = rnd(&seed, 0.01f, 0.6f);
    }
    assert_int_equal(ptxemu_memcpy_htod(f->ctx, cin, c, sizeof c), PTXEMU_OK);
    void *am[] = {&h, &cin, &out, &n};
    run(f, "sample_lod_grad", 1, 1, N, am);
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, o, out, N * 8), PTXEMU_OK);
    for (int i = 0; i < N; i++) {
        double want[4];
        float dx[3] = {c[i][3], 0, 0}, dy[3] = {0, c[i][3], 0};
        m_fetch(&m, c[i], 0, 1, c[i][2], NULL, NULL, want);
        near(f, "tex2DLod", i, o[2 * i], want[0]);
        m_fetch(&m, c[i], 0, 2, 0, dx, dy, want);
        near(f, "tex2DGrad", i, o[2 * i + 1], want[0]);
    }
}

static void surfaces(fx *f)
{
    enum { W = 7, H = 3 };
    ptxemu_channel_desc cd = {32, 0, 0, 0, PTXEMU_CHANNEL_SIGNED};
    ptxemu_array *a;
    assert_int_equal(ptxemu_array_create(f->ctx, &a, &cd, (ptxemu_extent){W, H, 0},
                                         PTXEMU_ARRAY_SURFACE, 1), PTXEMU_OK);
    int32_t img[H][W], back[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = 10 * y + x - 9;
    ptxemu_copy_side side = {img, 0, sizeof img[0], H};
    assert_int_equal(ptxemu_array_copy(f->ctx, a, 1, 0, 0, 0, &side, sizeof img[0], H, 1),
                     PTXEMU_OK);
    ptxemu_resource_desc r = {PTXEMU_RES_ARRAY, a, 0, {0}, 0, 0, 0, 0};
    uint64_t s;
    assert_int_equal(ptxemu_surface_create(f->ctx, &s, &r), PTXEMU_OK);
    ptxemu_dptr edge = up(f, NULL, 64);
    int w = W, h = H;
    void *args[] = {&s, &edge, &w, &h};
    run(f, "surface_update", 1, H, 32, args);
    side.host = back;
    assert_int_equal(ptxemu_array_copy(f->ctx, a, 0, 0, 0, 0, &side, sizeof img[0], H, 1),
                     PTXEMU_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (back[y][x] != img[y][x] * 2 + 1)
                fail_msg("%s surface (%d, %d): %d, want %d", f->arch, x, y, back[y][x],
                         img[y][x] * 2 + 1);
    run(f, "surface_clamp_read", 1, 1, 12, args);
    int32_t e[12];
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, e, edge, sizeof e), PTXEMU_OK);
    for (int x = 0; x < 12; x++) { /* byte x clamped to [0, 24], row to H-1 */
        int cx = x - 2 < 0 ? 0 : x - 2 > W - 1 ? W - 1 : x - 2;
        assert_int_equal(e[x], back[H - 1][cx]);
    }
    /* surf1DLayeredwrite of shorts into a 2-layer 9-wide short array */
    ptxemu_channel_desc sd = {16, 0, 0, 0, PTXEMU_CHANNEL_SIGNED};
    ptxemu_array *l;
    assert_int_equal(ptxemu_array_create(f->ctx, &l, &sd, (ptxemu_extent){9, 0, 2},
                                         PTXEMU_ARRAY_SURFACE | PTXEMU_ARRAY_LAYERED, 1),
                     PTXEMU_OK);
    ptxemu_resource_desc rl = {PTXEMU_RES_ARRAY, l, 0, {0}, 0, 0, 0, 0};
    uint64_t sl;
    assert_int_equal(ptxemu_surface_create(f->ctx, &sl, &rl), PTXEMU_OK);
    int w9 = 9, layers = 2;
    void *al[] = {&sl, &w9, &layers};
    run(f, "surface_layers", 2, 1, 9, al);
    int16_t lv[2][9];
    ptxemu_copy_side ls = {lv, 0, sizeof lv[0], 1};
    assert_int_equal(ptxemu_array_copy(f->ctx, l, 0, 0, 0, 0, &ls, sizeof lv[0], 1, 2),
                     PTXEMU_OK);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 9; x++)
            assert_int_equal(lv[y][x], y * 100 + x);
}

static void test_arch(void **state)
{
    const char *arch = *state;
    fx f = {0};
    f.arch = arch;
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    assert_int_equal(ptxemu_ctx_create(&f.ctx, &o), PTXEMU_OK);
    char rel[96];
    snprintf(rel, sizeof rel, "tests/corpus/nvcc/texture_objects.%s.ptx", arch);
    char *path = test_source_path(rel);
    if (ptxemu_module_load_file(f.ctx, path, &f.mod) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f.ctx));
    g_free(path);
    textures(&f);
    surfaces(&f);
    ptxemu_ctx_destroy(f.ctx);
}

int main(void)
{
    static const char *const archs[] = {"sm_75", "sm_80", "sm_90"};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_arch, (void *)archs[0]),
        cmocka_unit_test_prestate(test_arch, (void *)archs[1]),
        cmocka_unit_test_prestate(test_arch, (void *)archs[2]),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
