/* aes/driver.c — AES-128 ECB encryption of N 16-byte blocks, one block per
 * thread (CLASO's "AES": 257 CTAs of 256 threads).
 *
 * Host flow: derive the S-box from GF(2^8) inversion plus the affine map,
 * build the four T-tables, expand a random 128-bit key into 44 round-key
 * words, copy tables and round keys to constant memory, copy the plaintext
 * in, launch aes128_encrypt_ecb, copy the ciphertext back.
 *
 * Check: exact against a CPU implementation of the same T-table rounds,
 * which is itself checked first against the FIPS-197 Appendix C.1 vector. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AES_THREADS 256 /* must match kernels.cu */

typedef struct aes_tables {
    uint8_t sbox[256];
    uint32_t te[4][256];
    uint32_t rk[44];
} aes_tables;

static unsigned aes_n(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return 2000; /* 8 CTAs */
    case BENCH_SMALL:
        return 20000; /* 79 CTAs */
    default: /* paper and claso */
        return 65700; /* CLASO Table 2 "AES": 257 CTAs of 256 (~1 MiB) */
    }
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    while (b) {
        if (b & 1)
            p ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return p;
}

static uint8_t rotl8(uint8_t x, int n)
{
    return (uint8_t)((x << n) | (x >> (8 - n)));
}

static uint32_t ror32(uint32_t x, int n)
{
    /* n == 0 must not shift by 32 (undefined in C) */
    return n ? (x >> n) | (x << (32 - n)) : x;
}

static void aes_build_tables(aes_tables *t)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gf_mul((uint8_t)x, (uint8_t)y) == 1) {
                inv = (uint8_t)y;
                break;
            }
        t->sbox[x] = (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^
                               rotl8(inv, 4) ^ 0x63);
    }
    for (int x = 0; x < 256; x++) {
        uint8_t s = t->sbox[x];
        uint32_t w = (uint32_t)gf_mul(s, 2) << 24 | (uint32_t)s << 16 | (uint32_t)s << 8 |
                     gf_mul(s, 3);
        for (int k = 0; k < 4; k++)
            t->te[k][x] = ror32(w, 8 * k);
    }
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t w)
{
    p[0] = (uint8_t)(w >> 24);
    p[1] = (uint8_t)(w >> 16);
    p[2] = (uint8_t)(w >> 8);
    p[3] = (uint8_t)w;
}

static void aes_expand_key(aes_tables *t, const uint8_t key[16])
{
    uint32_t rcon = 0x01;
    for (int i = 0; i < 4; i++)
        t->rk[i] = be32(key + 4 * i);
    for (int i = 4; i < 44; i++) {
        uint32_t temp = t->rk[i - 1];
        if (i % 4 == 0) {
            temp = (temp << 8) | (temp >> 24); /* RotWord */
            temp = (uint32_t)t->sbox[temp >> 24] << 24 |
                   (uint32_t)t->sbox[(temp >> 16) & 0xff] << 16 |
                   (uint32_t)t->sbox[(temp >> 8) & 0xff] << 8 | t->sbox[temp & 0xff];
            temp ^= rcon << 24;
            rcon = gf_mul((uint8_t)rcon, 2);
        }
        t->rk[i] = t->rk[i - 4] ^ temp;
    }
}

static void aes_encrypt_block(const aes_tables *t, uint8_t out[16], const uint8_t in[16])
{
    const uint32_t *rk = t->rk;
    uint32_t s[4], n[4];
    for (int c = 0; c < 4; c++)
        s[c] = be32(in + 4 * c) ^ rk[c];
    for (int r = 1; r < 10; r++) {
        for (int c = 0; c < 4; c++)
            n[c] = t->te[0][s[c] >> 24] ^ t->te[1][(s[(c + 1) & 3] >> 16) & 0xff] ^
                   t->te[2][(s[(c + 2) & 3] >> 8) & 0xff] ^ t->te[3][s[(c + 3) & 3] & 0xff] ^
                   rk[4 * r + c];
        memcpy(s, n, sizeof s);
    }
    for (int c = 0; c < 4; c++) {
        uint32_t w = (uint32_t)t->sbox[s[c] >> 24] << 24 |
                     (uint32_t)t->sbox[(s[(c + 1) & 3] >> 16) & 0xff] << 16 |
                     (uint32_t)t->sbox[(s[(c + 2) & 3] >> 8) & 0xff] << 8 |
                     t->sbox[s[(c + 3) & 3] & 0xff];
        put_be32(out + 4 * c, w ^ rk[40 + c]);
    }
}

/* FIPS-197 Appendix C.1. */
static bool aes_self_test(void)
{
    static const uint8_t plain[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                      0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    static const uint8_t want[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                     0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    uint8_t key[16], got[16];
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)i;
    aes_tables t;
    aes_build_tables(&t);
    aes_expand_key(&t, key);
    aes_encrypt_block(&t, got, plain);
    return memcmp(got, want, 16) == 0;
}

static bench_outcome aes_device(bench_env *env, const aes_tables *t, unsigned nblocks,
                                const uint8_t *plain, uint8_t *cipher)
{
    size_t bytes = (size_t)nblocks * 16;
    ptxemu_dptr d_in, d_out;
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_round_keys", t->rk, sizeof t->rk, 0));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_te", t->te, sizeof t->te, 0));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_sbox", t->sbox, sizeof t->sbox, 0));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_in, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_in, plain, bytes));
    void *args[] = {&d_out, &d_in, &nblocks};
    BENCH_TRY(env, ptxemu_launch(env->mod, "aes128_encrypt_ecb",
                                 (ptxemu_dim3){(nblocks + AES_THREADS - 1) / AES_THREADS, 1, 1},
                                 (ptxemu_dim3){AES_THREADS, 1, 1}, 0, args));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, cipher, d_out, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_in));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    return BENCH_PASS;
}

static bench_outcome aes_run(bench_env *env)
{
    if (!aes_self_test()) {
        snprintf(env->msg, sizeof env->msg, "aes: CPU reference fails the FIPS-197 C.1 vector");
        return BENCH_FAIL;
    }
    unsigned nblocks = aes_n(env->size);
    size_t bytes = (size_t)nblocks * 16;
    uint8_t *plain = malloc(bytes), *cipher = malloc(bytes), *ref = malloc(bytes);
    aes_tables *t = malloc(sizeof *t);
    bench_outcome rc = BENCH_ERROR;
    if (!plain || !cipher || !ref || !t) {
        snprintf(env->msg, sizeof env->msg, "aes: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    uint8_t key[16];
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)bench_rng_next(&rng);
    for (size_t i = 0; i < bytes; i++)
        plain[i] = (uint8_t)(bench_rng_next(&rng) >> 24);
    aes_build_tables(t);
    aes_expand_key(t, key);

    rc = aes_device(env, t, nblocks, plain, cipher);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    for (unsigned b = 0; b < nblocks; b++)
        aes_encrypt_block(t, ref + 16 * (size_t)b, plain + 16 * (size_t)b);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[bytes - 1] ^= 0x80;

    for (size_t i = 0; i < bytes; i++)
        if (cipher[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "aes: block %zu byte %zu = 0x%02x, reference 0x%02x", i / 16, i % 16,
                     cipher[i], ref[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(plain);
    free(cipher);
    free(ref);
    free(t);
    return rc;
}

const bench_def bench_aes = {
    "aes", "AES-128 ECB encryption, T-tables staged in shared memory",
    "aes/kernels.ptx", aes_run};
