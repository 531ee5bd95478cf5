/* runtime/exec_async.h — what the asynchronous-copy and mbarrier family
 * (runtime/exec_async.c) puts in ex_instr.op2, so that a timing model can
 * tell a copy from a commit or a wait without decoding modifiers again. */
#ifndef PTXEMU_RUNTIME_EXEC_ASYNC_H
#define PTXEMU_RUNTIME_EXEC_ASYNC_H

#include "runtime/exec.h"

typedef enum ex_async_op {
    EX_ASYNC_NONE,
    EX_ASYNC_COPY,          /* cp.async.ca/.cg: global -> shared, per thread */
    EX_ASYNC_COMMIT,        /* cp.async.commit_group */
    EX_ASYNC_WAIT,          /* cp.async.wait_group N (imm = N), wait_all (imm = -1) */
    EX_ASYNC_MBAR_ARRIVE,   /* cp.async.mbarrier.arrive{.noinc} */
    EX_ASYNC_BULK_G2S,      /* cp.async.bulk shared <- global, mbarrier complete_tx */
    EX_ASYNC_BULK_S2S,      /* cp.async.bulk shared::cluster <- shared::cta */
    EX_ASYNC_BULK_S2G,      /* cp.async.bulk global <- shared, bulk async-group */
    EX_ASYNC_BULK_COMMIT,   /* cp.async.bulk.commit_group */
    EX_ASYNC_BULK_WAIT,     /* cp.async.bulk.wait_group{.read} N (imm = N) */
    EX_ASYNC_BULK_PREFETCH, /* cp.async.bulk.prefetch.L2: no functional effect */
    EX_MBAR_INIT,
    EX_MBAR_INVAL,
    EX_MBAR_ARRIVE,         /* arrive, arrive_drop, .noComplete, .expect_tx */
    EX_MBAR_EXPECT_TX,
    EX_MBAR_COMPLETE_TX,
    EX_MBAR_WAIT,           /* test_wait / try_wait {.parity} */
    EX_MBAR_PENDING_COUNT,
} ex_async_op;

/* The async op of a decoded instruction (EX_ASYNC_NONE for other families). */
ex_async_op ex_async_kind(const ex_instr *in);
/* The shared-memory offset of the mbarrier an mbarrier instruction names,
 * for the first lane of `mask`; UINT32_MAX when it is not in shared memory. */
uint32_t ex_async_mbar_offset(const ex_warp *w, const ex_instr *in, uint32_t mask);

#endif
