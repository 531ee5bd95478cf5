/* tests/runtime/test_surface.c — suld, sust, suq, txq and module-scope
 * .texref/.surfref binding, against the PTX ISA ("Surface Instructions",
 * "Texture Instructions"):
 *   - suld.b/sust.b address x in bytes, y/z in elements, the layer first
 *     for .a1d/.a2d; the access size is the vector of the data type;
 *   - out of bounds: .trap stops the launch, .clamp uses the nearest
 *     in-bounds location, .zero loads 0 and drops the store;
 *   - txq/suq return the resource's attributes (txq.level a level's size);
 *   - a .texref/.surfref is bound by name; an unbound one, a surface used as
 *     a texture and a geometry other than the resource's fault.
 * The expected memory is computed on the host from these rules. */
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 32

static const char *const geoms[] = {"1d", "2d", "3d", "a1d", "a2d"};
/* coordinate vectors per geometry: %r2 x bytes, %r3 y, %r4 z, %r5 layer */
static const char *const coordv[] = {"{%r2}", "{%r2, %r3}", "{%r2, %r3, %r4, %r4}",
                                     "{%r5, %r2}", "{%r5, %r2, %r3, %r3}"};
typedef struct acc {
    const char *type;           /* b8 b16 b32 b64 */
    int vec, elem;              /* elements, bytes each */
} acc;
static const acc accs[] = {{"b8", 1, 1}, {"b16", 2, 2}, {"b32", 4, 4}, {"b64", 1, 8}};
static const char *const modes[] = {"trap", "clamp", "zero"};

/* One load and one store kernel per geometry x access x mode: in[tid] =
 * {x, y, z, layer}; out[tid] = the bytes loaded (16 per thread); the store
 * writes bytes 0x10*tid + k. */
