/* cudart/fatbin.c — parsing nvcc fatbinaries and picking the PTX to run
 * (layout in fatbin.h).  Zstandard entries are decoded by the system's
 * libzstd, opened at run time so the build needs no development package. */
#include "cudart/fatbin.h"
#include "cudart/cuda_abi.h"
#include "cudart/lz4_block.h"

#include <dlfcn.h>
#include <string.h>

G_DEFINE_QUARK(ptxemu-fatbin-error, fatbin_error)

#define FATBIN_HEADER_SIZE 16u
#define ENTRY_HEADER_MIN 64u

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

const void *fatbin_image(const void *registered, GError **error)
{
    if (!registered) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT, "no fatbinary (NULL)");
        return NULL;
    }
    const uint8_t *p = registered;
    if (rd32(p) == FATBIN_MAGIC)
        return p;
    const fatbin_wrapper *w = registered;
    if ((uint32_t)w->magic != FATBINC_MAGIC || !w->data) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT,
                    "not a fatbinary wrapper (magic 0x%08x, expected 0x%08x)",
                    (uint32_t)w->magic, FATBINC_MAGIC);
        return NULL;
    }
    return w->data;
}

const void *const *fatbin_prelinked(const void *registered)
{
    if (!registered || rd32(registered) == FATBIN_MAGIC)
        return NULL;
    const fatbin_wrapper *w = registered;
    if ((uint32_t)w->magic != FATBINC_MAGIC || w->version != 2)
        return NULL;
    return (const void *const *)w->filename_or_fatbins;
}

bool fatbin_parse(const void *image, size_t limit, GArray *entries, GError **error)
{
    const uint8_t *p = image;
    if (limit && limit < FATBIN_HEADER_SIZE) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT, "fatbinary truncated: %zu bytes", limit);
        return false;
    }
    if (rd32(p) != FATBIN_MAGIC) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT,
                    "bad fatbinary magic 0x%08x (expected 0x%08x)", rd32(p), FATBIN_MAGIC);
        return false;
    }
    uint16_t hsize = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hsize < FATBIN_HEADER_SIZE || (limit && (hsize > limit || body > limit - hsize))) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT,
                    "fatbinary header size %u / body %llu out of range", hsize,
                    (unsigned long long)body);
        return false;
    }
    const uint8_t *e = p + hsize, *end = e + body;
    while (e < end) {
        size_t left = (size_t)(end - e);
        if (left < ENTRY_HEADER_MIN || rd32(e + 4) < ENTRY_HEADER_MIN || rd32(e + 4) > left ||
            rd64(e + 8) > left - rd32(e + 4)) {
            g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT,
                        "fatbinary entry at offset %zu runs past the end",
                        (size_t)(e - p));
            return false;
        }
        fatbin_entry fe = {
            .kind = rd16(e), .arch = rd32(e + 28), .ptx_minor = rd16(e + 24),
            .ptx_major = rd16(e + 26), .flags = rd64(e + 40),
            .payload = e + rd32(e + 4), .payload_size = rd64(e + 8),
            .compressed_size = rd32(e + 16), .uncompressed_size = rd64(e + 56),
        };
        g_array_append_val(entries, fe);
        e = fe.payload + fe.payload_size;
    }
    return true;
}

/* ZSTD_decompress and ZSTD_isError from the system's libzstd.so.1. */
typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);

static bool zstd_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len, GError **error)
{
    void *lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_COMPRESSION,
                    "not supported yet: a Zstandard-compressed fatbinary entry needs libzstd.so.1 "
                    "(%s); rebuild with --compress-mode=none or speed", dlerror());
        return false;
    }
    zstd_decompress_fn dec;
    zstd_is_error_fn is_err;
    *(void **)&dec = dlsym(lib, "ZSTD_decompress");
    *(void **)&is_err = dlsym(lib, "ZSTD_isError");
    bool ok = dec && is_err;
    size_t got = ok ? dec(dst, dst_len, src, n) : 0;
    if (ok && (is_err(got) || got != dst_len))
        ok = false;
    dlclose(lib);
    if (!ok)
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_COMPRESSION,
                    "a Zstandard-compressed fatbinary entry does not decode to %zu bytes", dst_len);
    return ok;
}

uint8_t *fatbin_entry_data(const fatbin_entry *e, size_t *len, GError **error)
{
    bool lz4 = e->flags & FATBIN_FLAG_LZ4, zstd = e->flags & FATBIN_FLAG_ZSTD;
    if (!lz4 && !zstd) {
        uint8_t *d = g_malloc(e->payload_size + 1);
        memcpy(d, e->payload, e->payload_size);
        d[e->payload_size] = 0;
        *len = e->payload_size;
        return d;
    }
    size_t csize = e->compressed_size, usize = e->uncompressed_size;
    if (csize > e->payload_size || usize > (1ull << 31)) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT,
                    "compressed fatbinary entry: sizes out of range (%zu of %llu stored, %zu unpacked)",
                    csize, (unsigned long long)e->payload_size, usize);
        return NULL;
    }
    uint8_t *d = g_try_malloc(usize + 1);
    if (!d) {
        g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_FORMAT,
                    "compressed fatbinary entry: no host memory to unpack %zu bytes", usize);
        return NULL;
    }
    bool ok;
    if (lz4) {
        ok = lz4_block_decode(e->payload, csize, d, usize);
        if (!ok)
            g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_COMPRESSION,
                        "an LZ4-compressed fatbinary entry is damaged");
    } else {
        ok = zstd_decode(e->payload, csize, d, usize, error);
    }
    if (!ok) {
        g_free(d);
        return NULL;
    }
    d[usize] = 0;
    *len = usize;
    return d;
}

char *fatbin_pick_ptx(const GArray *entries, uint32_t target, uint32_t *arch, GError **error)
{
    const fatbin_entry *best = NULL;
    GString *seen = g_string_new(NULL);
    unsigned sass = 0, ptx = 0;
    for (guint i = 0; i < entries->len; i++) {
        const fatbin_entry *e = &g_array_index(entries, fatbin_entry, i);
        if (e->kind == FATBIN_KIND_ELF)
            sass++;
        if (e->kind != FATBIN_KIND_PTX)
            continue;
        ptx++;
        g_string_append_printf(seen, "%scompute_%u", seen->len ? ", " : "", e->arch);
        if (e->arch <= target && (!best || e->arch > best->arch))
            best = e;
    }
    if (!best) {
        if (!ptx)
            g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_SASS_ONLY,
                        "the binary carries no PTX (%u SASS entr%s only); ptxemu runs PTX: "
                        "rebuild with -gencode arch=compute_XX,code=compute_XX (XX <= %u)",
                        sass, sass == 1 ? "y" : "ies", target);
        else
            g_set_error(error, FATBIN_ERROR, FATBIN_ERROR_NO_TARGET,
                        "the binary's PTX (%s) is for targets above the config's "
                        "gpu.compute_capability %u; rebuild with -gencode "
                        "arch=compute_XX,code=compute_XX (XX <= %u) or raise the key",
                        seen->str, target, target);
        g_string_free(seen, TRUE);
        return NULL;
    }
    g_string_free(seen, TRUE);
    size_t len;
    uint8_t *text = fatbin_entry_data(best, &len, error);
    if (text && arch)
        *arch = best->arch;
    return (char *)text;
}
