/* tests/support/test_util.c — helpers shared by the cmocka tests. */
#include "tests/support/test_util.h"

#include <stdio.h>
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