static char *build_module(void)
{
    GString *s = g_string_new(".version 8.0\n.target sm_80\n.address_size 64\n");
    for (int g = 0; g < 5; g++)
        for (int a = 0; a < 4; a++)
            for (int m = 0; m < 3; m++) {
                const acc *c = &accs[a];
                const char *reg = c->elem == 8 ? "%rd" : c->elem == 1 ? "%rs" : c->elem == 2 ? "%rh" : "%rv";
                char vec[64], vt[8] = "";
                if (c->vec == 1)
                    snprintf(vec, sizeof vec, "{%s1}", reg);
                else if (c->vec == 2)
                    snprintf(vec, sizeof vec, "{%s1, %s2}", reg, reg);
                else
                    snprintf(vec, sizeof vec, "{%s1, %s2, %s3, %s4}", reg, reg, reg, reg);
                if (c->vec > 1)
                    snprintf(vt, sizeof vt, ".v%d", c->vec);
                for (int st = 0; st < 2; st++) {
                    g_string_append_printf(
                        s,
                        ".visible .entry %s_%s_%s_%s(.param .u64 su, .param .u64 in, .param .u64 out)\n{\n"
                        " .reg .u32 %%r<8>;\n .reg .u64 %%rd<12>;\n .reg .b8 %%rs<5>;\n"
                        " .reg .b16 %%rh<5>;\n .reg .b32 %%rv<5>;\n"
                        " ld.param.u64 %%rd5, [su];\n ld.param.u64 %%rd6, [in];\n"
                        " ld.param.u64 %%rd7, [out];\n mov.u32 %%r1, %%tid.x;\n"
                        " mul.wide.u32 %%rd8, %%r1, 16;\n add.s64 %%rd9, %%rd6, %%rd8;\n"
                        " add.s64 %%rd10, %%rd7, %%rd8;\n"
                        " ld.global.v4.u32 {%%r2, %%r3, %%r4, %%r5}, [%%rd9];\n",
                        st ? "st" : "ld", geoms[g], c->type, modes[m]);
                    if (st) {
                        for (int k = 0; k < c->vec; k++)
                            g_string_append_printf(s, " ld.global.%s %s%d, [%%rd10+%d];\n",
                                                   c->type, reg, k + 1, k * c->elem);
                        g_string_append_printf(s, " sust.b.%s%s.%s.%s [%%rd5, %s], %s;\n",
                                               geoms[g], vt, c->type, modes[m], coordv[g], vec);
                    } else {
                        g_string_append_printf(s, " suld.b.%s%s.%s.%s %s, [%%rd5, %s];\n",
                                               geoms[g], vt, c->type, modes[m], vec, coordv[g]);
                        for (int k = 0; k < c->vec; k++)
                            g_string_append_printf(s, " st.global.%s [%%rd10+%d], %s%d;\n",
                                                   c->type, k * c->elem, reg, k + 1);
                    }
                    g_string_append(s, " ret;\n}\n");
                }
            }
    g_string_append(s,
        ".global .texref gt;\n.global .surfref gs;\n"
        ".visible .entry queries(.param .u64 t, .param .u64 su, .param .u64 out)\n{\n"
        " .reg .u32 %r<20>;\n .reg .u64 %rd<4>;\n"
        " ld.param.u64 %rd1, [t];\n ld.param.u64 %rd2, [su];\n ld.param.u64 %rd3, [out];\n"
        " txq.width.b32 %r1, [%rd1];\n txq.height.b32 %r2, [%rd1];\n"
        " txq.depth.b32 %r3, [%rd1];\n txq.num_mipmap_levels.b32 %r4, [%rd1];\n"
        " txq.normalized_coords.b32 %r5, [%rd1];\n txq.filter_mode.b32 %r6, [%rd1];\n"
        " txq.addr_mode_0.b32 %r7, [%rd1];\n txq.addr_mode_1.b32 %r8, [%rd1];\n"
        " mov.u32 %r9, 2;\n txq.level.width.b32 %r10, [%rd1], %r9;\n"
        " txq.level.height.b32 %r11, [%rd1], %r9;\n txq.channel_data_type.b32 %r12, [%rd1];\n"
        " txq.channel_order.b32 %r13, [%rd1];\n suq.width.b32 %r14, [%rd2];\n"
        " suq.height.b32 %r15, [%rd2];\n suq.array_size.b32 %r16, [%rd2];\n"
        " suq.channel_data_type.b32 %r17, [%rd2];\n suq.depth.b32 %r18, [%rd2];\n"
        " st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
        " st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
        " st.global.v4.u32 [%rd3+32], {%r10, %r11, %r12, %r13};\n"
        " st.global.v4.u32 [%rd3+48], {%r14, %r15, %r16, %r17};\n"
        " st.global.u32 [%rd3+64], %r18;\n"
        " .reg .pred %p<5>;\n istypep.texref %p1, %rd1;\n istypep.surfref %p2, %rd1;\n"
        " istypep.surfref %p3, %rd2;\n istypep.samplerref %p4, %rd2;\n"
        " selp.u32 %r1, 1, 0, %p1;\n selp.u32 %r2, 2, 0, %p2;\n selp.u32 %r3, 4, 0, %p3;\n"
        " selp.u32 %r4, 8, 0, %p4;\n or.b32 %r1, %r1, %r2;\n or.b32 %r1, %r1, %r3;\n"
        " or.b32 %r1, %r1, %r4;\n st.global.u32 [%rd3+68], %r1;\n ret;\n}\n"
        ".visible .entry refs(.param .u64 out, .param .texref pt)\n{\n"
        " .reg .u32 %r<8>;\n .reg .u64 %rd<4>;\n .reg .f32 %f<12>;\n"
        " ld.param.u64 %rd1, [out];\n mov.f32 %f1, 0f3FC00000;\n mov.f32 %f2, 0f40200000;\n"
        " tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [gt, {%f1, %f2}];\n"
        " tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [pt, {%f1, %f2}];\n"
        " mov.u32 %r1, 8;\n mov.u32 %r2, 1;\n mov.u32 %r4, 0;\n"
        " suld.b.a2d.b32.trap {%r3}, [gs, {%r4, %r1, %r2, %r2}];\n"
        " add.u32 %r3, %r3, 1000;\n sust.b.a2d.b32.trap [gs, {%r4, %r1, %r2, %r2}], {%r3};\n"
        " st.global.v4.f32 [%rd1], {%f3, %f4, %f7, %f8};\n st.global.u32 [%rd1+16], %r3;\n"
        " ret;\n}\n"
        ".visible .entry reduce(.param .u64 su)\n{\n .reg .u32 %r<12>;\n .reg .u64 %rd1;\n"
        " ld.param.u64 %rd1, [su];\n mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 3;\n"
        " shl.b32 %r3, %r2, 2;\n sured.b.add.1d.u32.trap [%rd1, {%r3}], %r1;\n"
        " add.u32 %r4, %r3, 16;\n sub.s32 %r5, %r1, 16;\n"
        " sured.b.min.1d.s32.trap [%rd1, {%r4}], %r5;\n"
        " add.u32 %r4, %r3, 32;\n mul.lo.u32 %r5, %r1, 3;\n"
        " sured.b.max.1d.u32.clamp [%rd1, {%r4}], %r5;\n"
        " and.b32 %r6, %r1, 7;\n shl.b32 %r7, 1, %r6;\n not.b32 %r7, %r7;\n"
        " and.b32 %r8, %r1, 1;\n shl.b32 %r8, %r8, 2;\n add.u32 %r9, %r8, 48;\n"
        " sured.b.and.1d.b32.zero [%rd1, {%r9}], %r7;\n"
        " add.u32 %r9, %r8, 56;\n shl.b32 %r10, 1, %r1;\n"
        " sured.b.or.1d.b32.zero [%rd1, {%r9}], %r10;\n"
        " mov.u32 %r11, 64;\n sured.b.add.1d.u32.zero [%rd1, {%r11}], 1;\n ret;\n}\n"
        ".visible .entry wrong3d(.param .u64 t)\n{\n .reg .u64 %rd1;\n .reg .f32 %f<6>;\n"
        " ld.param.u64 %rd1, [t];\n mov.f32 %f1, 0f00000000;\n"
        " tex.3d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1, %f1, %f1}];\n ret;\n}\n");
    return g_string_free(s, FALSE);
}

