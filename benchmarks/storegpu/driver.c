/* storegpu/driver.c — sliding-window MD5 hashing of a data buffer, the
 * StoreGPU workload (CLASO Table 2 "ST": 1 kernel, 128-thread CTAs).
 *
 * Host flow: the buffer (random bytes with repeated runs, as in backup data
 * with duplicate blocks) and MD5's sine table go to the device, one
 * md5_windows launch hashes every 48-byte window at a 16-byte stride, the
 * host reads the digests and counts windows whose digest was seen before
 * (the duplicates a store would keep once).  Check: every digest exactly
 * against a CPU MD5 written from RFC 1321, itself first checked against the
 * RFC's test-suite digests of "", "abc" and "message digest"; and the
 * duplicate count against one from comparing the windows' bytes.
 *
 * Sizes: 2,048 / 32,768 / 131,072 windows (16 / 256 / 1,024 CTAs); paper is
 * 9.1 waves on c2050 (14 SMs x 8 CTAs), where CLASO ran 128 CTAs. */
#include "benchmarks/bench.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_THREADS 128
#define ST_WIN 48    /* bytes per window */
#define ST_STRIDE 16 /* bytes between window starts */

static unsigned st_windows(bench_size s)
{
    return s == BENCH_TINY ? 2048u : s == BENCH_SMALL ? 32768u : 131072u;
}

static uint32_t st_rotl(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }

static void st_table(uint32_t *k)
{
    for (int i = 0; i < 64; i++)
        k[i] = (uint32_t)floor(fabs(sin((double)(i + 1))) * 4294967296.0);
}

/* MD5 (RFC 1321) of len bytes; digest as the four little-endian state words. */
static void st_md5(const uint32_t *k, const uint8_t *msg, size_t len, uint32_t *digest)
{
    static const int sh[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    uint32_t h[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    size_t total = (len + 8) / 64 * 64 + 64;
    uint8_t *buf = calloc(total, 1);
    if (!buf) {
        memset(digest, 0, 16);
        return;
    }
    memcpy(buf, msg, len);
    buf[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        buf[total - 8 + i] = (uint8_t)(bits >> (8 * i));
    for (size_t blk = 0; blk < total; blk += 64) {
        uint32_t m[16];
        for (int i = 0; i < 16; i++)
            m[i] = (uint32_t)buf[blk + 4 * i] | (uint32_t)buf[blk + 4 * i + 1] << 8 |
                   (uint32_t)buf[blk + 4 * i + 2] << 16 | (uint32_t)buf[blk + 4 * i + 3] << 24;
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
        for (int i = 0; i < 64; i++) {
            uint32_t f;
            int g;
            if (i < 16) {
                f = (b & c) | (~b & d);
                g = i;
            } else if (i < 32) {
                f = (d & b) | (~d & c);
                g = (5 * i + 1) % 16;
            } else if (i < 48) {
                f = b ^ c ^ d;
                g = (3 * i + 5) % 16;
            } else {
                f = c ^ (b | ~d);
                g = (7 * i) % 16;
            }
            uint32_t t = d;
            d = c;
            c = b;
            b = b + st_rotl(a + f + k[i] + m[g], sh[i / 16][i % 4]);
            a = t;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
    }
    free(buf);
    memcpy(digest, h, sizeof h);
}

/* The RFC 1321 test suite's first three digests, as hex strings. */
static bool st_selftest(const uint32_t *k, char *msg, size_t cap)
{
    static const char *in[3] = {"", "abc", "message digest"};
    static const char *want[3] = {"d41d8cd98f00b204e9800998ecf8427e",
                                  "900150983cd24fb0d6963f7d28e17f72",
                                  "f96b697d7cb7938d525a2f31aaf161d0"};
    for (int t = 0; t < 3; t++) {
        uint32_t d[4];
        char hex[33];
        st_md5(k, (const uint8_t *)in[t], strlen(in[t]), d);
        for (int i = 0; i < 16; i++)
            snprintf(hex + 2 * i, 3, "%02x", (d[i / 4] >> (8 * (i % 4))) & 255u);
        if (strcmp(hex, want[t]) != 0) {
            snprintf(msg, cap, "storegpu: CPU MD5(\"%s\") = %s, RFC 1321 says %s", in[t], hex,
                     want[t]);
            return false;
        }
    }
    return true;
}

static bench_outcome st_device(bench_env *env, const uint32_t *k, const uint8_t *data,
                               size_t bytes, unsigned nwin, uint32_t *digest)
{
    ptxemu_dptr d_data, d_dig;
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "md5_k", k, 64 * sizeof(uint32_t), 0));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_data, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_dig, (size_t)nwin * 16));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_data, data, bytes));
    void *args[] = {&d_data, &nwin, &d_dig};
    BENCH_TRY(env, ptxemu_launch(env->mod, "md5_windows",
                                 (ptxemu_dim3){(nwin + ST_THREADS - 1) / ST_THREADS, 1, 1},
                                 (ptxemu_dim3){ST_THREADS, 1, 1}, 0, args));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, digest, d_dig, (size_t)nwin * 16));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_data));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_dig));
    return BENCH_PASS;
}

