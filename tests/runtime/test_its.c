/* tests/runtime/test_its.c — independent thread scheduling (runtime/its.c)
 * against what the CUDA programming guide and the PTX ISA promise for
 * sm_70 and newer:
 *   - starvation-free algorithms: a lock where all 32 lanes of a warp
 *     contend finishes, each lane entering the critical section once; under
 *     the SIMT stack the same kernel is reported as a livelock (not a hang);
 *   - __syncwarp (bar.warp.sync) in both arms of a branch synchronises the
 *     lanes, so each arm sees the other's shared-memory stores;
 *   - lanes reconverge where the paths meet (the post-dominator): after an
 *     if/else and after a loop with per-lane trip counts the whole warp is
 *     active again (activemask, ballot);
 *   - the timing model runs ITS too, with the same memory. */
#include "api/ptxemu.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#define HEADER ".version 8.5\n.target sm_80\n.address_size 64\n"

/* Runs `kernel` with one buffer parameter; returns the status and, on
 * failure, the message. */
static ptxemu_status run(const char *ptx, bool its, bool timing, unsigned grid, unsigned block,
                         void *buf, size_t bytes, char **msg)
{
    ptxemu_options o = {0};
    o.its = its ? 1 : -1; /* without: the SIMT stack, whatever warp.its says */
    o.timing = timing;
    o.livelock_limit = 200000;
    ptxemu_ctx *ctx = NULL;
    ptxemu_module *mod = NULL;
    ptxemu_dptr d = 0;
    ptxemu_status s = ptxemu_ctx_create(&ctx, &o);
    if (s == PTXEMU_OK)
        s = ptxemu_module_load_string(ctx, ptx, "its.ptx", &mod);
    if (s == PTXEMU_OK)
        s = ptxemu_malloc(ctx, &d, bytes);
    if (s == PTXEMU_OK)
        s = ptxemu_memcpy_htod(ctx, d, buf, bytes);
    if (s == PTXEMU_OK) {
        void *args[] = {&d};
        s = ptxemu_launch(mod, "k", (ptxemu_dim3){grid, 1, 1}, (ptxemu_dim3){block, 1, 1}, 0,
                          args);
    }
    if (s == PTXEMU_OK)
        s = ptxemu_memcpy_dtoh(ctx, buf, d, bytes);
    *msg = s == PTXEMU_OK ? NULL : g_strdup(ptxemu_last_error(ctx));
    ptxemu_ctx_destroy(ctx);
    return s;
}

/* buf[0] lock, buf[1] sum of tids, buf[2] entries, buf[3 + tid] order of
 * entry: every thread takes the lock with atom.cas, updates the counters
 * with plain loads and stores, and releases it. */
static const char lock_kernel[] = HEADER
    ".visible .entry k(.param .u64 buf)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n  .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
    "spin:\n"
    "  atom.global.acquire.gpu.cas.b32 %r2, [%rd1], 0, 1;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n"
    "  @%p1 bra spin;\n"
    "  ld.global.u32 %r3, [%rd1+4];\n  add.u32 %r3, %r3, %r1;\n  st.global.u32 [%rd1+4], %r3;\n"
    "  ld.global.u32 %r4, [%rd1+8];\n  add.u32 %r5, %r4, 1;\n  st.global.u32 [%rd1+8], %r5;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2+12], %r4;\n"
    "  atom.global.release.gpu.exch.b32 %r6, [%rd1], 0;\n"
    "  ret;\n}\n";

static void check_lock(unsigned block, bool timing)
{
    uint32_t buf[3 + 128];
    memset(buf, 0, sizeof buf);
    char *msg = NULL;
    ptxemu_status s = run(lock_kernel, true, timing, 1, block, buf, sizeof buf, &msg);
    if (s != PTXEMU_OK)
        fail_msg("ITS lock (%u threads): %s", block, msg ? msg : "?");
    assert_int_equal(buf[0], 0);
    assert_int_equal(buf[1], block * (block - 1) / 2);
    assert_int_equal(buf[2], block);
    /* mutual exclusion: the entry numbers are a permutation */
    bool seen[128] = {false};
    for (unsigned t = 0; t < block; t++) {
        assert_true(buf[3 + t] < block);
        assert_false(seen[buf[3 + t]]);
        seen[buf[3 + t]] = true;
    }
}

