/* tests/support/memsys_harness.c — see memsys_harness.h. */
#include "tests/support/memsys_harness.h"
#include "tests/support/test_util.h"

#include <string.h>

static void on_done(void *user, uint64_t token, uint64_t cycle)
{
    memh *h = user;
    assert_true(token < h->ntokens);
    assert_int_equal(h->done_at[token], MEMH_NOT_DONE);
    h->done_at[token] = cycle;
    h->ndone++;
}

gpu_config memh_config(const char *preset, const char *const *sets)
{
    gpu_config c;
    GError *err = NULL;
    if (!gpu_config_load_preset(preset, &c, &err))
        fail_msg("preset %s: %s", preset, err->message);
    if (sets && !gpu_config_apply_overrides(&c, sets, &err))
        fail_msg("overrides: %s", err->message);
    return c;
}

memh *memh_new(const char *preset, const char *const *sets, uint64_t ntokens)
{
    memh *h = g_new0(memh, 1);
    h->cfg = memh_config(preset, sets);
    h->m = memsys_create(&h->cfg, on_done, h);
    h->ntokens = ntokens;
    h->done_at = g_new(uint64_t, ntokens);
    for (uint64_t i = 0; i < ntokens; i++)
        h->done_at[i] = MEMH_NOT_DONE;
    return h;
}

void memh_free(memh *h)
{
    memsys_destroy(h->m);
    g_free(h->done_at);
    g_free(h);
}

uint64_t memh_token(memh *h)
{
    assert_true(h->next_token < h->ntokens);
    return h->next_token++;
}

uint64_t memh_step(memh *h)
{
    memsys_cycle(h->m, h->cycle);
    return h->cycle++;
}

void memh_drain(memh *h)
{
    for (uint64_t n = 0; !memsys_idle(h->m); n++) {
        assert_true(n < 10000000);
        memh_step(h);
    }
}

ex_access memh_access(uint8_t space, bool write, uint32_t mask, uint64_t base, uint64_t stride,
                      uint16_t size)
{
    ex_access a;
    memset(&a, 0, sizeof a);
    a.mask = mask;
    a.space = space;
    a.write = write;
    a.size = size;
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = base + l * stride;
    return a;
}

uint64_t memh_issue(memh *h, uint32_t sm, uint32_t warp, const ex_access *a, uint64_t token)
{
    for (uint64_t n = 0;; n++) {
        assert_true(n < 1000000);
        uint64_t c = memh_step(h);
        if (memsys_issue(h->m, sm, warp, a, token, c))
            return c;
    }
}

uint64_t memh_wait(memh *h, uint64_t token)
{
    assert_true(token < h->ntokens);
    for (uint64_t n = 0; h->done_at[token] == MEMH_NOT_DONE; n++) {
        assert_true(n < 1000000);
        memh_step(h);
    }
    return h->done_at[token];
}
