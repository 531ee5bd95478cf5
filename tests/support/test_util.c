/* tests/support/test_util.c — helpers shared by the cmocka tests. */
#include "tests/support/test_util.h"

#include <stdio.h>
#include <stdlib.h>

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