typedef struct fixture {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    ptxemu_dptr in, out;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    assert_int_equal(ptxemu_ctx_create(&f->ctx, &o), PTXEMU_OK);
    char *src = build_module();
    ptxemu_status s = ptxemu_module_load_string(f->ctx, src, "surf.ptx", &f->mod);
    g_free(src);
    if (s != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
    assert_int_equal(ptxemu_malloc(f->ctx, &f->in, NT * 16), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(f->ctx, &f->out, NT * 16), PTXEMU_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    ptxemu_ctx_destroy(f->ctx);
    free(f);
    return 0;
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Surface geometry of a case: width (elements), height, depth, layers. */
typedef struct sgeo {
    int w, h, d, layers, esize;
} sgeo;

/* The byte offset a coordinate reaches under `mode`, or -1 (dropped /
 * zero) or -2 (trap). */
static long target(const sgeo *g, int mode, int size, const int32_t c[4])
{
    long v[4] = {c[0], c[1], c[2], c[3]};
    long lim[4] = {(long)g->w * g->esize - size, g->h - 1, g->d - 1, g->layers - 1};
    bool out = false;
    for (int k = 0; k < 4; k++)
        out |= v[k] < 0 || v[k] > lim[k];
    if (out && mode == 0)
        return -2;
    if (out && mode == 2)
        return -1;
    if (out)
        for (int k = 0; k < 4; k++) {
            v[k] = v[k] < 0 ? 0 : v[k] > lim[k] ? lim[k] : v[k];
            if (k == 0)
                v[0] -= v[0] % size;
        }
    long row = (long)g->w * g->esize;
    return ((v[3] * g->d + v[2]) * g->h + v[1]) * row + v[0];
}

static void test_surface_sweep(void **state)
{
    fixture *f = *state;
    unsigned checks = 0;
    for (int gi = 0; gi < 5; gi++)
        for (int ai = 0; ai < 4; ai++) {
            const acc *a = &accs[ai];
            int size = a->vec * a->elem;
            sgeo g = {5, gi == 0 || gi == 3 ? 1 : 4, gi == 2 ? 3 : 1, gi >= 3 ? 3 : 1, size};
            ptxemu_channel_desc cd = {8 * (size > 4 ? size / 2 : size), size > 4 ? 8 * size / 2 : 0,
                                      0, 0, PTXEMU_CHANNEL_UNSIGNED};
            if (size == 16)
                cd = (ptxemu_channel_desc){32, 32, 32, 32, PTXEMU_CHANNEL_UNSIGNED};
            ptxemu_extent ext = {(size_t)g.w, gi == 0 || gi == 3 ? 0 : (size_t)g.h,
                                 gi == 2 ? (size_t)g.d : gi >= 3 ? (size_t)g.layers : 0};
            ptxemu_array *arr;
            unsigned flags = PTXEMU_ARRAY_SURFACE | (gi >= 3 ? PTXEMU_ARRAY_LAYERED : 0);
            if (ptxemu_array_create(f->ctx, &arr, &cd, ext, flags, 1) != PTXEMU_OK)
                fail_msg("%s", ptxemu_last_error(f->ctx));
            size_t total = (size_t)g.w * size * g.h * g.d * g.layers;
            uint8_t *img = malloc(total), *want = malloc(total), *back = malloc(total);
            for (size_t i = 0; i < total; i++)
                img[i] = (uint8_t)(i * 7 + 3);
            ptxemu_copy_side side = {img, 0, (size_t)g.w * size, (size_t)g.h};
            assert_int_equal(ptxemu_array_copy(f->ctx, arr, 1, 0, 0, 0, &side, (size_t)g.w * size,
                                               (size_t)g.h, (size_t)(g.d * g.layers)),
                             PTXEMU_OK);
            ptxemu_resource_desc res;
            memset(&res, 0, sizeof res);
            res.type = PTXEMU_RES_ARRAY;
            res.array = arr;
            uint64_t su;
            assert_int_equal(ptxemu_surface_create(f->ctx, &su, &res), PTXEMU_OK);
            for (int m = 1; m < 3; m++) { /* clamp, zero (trap below) */
                uint32_t seed = (uint32_t)(gi * 100 + ai * 10 + m);
                /* loads: any coordinates; stores: distinct targets (the first
                 * nst threads that found one), so that no two lanes race */
                int32_t c[NT][4];
                bool used[4096] = {false};
                int nst = NT;
                for (int t = 0; t < NT; t++) {
                    for (int tries = 0;; tries++) {
                        c[t][0] = (int32_t)(lcg(&seed) % (unsigned)(g.w + 4)) * size - 2 * size;
                        if (tries % 3 == 2)
                            c[t][0] += 1 + (int32_t)(lcg(&seed) % 3u); /* byte offsets */
                        c[t][1] = (int32_t)(lcg(&seed) % (unsigned)(g.h + 2)) - 1;
                        c[t][2] = (int32_t)(lcg(&seed) % (unsigned)(g.d + 2)) - 1;
                        c[t][3] = (int32_t)(lcg(&seed) % (unsigned)(g.layers + 2)) - 1;
                        if (gi == 0 || gi == 3)
                            c[t][1] = 0;
                        if (gi != 2)
                            c[t][2] = 0;
                        if (gi < 3)
                            c[t][3] = 0;
                        long tg = target(&g, m, size, c[t]);
                        if (tg >= 0 && c[t][0] % size != 0 && c[t][0] >= 0 &&
                            c[t][0] <= g.w * size - size)
                            continue; /* misaligned: undefined in the ISA */
                        if (tg >= 0 && used[tg / size]) {
                            if (tries < 300)
                                continue;
                            if (nst == NT)
                                nst = t;
                        }
                        if (tg >= 0 && t < nst)
                            used[tg / size] = true;
                        break;
                    }
                }
                /* PTX order: {x, y, z} / {layer, x, y} from in = {x, y, z, layer} */
                uint32_t in[NT][4];
                for (int t = 0; t < NT; t++) {
                    in[t][0] = (uint32_t)c[t][0];
                    in[t][1] = (uint32_t)c[t][1];
                    in[t][2] = (uint32_t)c[t][2];
                    in[t][3] = (uint32_t)c[t][3];
                }
                char kname[64];
                assert_int_equal(ptxemu_memcpy_htod(f->ctx, f->in, in, sizeof in), PTXEMU_OK);
                void *args[] = {&su, &f->in, &f->out};
                ptxemu_dim3 g1 = {1, 1, 1}, b = {NT, 1, 1};
                snprintf(kname, sizeof kname, "ld_%s_%s_%s", geoms[gi], a->type, modes[m]);
                if (ptxemu_launch(f->mod, kname, g1, b, 0, args) != PTXEMU_OK)
                    fail_msg("%s: %s", kname, ptxemu_last_error(f->ctx));
                uint8_t out[NT][16];
                assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, out, f->out, sizeof out), PTXEMU_OK);
                for (int t = 0; t < NT; t++) {
                    long tg = target(&g, m, size, c[t]);
                    for (int k = 0; k < size; k++, checks++) {
                        uint8_t w = tg < 0 ? 0 : img[tg + k];
                        if (out[t][k] != w)
                            fail_msg("%s thread %d (x %d y %d z %d layer %d) byte %d: got %u, "
                                     "want %u", kname, t, c[t][0], c[t][1], c[t][2], c[t][3], k,
                                     out[t][k], w);
                    }
                }
                /* stores: thread t writes 0x10*t + k */
                uint8_t vals[NT][16];
                memcpy(want, img, total);
                for (int t = 0; t < nst; t++) {
                    long tg = target(&g, m, size, c[t]);
                    for (int k = 0; k < 16; k++)
                        vals[t][k] = (uint8_t)(0x10 * t + k);
                    if (tg >= 0)
                        memcpy(want + tg, vals[t], (size_t)size);
                }
                assert_int_equal(ptxemu_memcpy_htod(f->ctx, f->out, vals, sizeof vals), PTXEMU_OK);
                snprintf(kname, sizeof kname, "st_%s_%s_%s", geoms[gi], a->type, modes[m]);
                ptxemu_dim3 bst = {(unsigned)nst, 1, 1};
                assert_true(nst >= 4);
                if (ptxemu_launch(f->mod, kname, g1, bst, 0, args) != PTXEMU_OK)
                    fail_msg("%s: %s", kname, ptxemu_last_error(f->ctx));
                side.host = back;
                assert_int_equal(ptxemu_array_copy(f->ctx, arr, 0, 0, 0, 0, &side,
                                                   (size_t)g.w * size, (size_t)g.h,
                                                   (size_t)(g.d * g.layers)),
                                 PTXEMU_OK);
                for (size_t i = 0; i < total; i++, checks++)
                    if (back[i] != want[i])
                        fail_msg("%s: byte %zu is %u, want %u", kname, i, back[i], want[i]);
                side.host = img; /* restore the image for the next mode */
                assert_int_equal(ptxemu_array_copy(f->ctx, arr, 1, 0, 0, 0, &side,
                                                   (size_t)g.w * size, (size_t)g.h,
                                                   (size_t)(g.d * g.layers)),
                                 PTXEMU_OK);
            }
            /* .trap: in bounds runs; one lane out of bounds stops the launch */
            uint32_t in[NT][4];
            memset(in, 0, sizeof in);
            in[5][1] = (uint32_t)g.h; /* past the last row (x past the row for 1D) */
            if (gi == 0 || gi == 3)
                in[5][0] = (uint32_t)(g.w * size);
            char kname[64];
            snprintf(kname, sizeof kname, "ld_%s_%s_trap", geoms[gi], a->type);
            void *args[] = {&su, &f->in, &f->out};
            ptxemu_dim3 g1 = {1, 1, 1}, b1 = {5, 1, 1}, b = {NT, 1, 1};
            assert_int_equal(ptxemu_memcpy_htod(f->ctx, f->in, in, sizeof in), PTXEMU_OK);
            assert_int_equal(ptxemu_launch(f->mod, kname, g1, b1, 0, args), PTXEMU_OK);
            assert_int_equal(ptxemu_launch(f->mod, kname, g1, b, 0, args),
                             PTXEMU_ERR_LAUNCH_FAILED);
            assert_non_null(strstr(ptxemu_last_error(f->ctx), "out of bounds (.trap)"));
            assert_int_equal(ptxemu_object_destroy(f->ctx, su), PTXEMU_OK);
            assert_int_equal(ptxemu_array_destroy(f->ctx, arr), PTXEMU_OK);
            free(img);
            free(want);
            free(back);
        }
    printf("# surfaces: %u bytes checked\n", checks);
}

/* txq/suq attributes; .texref/.surfref binding; faults. */
static void test_queries_refs(void **state)
{
    fixture *f = *state;
    ptxemu_channel_desc f4 = {32, 32, 32, 32, PTXEMU_CHANNEL_FLOAT};
    ptxemu_channel_desc u32 = {32, 0, 0, 0, PTXEMU_CHANNEL_UNSIGNED};
    ptxemu_array *mip, *lay;
    assert_int_equal(ptxemu_array_create(f->ctx, &mip, &f4, (ptxemu_extent){20, 12, 0}, 0, 4),
                     PTXEMU_OK);
    assert_int_equal(ptxemu_array_create(f->ctx, &lay, &u32, (ptxemu_extent){9, 7, 5},
                                         PTXEMU_ARRAY_LAYERED | PTXEMU_ARRAY_SURFACE, 1),
                     PTXEMU_OK);
    ptxemu_resource_desc rm = {PTXEMU_RES_MIPMAPPED, mip, 0, {0}, 0, 0, 0, 0};
    ptxemu_resource_desc rl = {PTXEMU_RES_ARRAY, lay, 0, {0}, 0, 0, 0, 0};
    ptxemu_texture_desc td;
    memset(&td, 0, sizeof td);
    td.addr[0] = 2;
    td.addr[1] = 3;
    td.filter = 1;
    td.normalized = 1;
    uint64_t t, su;
    assert_int_equal(ptxemu_texture_create(f->ctx, &t, &rm, &td), PTXEMU_OK);
    assert_int_equal(ptxemu_surface_create(f->ctx, &su, &rl), PTXEMU_OK);
    void *args[] = {&t, &su, &f->out};
    ptxemu_dim3 one = {1, 1, 1};
    if (ptxemu_launch(f->mod, "queries", one, one, 0, args) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
    uint32_t q[18];
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, q, f->out, sizeof q), PTXEMU_OK);
    assert_int_equal(q[17], 1u | 4u); /* istypep: texture is a texref, surface a surfref */
    /* width height depth levels normalized filter addr0 addr1 */
    const uint32_t want[17] = {20, 12, 1, 4, 1, 1, 2, 3, 5, 3, 0x10DE, 0x10B5,
                               /* suq: width (elements) height layers data type depth */
                               9, 7, 5, 0x10DC, 1};
    for (int i = 0; i < 17; i++)
        if (q[i] != want[i])
            fail_msg("query %d: got %u (0x%x), want %u", i, q[i], q[i], want[i]);

    /* .texref / .param .texref / .surfref: a 2D float4 texture, point,
     * unnormalised; the surface gets 1000 added at byte 8 of row 1 */
    ptxemu_array *img;
    assert_int_equal(ptxemu_array_create(f->ctx, &img, &f4, (ptxemu_extent){3, 4, 0}, 0, 1),
                     PTXEMU_OK);
    float px[4][3][4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 4; c++)
                px[y][x][c] = (float)(100 * y + 10 * x + c);
    ptxemu_copy_side side = {px, 0, sizeof px[0], 4};
    assert_int_equal(ptxemu_array_copy(f->ctx, img, 1, 0, 0, 0, &side, sizeof px[0], 4, 1),
                     PTXEMU_OK);
    ptxemu_resource_desc ri = {PTXEMU_RES_ARRAY, img, 0, {0}, 0, 0, 0, 0};
    memset(&td, 0, sizeof td);
    uint64_t ti;
    assert_int_equal(ptxemu_texture_create(f->ctx, &ti, &ri, &td), PTXEMU_OK);
    void *rargs[] = {&f->out, &ti};
    /* unbound: the launch faults naming the handle */
    assert_int_equal(ptxemu_launch(f->mod, "refs", one, one, 0, rargs), PTXEMU_ERR_LAUNCH_FAILED);
    assert_non_null(strstr(ptxemu_last_error(f->ctx), "is not a texture handle"));
    assert_int_equal(ptxemu_module_bind_ref(f->mod, "gt", ti), PTXEMU_OK);
    /* a texture bound where a surface is expected faults too */
    assert_int_equal(ptxemu_module_bind_ref(f->mod, "gs", ti), PTXEMU_OK);
    assert_int_equal(ptxemu_launch(f->mod, "refs", one, one, 0, rargs), PTXEMU_ERR_LAUNCH_FAILED);
    assert_non_null(strstr(ptxemu_last_error(f->ctx), "is not a surface handle"));
    assert_int_equal(ptxemu_module_bind_ref(f->mod, "gs", su), PTXEMU_OK);
    assert_int_equal(ptxemu_module_bind_ref(f->mod, "queries", su), PTXEMU_ERR_NOT_FOUND);
    uint32_t before = 0x01020304u, after;
    side = (ptxemu_copy_side){&before, 0, 4, 1};
    assert_int_equal(ptxemu_array_copy(f->ctx, lay, 1, 8, 1, 0, &side, 4, 1, 1), PTXEMU_OK);
    if (ptxemu_launch(f->mod, "refs", one, one, 0, rargs) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
    float r[5];
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, r, f->out, sizeof r), PTXEMU_OK);
    /* point sampling at (1.5, 2.5): texel (1, 2) */
    assert_true(r[0] == 210.0f && r[1] == 211.0f && r[2] == 210.0f && r[3] == 211.0f);
    uint32_t stored;
    memcpy(&stored, &r[4], 4);
    assert_int_equal(stored, 1000u + before);
    side = (ptxemu_copy_side){&after, 0, 4, 1};
    assert_int_equal(ptxemu_array_copy(f->ctx, lay, 0, 8, 1, 0, &side, 4, 1, 1), PTXEMU_OK);
    assert_int_equal(after, 1000u + before); /* element 2 of row 1, layer 0 */
    /* wrong geometry */
    void *wargs[] = {&ti};
    assert_int_equal(ptxemu_launch(f->mod, "wrong3d", one, one, 0, wargs),
                     PTXEMU_ERR_LAUNCH_FAILED);
    assert_non_null(strstr(ptxemu_last_error(f->ctx), "tex.3d on a 2d resource"));
    /* host-side refusals */
    ptxemu_texture_desc bad;
    memset(&bad, 0, sizeof bad);
    bad.filter = 1;
    uint64_t h;
    assert_int_equal(ptxemu_texture_create(f->ctx, &h, &rl, &bad), PTXEMU_ERR_INVALID_VALUE);
    bad.filter = 0;
    bad.srgb = 1;
    assert_int_equal(ptxemu_texture_create(f->ctx, &h, &rl, &bad), PTXEMU_ERR_UNSUPPORTED);
    assert_non_null(strstr(ptxemu_last_error(f->ctx), "not supported yet: sRGB"));
    assert_int_equal(ptxemu_surface_create(f->ctx, &h, &ri), PTXEMU_ERR_INVALID_VALUE);
    assert_int_equal(ptxemu_object_destroy(f->ctx, ti), PTXEMU_OK);
    assert_int_equal(ptxemu_object_destroy(f->ctx, ti), PTXEMU_ERR_INVALID_VALUE);
}

