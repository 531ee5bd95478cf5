/* runtime/race.c — the functional data-race check (runtime/race.h). */
#include "runtime/race.h"
#include "frontend/print.h"
#include "runtime/warp.h"

#include <string.h>

#define GRANULE_SHIFT 2          /* 4-byte granules */
#define PAGE_SHIFT 10            /* granules per shadow page: 1024 (4 KiB of memory) */
#define PAGE_GRANULES (1u << PAGE_SHIFT)

/* One remembered access. */
typedef struct race_acc {
    const ex_instr *in;
    const ex_func *fn;
    uint32_t warp;               /* launch-wide warp number + 1; 0: none */
    uint32_t epoch;              /* its CTA's completed barriers then */
    uint32_t fences;             /* the launch's fences then */
    uint8_t lane;
} race_acc;

typedef struct race_cell {
    race_acc w, r;               /* last write, last read */
} race_cell;

typedef struct race_page {
    uint64_t key;                /* granule >> PAGE_SHIFT */
    race_cell cell[PAGE_GRANULES];
} race_page;

struct ex_race {
    ex_launch *L;
    GHashTable *pages;           /* &race_page.key -> race_page */
    race_page *last;             /* the page looked up last */
    uint32_t warps_per_cta;
    uint32_t fences;             /* membar/fence instructions executed so far */
    ex_access rec;
    GString *report;             /* the first race, or NULL */
};

ex_race *ex_race_new(ex_launch *L)
{
    ex_race *r = g_new0(ex_race, 1);
    r->L = L;
    r->pages = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    r->warps_per_cta = (threads + WARP_SIZE - 1) / WARP_SIZE;
    return r;
}

void ex_race_free(ex_race *r)
{
    if (!r)
        return;
    g_hash_table_destroy(r->pages);
    if (r->report)
        g_string_free(r->report, TRUE);
    g_free(r);
}

const char *ex_race_report(const ex_race *r)
{
    return r && r->report ? r->report->str : NULL;
}

static race_cell *cell_of(ex_race *r, uint64_t granule)
{
    uint64_t key = granule >> PAGE_SHIFT;
    race_page *p = r->last;
    if (!p || p->key != key) {
        p = g_hash_table_lookup(r->pages, &key);
        if (!p) {
            p = g_new0(race_page, 1);
            p->key = key;
            g_hash_table_insert(r->pages, &p->key, p);
        }
        r->last = p;
    }
    return &p->cell[granule & (PAGE_GRANULES - 1)];
}

/* May `a` (earlier) and `b` (now) run in either order? */
static bool unordered(const ex_race *r, const race_acc *a, const race_acc *b)
{
    if (!a->warp || a->warp == b->warp)
        return false;            /* none, or the same warp: program order */
    if (a->fences != b->fences)
        return false;            /* a fence ran in between (race.h) */
    bool same_cta = (a->warp - 1) / r->warps_per_cta == (b->warp - 1) / r->warps_per_cta;
    return !(same_cta && a->epoch != b->epoch);
}

/* "kernel 'K', CTA (x,y,z), warp W, thread (x,y,z), function 'F' pc N
 * (FILE:LINE:COL: TEXT)" of a remembered access. */
static void describe(GString *out, const ex_race *r, const race_acc *a)
{
    const ex_launch *L = r->L;
    uint32_t cta = (a->warp - 1) / r->warps_per_cta, wid = (a->warp - 1) % r->warps_per_cta;
    uint32_t t = wid * WARP_SIZE + a->lane, bx = L->block[0], by = L->block[1];
    g_string_append_printf(out, "kernel '%s', CTA (%u,%u,%u), warp %u, thread (%u,%u,%u)",
                           L->kernel->name, cta % L->grid[0], (cta / L->grid[0]) % L->grid[1],
                           cta / (L->grid[0] * L->grid[1]), wid, t % bx, (t / bx) % by,
                           t / (bx * by));
    if (!a->fn || !a->in)
        return;
    uint32_t pc = (uint32_t)(a->in - a->fn->code);
    const ptx_instr *pi = ptx_func_instr(a->fn->ir, a->in->src);
    GString *text = g_string_new(NULL);
    ptx_print_instr(text, L->mod->ir, a->fn->ir, pi);
    g_string_append_printf(out, ", function '%s' pc %u (%s:%u:%u: %s)", a->fn->name, pc,
                           L->mod->ir->source_name, pi->loc.line, pi->loc.col, text->str);
    g_string_free(text, TRUE);
}

static void found(ex_race *r, uint64_t addr, const race_acc *now, bool now_write,
                  const race_acc *then, bool then_write)
{
    bool same_cta = (now->warp - 1) / r->warps_per_cta == (then->warp - 1) / r->warps_per_cta;
    r->report = g_string_new(NULL);
    g_string_append_printf(r->report, "race: %s of global address 0x%llx by ",
                           now_write ? "write" : "read", (unsigned long long)addr);
    describe(r->report, r, now);
    g_string_append_printf(r->report, "\n  conflicts with the earlier %s by ",
                           then_write ? "write" : "read");
    describe(r->report, r, then);
    g_string_append_printf(r->report, "\n  (%s, no barrier or fence between them)",
                           same_cta ? "two warps of one CTA" : "two CTAs");
}

static void observe(ex_race *r, ex_warp *w, const ex_access *a)
{
    if (a->space != EX_SPACE_GLOBAL || a->atomic || a->async || !a->instr ||
        (a->order & (EX_ORD_VOLATILE | EX_ORD_STRONG)))
        return;
    uint16_t op = a->instr->op;
    if (op != PTX_OP_LD && op != PTX_OP_ST && op != PTX_OP_LDU)
        return;
    bool write = a->write;
    race_acc me = {a->instr, a->fn,
                   w->cta->linear_id * r->warps_per_cta + w->warp_id + 1,
                   w->cta->bar_epoch, r->fences, 0};
    uint32_t mask = a->mask;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        me.lane = (uint8_t)l;
        uint64_t addr = a->addr[l];
        if (addr < MEM_GLOBAL_BASE)
            continue; /* a device launch's parameter buffer (generic), not global memory */
        uint64_t g0 = addr >> GRANULE_SHIFT, g1 = (addr + a->size - 1) >> GRANULE_SHIFT;
        for (uint64_t g = g0; g <= g1; g++) {
            race_cell *c = cell_of(r, g);
            if (unordered(r, &c->w, &me)) {
                found(r, addr, &me, write, &c->w, true);
                return;
            }
            if (write && unordered(r, &c->r, &me)) {
                found(r, addr, &me, write, &c->r, false);
                return;
            }
            if (write) {
                c->w = me;
                c->r.warp = 0;
            } else {
                c->r = me;
            }
        }
    }
}

void ex_race_run(ex_race *r, ex_warp *w, uint64_t budget)
{
    if (r->report || w->launch != r->L) {
        /* reported already, or a device launch's grid: unchecked */
        ex_warp_run(w, budget);
        return;
    }
    for (; budget > 0 && w->state == WARP_RUNNING; budget--) {
        const ex_instr *next = ex_warp_next(w);
        ex_warp_step(w, &r->rec);
        if (next && (next->op == PTX_OP_MEMBAR || next->op == PTX_OP_FENCE))
            r->fences++;
        if (r->rec.mask)
            observe(r, w, &r->rec);
        if (r->report) {
            ex_warp_run(w, budget - 1);
            return;
        }
    }
}
