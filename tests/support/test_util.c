/* tests/support/test_util.c — helpers shared by the cmocka tests. */
#include "tests/support/test_util.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>

char *test_source_path(const char *relative)
{
    const char *root = g_getenv("PTXEMU_SOURCE_DIR");
    return g_build_filename(root ? root : ".", relative, NULL);
}

char *test_read_file(const char *relative, gsize *len)
{
    char *path = test_source_path(relative);
    char *text = NULL;
    GError *err = NULL;
    if (!g_file_get_contents(path, &text, len, &err)) {
        fprintf(stderr, "cannot read %s: %s\n", path, err->message);
        abort();
    }
    g_free(path);
    return text;
}

int test_run_cli(const char *const *args, char **out, char **err)
{
    const char *bin = g_getenv("PTXEMU_BIN");
    if (!bin || !*bin) {
        fprintf(stderr, "PTXEMU_BIN is not set: the command-line tests need the ptxemu "
                        "program (run them with `meson test`, which sets it)\n");
        abort();
    }
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)bin);
    for (const char *const *p = args; *p; p++)
        g_ptr_array_add(argv, (gpointer)*p);
    g_ptr_array_add(argv, NULL);
    char *o = NULL, *e = NULL;
    gint status = 0;
    GError *error = NULL;
    if (!g_spawn_sync(NULL, (gchar **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &o, &e,
                      &status, &error)) {
        fprintf(stderr, "cannot run %s: %s\n", bin, error->message);
        abort();
    }
    g_ptr_array_free(argv, TRUE);
    if (out)
        *out = o;
    else
        g_free(o);
    if (err)
        *err = e;
    else
        g_free(e);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
}

ptxemu_status test_run_ptx(const char *ptx, const char *kernel, unsigned grid,
                           unsigned block, test_buf *bufs, unsigned nbufs,
                           char **error)
{
    ptxemu_ctx *ctx = NULL;
    ptxemu_module *mod = NULL;
    ptxemu_dptr dptr[16] = {0};
    void *args[16];
    ptxemu_status s = ptxemu_ctx_create(&ctx, NULL);
    if (s == PTXEMU_OK)
        s = ptxemu_module_load_string(ctx, ptx, "test.ptx", &mod);
    for (unsigned i = 0; s == PTXEMU_OK && i < nbufs && i < 16; i++) {
        s = ptxemu_malloc(ctx, &dptr[i], bufs[i].bytes);
        if (s == PTXEMU_OK)
            s = ptxemu_memcpy_htod(ctx, dptr[i], bufs[i].host, bufs[i].bytes);
        args[i] = &dptr[i];
    }
    if (s == PTXEMU_OK) {
        ptxemu_dim3 g = {grid, 1, 1}, b = {block, 1, 1};
        s = ptxemu_launch(mod, kernel, g, b, 0, args);
    }
    for (unsigned i = 0; s == PTXEMU_OK && i < nbufs && i < 16; i++)
        s = ptxemu_memcpy_dtoh(ctx, bufs[i].host, dptr[i], bufs[i].bytes);
    if (error)
        *error = s == PTXEMU_OK ? NULL : g_strdup(ptxemu_last_error(ctx));
    ptxemu_ctx_destroy(ctx);
    return s;
}

void test_corpus_load(test_corpus *f, const char *name, const char *arch,
                      const ptxemu_options *opts)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/corpus/nvcc/%s.sm_%s.ptx", name, arch);
    assert_int_equal(ptxemu_ctx_create(&f->ctx, opts), PTXEMU_OK);
    char *path = test_source_path(rel);
    ptxemu_status s = ptxemu_module_load_file(f->ctx, path, &f->mod);
    if (s != PTXEMU_OK)
        fail_msg("%s: %s", rel, ptxemu_last_error(f->ctx));
    g_free(path);
    f->sm = (unsigned)atoi(arch);
}