/* sured.b: add, min (signed), max, and, or; out of bounds with .zero
 * dropped; every lane's update lands (read-modify-write per lane). */
static void test_sured(void **state)
{
    fixture *f = *state;
    ptxemu_channel_desc cd = {32, 0, 0, 0, PTXEMU_CHANNEL_UNSIGNED};
    ptxemu_array *a;
    assert_int_equal(ptxemu_array_create(f->ctx, &a, &cd, (ptxemu_extent){16, 0, 0},
                                         PTXEMU_ARRAY_SURFACE, 1), PTXEMU_OK);
    uint32_t init[16] = {0}, got[16], want[16];
    init[12] = init[13] = 0xffffffffu;
    ptxemu_copy_side side = {init, 0, sizeof init, 1};
    assert_int_equal(ptxemu_array_copy(f->ctx, a, 1, 0, 0, 0, &side, sizeof init, 1, 1),
                     PTXEMU_OK);
    ptxemu_resource_desc r = {PTXEMU_RES_ARRAY, a, 0, {0}, 0, 0, 0, 0};
    uint64_t su;
    assert_int_equal(ptxemu_surface_create(f->ctx, &su, &r), PTXEMU_OK);
    void *args[] = {&su};
    ptxemu_dim3 one = {1, 1, 1}, b = {NT, 1, 1};
    if (ptxemu_launch(f->mod, "reduce", one, b, 0, args) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
    memcpy(want, init, sizeof want);
    for (int t = 0; t < NT; t++) {
        int k = t % 4;
        want[k] += (uint32_t)t;
        if ((int32_t)(t - 16) < (int32_t)want[4 + k])
            want[4 + k] = (uint32_t)(t - 16);
        if ((uint32_t)(3 * t) > want[8 + k])
            want[8 + k] = (uint32_t)(3 * t);
        want[12 + t % 2] &= ~(1u << (t % 8));
        want[14 + t % 2] |= 1u << t;
    }
    side.host = got;
    assert_int_equal(ptxemu_array_copy(f->ctx, a, 0, 0, 0, 0, &side, sizeof got, 1, 1),
                     PTXEMU_OK);
    for (int i = 0; i < 16; i++)
        if (got[i] != want[i])
            fail_msg("element %d: 0x%x, want 0x%x", i, got[i], want[i]);
}

/* Forms without semantics are refused at load with their location. */
static void test_unsupported_forms(void **state)
{
    fixture *f = *state;
    static const char src[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 s)\n{\n .reg .u64 %rd1;\n .reg .b32 %r<5>;\n"
        " ld.param.u64 %rd1, [s];\n mov.u32 %r1, 0;\n"
        " sust.p.1d.v4.b32.zero [%rd1, {%r1}], {%r1, %r1, %r1, %r1};\n ret;\n}\n";
    ptxemu_module *m;
    assert_int_equal(ptxemu_module_load_string(f->ctx, src, "p.ptx", &m), PTXEMU_ERR_UNSUPPORTED);
    const char *e = ptxemu_last_error(f->ctx);
    if (!strstr(e, "p.ptx:10:2"))
        fail_msg("%s", e);
    assert_non_null(strstr(e, "not supported yet: formatted surface access (.p)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_surface_sweep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_queries_refs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sured, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsupported_forms, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
