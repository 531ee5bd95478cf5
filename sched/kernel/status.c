/* sched/kernel/status.c — kernel and core status blocks
 * (sched/kernel/status.h). */
#include "sched/kernel/status.h"

#include <stdlib.h>
#include <string.h>

void st_init(st_blocks *b, const sched_env *env)
{
    memset(b, 0, sizeof *b);
    b->ncores = env->nsms;
    b->cores = calloc(b->ncores ? b->ncores : 1, sizeof *b->cores);
    b->resident = calloc((size_t)ST_ROWS * (b->ncores ? b->ncores : 1), sizeof *b->resident);
    for (uint32_t c = 0; c < b->ncores; c++)
        b->cores[c] = (st_core_row){c, ST_NONE, ST_NONE};
    b->core_regs = env->sm_registers;
    b->core_shared = env->sm_shared;
    b->core_warps = env->warp_slots;
    b->core_ctas = env->max_ctas;
}

void st_destroy(st_blocks *b)
{
    free(b->cores);
    free(b->resident);
    b->cores = NULL;
    b->resident = NULL;
}

int32_t st_row_of(const st_blocks *b, uint32_t id)
{
    for (int32_t r = 0; r < ST_ROWS; r++)
        if (b->rows[r].valid && b->rows[r].id == id)
            return r;
    return ST_NONE;
}

int32_t st_arrive(st_blocks *b, const sched_kernel_info *k)
{
    for (int32_t r = 0; r < ST_ROWS; r++) {
        st_kernel_row *row = &b->rows[r];
        if (row->valid)
            continue;
        *row = (st_kernel_row){true, k->id, {k->grid[0], k->grid[1], k->grid[2]},
                               k->total_ctas, k->issued, k->regs_per_cta, k->shared_per_cta,
                               k->warps_per_cta, k->max_fit, k->max_fit, b->arrivals++};
        for (uint32_t c = 0; c < b->ncores; c++)
            b->resident[(size_t)r * b->ncores + c] = 0;
        return r;
    }
    return ST_NONE; /* every row valid: the launch fails (rule 1) */
}

int32_t st_finish(st_blocks *b, uint32_t id)
{
    int32_t r = st_row_of(b, id);
    if (r == ST_NONE)
        return r;
    b->rows[r].valid = false;
    for (uint32_t c = 0; c < b->ncores; c++) {
        if (b->cores[c].active == r)
            b->cores[c].active = ST_NONE;
        if (b->cores[c].assigned == r)
            b->cores[c].assigned = ST_NONE;
    }
    return r;
}

int32_t st_cta_issued(st_blocks *b, uint32_t id, uint32_t core)
{
    int32_t r = st_row_of(b, id);
    if (r == ST_NONE || core >= b->ncores)
        return ST_NONE;
    /* an appended TB group may grow the grid past the row's total */
    b->rows[r].next++;
    if (b->rows[r].next > b->rows[r].total)
        b->rows[r].total = b->rows[r].next;
    b->resident[(size_t)r * b->ncores + core]++;
    return r;
}

int32_t st_cta_finished(st_blocks *b, uint32_t id, uint32_t core)
{
    int32_t r = st_row_of(b, id);
    if (r == ST_NONE || core >= b->ncores)
        return ST_NONE;
    uint32_t *n = &b->resident[(size_t)r * b->ncores + core];
    if (*n)
        (*n)--;
    return r;
}

uint32_t st_active_cores(const st_blocks *b, int32_t row)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < b->ncores; c++)
        n += b->cores[c].active == row || st_active_blocks(b, row, c) > 0;
    return n;
}

void st_next_block(const st_kernel_row *r, uint32_t out[3])
{
    uint32_t gx = r->grid[0] ? r->grid[0] : 1, gy = r->grid[1] ? r->grid[1] : 1;
    out[0] = r->next % gx;
    out[1] = (r->next / gx) % gy;
    out[2] = r->next / (gx * gy);
}

uint32_t st_issuing(const st_blocks *b, int32_t *rows)
{
    uint32_t n = 0;
    for (int32_t r = 0; r < ST_ROWS; r++)
        if (b->rows[r].valid && b->rows[r].next < b->rows[r].total)
            rows[n++] = r;
    /* arrival order (rows are reused, so row order is not arrival order) */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && b->rows[rows[j]].seq < b->rows[rows[j - 1]].seq; j--) {
            int32_t t = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = t;
        }
    return n;
}