static void test_lock_finishes_under_its(void **state)
{
    (void)state;
    check_lock(32, false);   /* all 32 lanes of one warp contend */
    check_lock(128, false);  /* four warps, each with 32 contending lanes */
    check_lock(32, true);    /* the timing model issues the same groups */
}

static void test_lock_livelocks_without_its(void **state)
{
    (void)state;
    uint32_t buf[3 + 32];
    memset(buf, 0, sizeof buf);
    char *msg = NULL;
    ptxemu_status s = run(lock_kernel, false, false, 1, 32, buf, sizeof buf, &msg);
    assert_int_equal(s, PTXEMU_ERR_LAUNCH_FAILED);
    assert_non_null(msg);
    if (!strstr(msg, "livelock") || !strstr(msg, "spinning in the loop"))
        fail_msg("message: %s", msg);
    g_free(msg);
}

/* Lanes 0-15 and 16-31 take different arms; each stores to shared memory,
 * meets the other at __syncwarp (a bar.warp.sync in each arm) and reads
 * the other half's value.  Model: lane l < 16 reads 200 + (l + 16), lane
 * l >= 16 reads 100 + (l - 16). */
static const char syncwarp_kernel[] = HEADER
    ".visible .entry k(.param .u64 buf)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n  .reg .pred %p1;\n"
    "  .shared .u32 sh[32];\n"
    "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, sh;\n  shl.b32 %r3, %r1, 2;\n  add.u32 %r3, %r2, %r3;\n"
    "  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra upper;\n"
    "  add.u32 %r4, %r1, 100;\n  st.shared.u32 [%r3], %r4;\n"
    "  bar.warp.sync -1;\n"
    "  ld.shared.u32 %r5, [%r3+64];\n  bra join;\n"
    "upper:\n"
    "  add.u32 %r4, %r1, 200;\n  st.shared.u32 [%r3], %r4;\n"
    "  bar.warp.sync -1;\n"
    "  ld.shared.u32 %r5, [%r3+-64];\n"
    "join:\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r5;\n  ret;\n}\n";

static void test_syncwarp_in_both_arms(void **state)
{
    (void)state;
    uint32_t out[32] = {0};
    char *msg = NULL;
    ptxemu_status s = run(syncwarp_kernel, true, false, 1, 32, out, sizeof out, &msg);
    if (s != PTXEMU_OK)
        fail_msg("%s", msg ? msg : "?");
    for (unsigned l = 0; l < 32; l++)
        assert_int_equal(out[l], l < 16 ? 200 + l + 16 : 100 + l - 16);
}

/* Reconvergence: out[0..31] activemask after an if/else, out[32..63] the
 * ballot of all lanes after a loop of (lane % 5) iterations, out[64..95]
 * each lane's iteration count.  Model: 0xffffffff, 0xffffffff, lane % 5. */
static const char reconv_kernel[] = HEADER
    ".visible .entry k(.param .u64 buf)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n  .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n"
    "  @%p1 bra even;\n  add.u32 %r3, %r1, 7;\n  bra joined;\n"
    "even:\n  add.u32 %r3, %r1, 9;\n"
    "joined:\n  activemask.b32 %r4;\n"
    "  rem.u32 %r5, %r1, 5;\n  mov.u32 %r6, 0;\n"
    "loop:\n  setp.ge.u32 %p2, %r6, %r5;\n  @%p2 bra after;\n"
    "  add.u32 %r6, %r6, 1;\n  bra loop;\n"
    "after:\n  vote.ballot.b32 %r7, 1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r4;\n  st.global.u32 [%rd2+128], %r7;\n"
    "  st.global.u32 [%rd2+256], %r6;\n  ret;\n}\n";