/* Windows whose key (16 bytes of digest, or the window's 48 bytes) was seen
 * at an earlier window. */
static unsigned st_repeats(const uint8_t *keys, size_t key_bytes, size_t step, unsigned n)
{
    GHashTable *seen = g_hash_table_new(g_bytes_hash, g_bytes_equal);
    GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    unsigned rep = 0;
    for (unsigned i = 0; i < n; i++) {
        GBytes *b = g_bytes_new(keys + (size_t)i * step, key_bytes);
        g_ptr_array_add(all, b);
        if (!g_hash_table_add(seen, b))
            rep++;
    }
    g_hash_table_destroy(seen);
    g_ptr_array_free(all, TRUE);
    return rep;
}

static bench_outcome st_run(bench_env *env)
{
    unsigned nwin = st_windows(env->size);
    size_t bytes = (size_t)(nwin - 1) * ST_STRIDE + ST_WIN;
    uint32_t k[64];
    st_table(k);
    if (!st_selftest(k, env->msg, sizeof env->msg))
        return BENCH_ERROR;
    uint8_t *data = malloc(bytes);
    uint32_t *dig = malloc((size_t)nwin * 16), *ref = malloc((size_t)nwin * 16);
    bench_outcome rc = BENCH_ERROR;
    if (!data || !dig || !ref) {
        snprintf(env->msg, sizeof env->msg, "storegpu: out of host memory");
        goto done;
    }
    /* random 256-byte blocks, every 4th a copy of an earlier block */
    uint64_t rng = env->seed;
    for (size_t off = 0; off < bytes; off += 256) {
        size_t len = bytes - off < 256 ? bytes - off : 256, blk = off / 256;
        uint64_t r = bench_rng_next(&rng);
        if (blk >= 4 && blk % 4 == 3) {
            memmove(data + off, data + (r % blk) * 256, len);
        } else {
            for (size_t i = 0; i < len; i++)
                data[off + i] = (uint8_t)(bench_rng_next(&rng) >> 56);
        }
    }
    rc = st_device(env, k, data, bytes, nwin, dig);
    if (rc != BENCH_PASS)
        goto done;
    double t0 = bench_now();
    for (unsigned w = 0; w < nwin; w++)
        st_md5(k, data + (size_t)w * ST_STRIDE, ST_WIN, ref + 4 * (size_t)w);
    unsigned want_dup = st_repeats(data, ST_WIN, ST_STRIDE, nwin);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[4 * (size_t)nwin - 1] ^= 1u;
    for (size_t i = 0; i < (size_t)nwin * 4; i++)
        if (dig[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "storegpu: window %zu digest word %zu = 0x%08x, reference 0x%08x", i / 4,
                     i % 4, dig[i], ref[i]);
            rc = BENCH_FAIL;
            goto done;
        }
    unsigned dup = st_repeats((const uint8_t *)dig, 16, 16, nwin);
    if (dup != want_dup) {
        snprintf(env->msg, sizeof env->msg,
                 "storegpu: %u windows repeat an earlier digest, %u repeat an earlier window",
                 dup, want_dup);
        rc = BENCH_FAIL;
    }
done:
    free(data);
    free(dig);
    free(ref);
    return rc;
}

const bench_def bench_storegpu = {
    "storegpu", "StoreGPU: MD5 of every 48-byte window at a 16-byte stride (dedup hashing)",
    "storegpu/kernels.ptx", st_run};