ptxemu_dptr test_corpus_upload(test_corpus *f, const void *host, size_t bytes)
{
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(f->ctx, &d, bytes), PTXEMU_OK);
    if (host)
        assert_int_equal(ptxemu_memcpy_htod(f->ctx, d, host, bytes), PTXEMU_OK);
    else
        assert_int_equal(ptxemu_memset(f->ctx, d, 0, bytes), PTXEMU_OK);
    return d;
}

void test_corpus_launch_dim(test_corpus *f, const char *kernel, ptxemu_dim3 grid,
                            ptxemu_dim3 block, void **args)
{
    ptxemu_status s = ptxemu_launch(f->mod, kernel, grid, block, 0, args);
    if (s != PTXEMU_OK)
        fail_msg("sm_%u %s: %s", f->sm, kernel, ptxemu_last_error(f->ctx));
}

void test_corpus_launch(test_corpus *f, const char *kernel, unsigned blocks, unsigned threads,
                        void **args)
{
    test_corpus_launch_dim(f, kernel, (ptxemu_dim3){blocks, 1, 1}, (ptxemu_dim3){threads, 1, 1},
                           args);
}

void test_corpus_download(test_corpus *f, void *host, ptxemu_dptr d, size_t bytes)
{
    assert_int_equal(ptxemu_memcpy_dtoh(f->ctx, host, d, bytes), PTXEMU_OK);
}

void test_corpus_run_io(test_corpus *f, const char *kernel, unsigned blocks, unsigned threads,
                        const void *in, size_t in_bytes, void *out, size_t out_bytes)
{
    ptxemu_dptr din = test_corpus_upload(f, in, in_bytes),
                dout = test_corpus_upload(f, NULL, out_bytes);
    void *args[] = {&din, &dout};
    test_corpus_launch(f, kernel, blocks, threads, args);
    test_corpus_download(f, out, dout, out_bytes);
}

void test_corpus_close(test_corpus *f)
{
    ptxemu_ctx_destroy(f->ctx);
}

uint32_t test_lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

uint32_t test_rng(uint32_t *state)
{
    uint32_t x = test_lcg(state);
    return x ^ (x >> 13);
}

/* Start of the idx-th number called `key`, or NULL. */
static const char *json_find(const char *json, const char *key, unsigned idx)
{
    char *pat = g_strdup_printf("\"%s\":", key);
    const char *p = json;
    for (unsigned k = 0; p && (p = strstr(p, pat)) && k < idx; k++)
        p++;
    if (p)
        p += strlen(pat);
    g_free(pat);
    return p;
}

uint64_t test_json_nth(const char *json, const char *key, unsigned idx)
{
    assert_non_null(json);
    const char *p = json_find(json, key, idx);
    if (!p)
        fail_msg("no %s number %u in the statistics", key, idx);
    return g_ascii_strtoull(p, NULL, 10);
}

double test_json_real(const char *json, const char *key, unsigned idx)
{
    assert_non_null(json);
    const char *p = json_find(json, key, idx);
    if (!p)
        fail_msg("no %s number %u in the statistics", key, idx);
    return g_ascii_strtod(p, NULL);
}

unsigned test_json_count(const char *json, const char *key)
{
    char *pat = g_strdup_printf("\"%s\":", key);
    unsigned n = 0;
    for (const char *p = json; (p = strstr(p, pat)); p++)
        n++;
    g_free(pat);
    return n;
}

void test_timing_open(const char *config, const char *const *sets, const char *ptx,
                      const char *name, ptxemu_ctx **ctx, ptxemu_module **mod)
{
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = config;
    o.timing_set = sets;
    *ctx = NULL;
    if (ptxemu_ctx_create(ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(*ctx));
    if (ptxemu_module_load_string(*ctx, ptx, name, mod) != PTXEMU_OK)
        fail_msg("module: %s", ptxemu_last_error(*ctx));
}