static void test_reconvergence(void **state)
{
    (void)state;
    uint32_t out[96] = {0};
    char *msg = NULL;
    ptxemu_status s = run(reconv_kernel, true, false, 1, 32, out, sizeof out, &msg);
    if (s != PTXEMU_OK)
        fail_msg("%s", msg ? msg : "?");
    for (unsigned l = 0; l < 32; l++) {
        assert_int_equal(out[l], 0xffffffffu);
        assert_int_equal(out[32 + l], 0xffffffffu);
        assert_int_equal(out[64 + l], l % 5);
    }
}

/* __syncthreads (bar.sync 0) that the lanes with tid < 16 of each CTA
 * skip (they branch past it and exit): undefined in CUDA.  Without ITS the
 * skipping lanes wait on the SIMT stack and the barrier deadlocks; under
 * ITS the barrier completes without them, and ptxemu warns once per
 * launch with the location.  Line 11 of the file holds the bar.sync. */
static const char divergent_bar[] =
    HEADER                                         /* lines 1-3 */
    ".visible .entry k(.param .u64 p)\n{\n"        /* 4-5 */
    "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"   /* 6-7 */
    "  mov.u32 %r0, %tid.x;\n"                     /* 8 */
    "  setp.lt.u32 %p0, %r0, 16;\n"                /* 9 */
    "  @%p0 bra SKIP;\n"                           /* 10 */
    "  bar.sync 0;\n"                              /* 11 */
    "SKIP:\n  ret;\n}\n";
/* the same barrier after lanes left with a guarded ret: the warp reaches
 * it converged (its exited lanes were never waited for), no warning */
static const char early_exit_bar[] =
    HEADER ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r0, %tid.x;\n"
    "  setp.lt.u32 %p0, %r0, 16;\n"
    "  @%p0 ret;\n"
    "  bar.sync 0;\n"
    "  ret;\n}\n";

/* Runs `ptx` and returns what it wrote on stderr (fd 2 into a file). */
static char *run_stderr(const char *ptx, bool its, bool timing, ptxemu_status *st, char **msg)
{
    char *path = NULL;
    int fd = g_file_open_tmp("its-stderr-XXXXXX", &path, NULL);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    uint32_t buf[4] = {0};
    *st = run(ptx, its, timing, 4, 64, buf, sizeof buf, msg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    char *text = NULL;
    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_unlink(path);
    g_free(path);
    return text;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_divergent_bar_sync(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        ptxemu_status st;
        char *msg = NULL;
        char *err = run_stderr(divergent_bar, true, timing, &st, &msg);
        assert_int_equal(st, PTXEMU_OK);
        /* one warning for the launch of 4 CTAs, located */
        assert_int_equal(count(err, "ptxemu: warning: "), 1);
        assert_non_null(strstr(err, "kernel 'k', CTA ("));
        assert_non_null(strstr(err, "warp 0, function 'k' pc 3 (its.ptx:11:3: bar.sync 0;): "
                                    "divergent barrier: 16 lanes of this warp (mask 0x0000ffff) "
                                    "exited without arriving"));
        g_free(err);
        g_free(msg);
        /* without ITS: the error stays */
        err = run_stderr(divergent_bar, false, timing, &st, &msg);
        assert_int_not_equal(st, PTXEMU_OK);
        assert_non_null(strstr(msg, "barrier deadlock"));
        assert_null(strstr(err, "warning"));
        g_free(err);
        g_free(msg);
        msg = NULL;
        /* a warp that reaches the barrier converged: nothing to say */
        err = run_stderr(early_exit_bar, true, timing, &st, &msg);
        assert_int_equal(st, PTXEMU_OK);
        assert_null(strstr(err, "warning"));
        g_free(err);
        g_free(msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lock_finishes_under_its),
        cmocka_unit_test(test_lock_livelocks_without_its),
        cmocka_unit_test(test_syncwarp_in_both_arms),
        cmocka_unit_test(test_reconvergence),
        cmocka_unit_test(test_divergent_bar_sync),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
