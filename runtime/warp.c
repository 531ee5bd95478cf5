/* runtime/warp.c — one warp: register file, SIMT reconvergence stack, the
 * fetch-execute loop, address translation and fault reports. */
#include "runtime/barrier.h"
#include "runtime/cdp.h"
#include "runtime/hostmem.h"
#include "runtime/warp.h"
#include "runtime/its.h"
#include "frontend/print.h"

#include <stdarg.h>
#include <string.h>

uint32_t ex_thread_linear(const ex_warp *w, unsigned lane)
{
    return w->warp_id * WARP_SIZE + lane;
}

void ex_warp_init(ex_warp *w, ex_launch *L, ex_cta *cta, uint32_t warp_id)
{
    const ex_func *k = L->kernel;
    uint32_t nslots = k->nregs + k->nconst ? k->nregs + k->nconst : 1;
    if (w->rcap < nslots) {
        /* large register files are mmapped (runtime/hostmem.h).  Not
         * zeroed here: the slots a thread may read first are zeroed below
         * as for a reused file (the timing model starts every CTA's warps
         * fresh, and zeroing whole files was 7.5% of bfs's instructions) */
        ex_host_free(w->rfile, sizeof(*w->rfile) * w->rcap);
        w->rfile = ex_host_alloc(sizeof(*w->rfile) * nslots);
        if (!w->rfile)
            g_error("ptxemu: no host memory for a register file of %u slots", nslots);
        w->rcap = nslots;
    }
    if (k->zero_all) {
        /* registers start at zero so reads before writes are deterministic */
        memset(w->rfile, 0, sizeof(*w->rfile) * nslots);
    } else {
        /* only those a thread may read before writing (runtime/reginit.c) */
        for (uint32_t i = 0; i < k->nzero; i++)
            memset(w->rfile[k->zero_slots[i]], 0, sizeof(*w->rfile));
    }
    w->r = w->rfile;
    w->nslots = nslots;
    if (!w->simt) {
        w->simt = g_array_sized_new(FALSE, FALSE, sizeof(ex_simt), 8);
        w->calls = g_array_new(FALSE, FALSE, sizeof(ex_callframe));
    }
    g_array_set_size(w->simt, 0);
    g_array_set_size(w->calls, 0);
    w->launch = L;
    w->cta = cta;
    w->warp_id = warp_id;
    uint32_t first = warp_id * WARP_SIZE;
    uint32_t n = cta->nthreads - first;
    w->valid = n >= WARP_SIZE ? FULL_MASK : ((1u << n) - 1);
    w->exited = 0;
    w->carry = 0;
    w->state = WARP_RUNNING;
    w->instrs = w->thread_instrs = 0;
    w->bar_dst = EX_NONE;
    w->cbar_pending = 0;
    w->its_parked = 0;
    w->its_cross = 0;
    w->hint = NULL;
    w->hint2 = NULL;
    ex_warp_enter(w, k);
    w->stack_top = 0;
    w->fp = 0;
    ex_frame_push(w, k->frame_size);
    ex_simt e = {0, EX_NONE, w->valid, 0};
    g_array_append_val(w->simt, e);
    w->its = L->its;
    if (w->its)
        ex_its_init(w);
}

void ex_warp_destroy(ex_warp *w)
{
    ex_host_free(w->rfile, sizeof(*w->rfile) * w->rcap);
    ex_host_free(w->stack, (gsize)w->stack_cap * WARP_SIZE);
    if (w->simt)
        g_array_free(w->simt, TRUE);
    if (w->calls)
        g_array_free(w->calls, TRUE);
    memset(w, 0, sizeof *w);
}

void ex_warp_scrub(ex_warp *w)
{
    ex_warp keep = *w;
    memset(w, 0, sizeof *w);
    w->rfile = keep.rfile;
    w->rcap = keep.rcap;
    w->stack = keep.stack;
    w->stack_cap = keep.stack_cap;
    w->simt = keep.simt;
    w->calls = keep.calls;
}

/* Switches the warp to function `f`: code, and its constant slots. */
void ex_warp_enter(ex_warp *w, const ex_func *f)
{
    w->fn = f;
    w->code = f->code;
    for (uint32_t i = 0; i < f->nconst; i++) {
        uint64_t v = f->const_vals[i];
        uint64_t *row = w->r[f->nregs + i];
        for (unsigned l = 0; l < WARP_SIZE; l++)
            row[l] = v;
    }
}

/* Per-thread stack: lane l's bytes live at stack + l * stack_cap. */
bool ex_frame_push(ex_warp *w, uint32_t size)
{
    uint32_t base = (w->stack_top + 15u) & ~15u;
    uint64_t need = (uint64_t)base + size;
    if (need > w->launch->stack_limit) {
        ex_fault(w, -1, "call stack overflow: %llu bytes per thread exceed the limit of %u "
                        "(deep recursion?)", (unsigned long long)need, w->launch->stack_limit);
        return false;
    }
    if (need > w->stack_cap) {
        uint32_t cap = w->stack_cap ? w->stack_cap : 256;
        while (cap < need)
            cap *= 2;
        uint8_t *ns = ex_host_alloc0((gsize)cap * WARP_SIZE);
        if (!ns)
            g_error("ptxemu: no host memory for a %u-byte stack per thread", cap);
        for (unsigned l = 0; l < WARP_SIZE && w->stack; l++)
            memcpy(ns + (gsize)l * cap, w->stack + (gsize)l * w->stack_cap, w->stack_top);
        ex_host_free(w->stack, (gsize)w->stack_cap * WARP_SIZE);
        w->stack = ns;
        w->stack_cap = cap;
    }
    /* a fresh frame starts zeroed so reads of unwritten locals are stable */
    for (unsigned l = 0; size && l < WARP_SIZE; l++)
        memset(w->stack + (gsize)l * w->stack_cap + base, 0, size);
    w->fp = base;
    w->stack_top = base + size;
    return true;
}

/* ------------------------------------------------------------------ faults */

/* "kernel 'K', CTA (x,y,z), thread|warp ..., function 'F' pc N (FILE:LINE:COL:
 * TEXT)": where `w` (its `lane`, or the warp for -1) is now. */
static void append_where(GString *out, ex_warp *w, int lane)
{
    ex_launch *L = w->launch;
    const ex_simt *top = w->simt->len ? &g_array_index(w->simt, ex_simt, w->simt->len - 1) : NULL;
    uint32_t pc = top ? top->pc : 0;
    const ex_cta *c = w->cta;
    g_string_append_printf(out, "kernel '%s', CTA (%u,%u,%u), ", L->kernel->name,
                           c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    if (lane >= 0) {
        uint32_t t = ex_thread_linear(w, (unsigned)lane);
        uint32_t bx = L->block[0], by = L->block[1];
        g_string_append_printf(out, "thread (%u,%u,%u), ", t % bx, (t / bx) % by,
                               t / (bx * by));
    } else {
        g_string_append_printf(out, "warp %u, ", w->warp_id);
    }
    if (w->fn && pc < w->fn->ninstrs) {
        const ptx_instr *pi = ptx_func_instr(w->fn->ir, w->code[pc].src);
        GString *text = g_string_new(NULL);
        ptx_print_instr(text, L->mod->ir, w->fn->ir, pi);
        g_string_append_printf(out, "function '%s' pc %u (%s:%u:%u: %s)",
                               w->fn->name, pc, L->mod->ir->source_name, pi->loc.line,
                               pi->loc.col, text->str);
        if (pi->src_line)
            g_string_append_printf(out, " [source file %u line %u]", pi->src_file,
                                   pi->src_line);
        g_string_free(text, TRUE);
    } else if (w->fn) {
        g_string_append_printf(out, "function '%s' pc %u", w->fn->name, pc);
    }
}

void ex_warn_once(ex_warp *w, const char *fmt, ...)
{
    ex_launch *L = w->launch;
    int *flag = L->warned ? L->warned : &L->warned_own;
    if (__atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL))
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    GString *line = g_string_new("ptxemu: warning: ");
    append_where(line, w, -1);
    fprintf(stderr, "%s: %s\n", line->str, msg);
    g_string_free(line, TRUE);
    g_free(msg);
}

void ex_fault(ex_warp *w, int lane, const char *fmt, ...)
{
    ex_launch *L = w->launch;
    w->state = WARP_FAULT;
    L->failed = true;
    if (L->error)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    L->error = g_string_new(NULL);
    append_where(L->error, w, lane);
    g_string_append_printf(L->error, ": %s", msg);
    g_free(msg);
}

/* ------------------------------------------------------- address spaces */

static const char *space_word(ex_space s)
{
    static const char *const n[] = {"global", "shared", "local", "kernel-param",
                                    "param", "const", "generic", "texture"};
    return (unsigned)s < G_N_ELEMENTS(n) ? n[s] : "?";
}

uint8_t *ex_addr(ex_warp *w, const ex_instr *in, ex_space space, uint64_t addr,
                 unsigned size, int lane, bool write)
{
    ex_space orig = space;
    /* .shared addresses are 32-bit offsets: [%r+imm] with a 32-bit %r wraps
     * (nvcc folds x + (i - 1) * 4 + 4 into a negative %r and +imm) */
    if (space == EX_SPACE_SHARED)
        addr = (uint32_t)addr;
    if (space == EX_SPACE_GENERIC) {
        if (addr - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE) {
            space = EX_SPACE_SHARED;
            addr -= MEM_SHARED_WINDOW;
        } else if (addr - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE) {
            space = EX_SPACE_LOCAL;
            addr -= MEM_LOCAL_WINDOW;
        } else {
            space = EX_SPACE_GLOBAL;
        }
    }
    if (size > 1 && (addr & (size - 1))) {
        ex_fault(w, lane, "misaligned %u-byte %s %s at address 0x%llx", size,
                 space_word(orig), write ? "store" : "load", (unsigned long long)addr);
        return NULL;
    }
    uint8_t *p = NULL;
    switch (space) {
    case EX_SPACE_GLOBAL: case EX_SPACE_CONST:
        p = mem_ptr(w->launch->mem, addr, size, &w->hint);
        break;
    case EX_SPACE_SHARED:
        if (addr + size <= w->cta->shared_size)
            p = w->cta->shared + addr;
        break;
    case EX_SPACE_LOCAL: case EX_SPACE_FPARAM:
        if (lane >= 0 && addr + size <= w->stack_top)
            p = w->stack + (gsize)lane * w->stack_cap + addr;
        break;
    case EX_SPACE_KPARAM:
        if (addr + size <= w->launch->kparam_size)
            p = w->launch->kparams + addr;
        if (write)
            p = NULL;
        break;
    default:
        break;
    }
    if (G_UNLIKELY(!p) && orig == EX_SPACE_GENERIC && addr - MEM_CDP_WINDOW < MEM_WINDOW_SIZE)
        p = ex_cdp_buffer(w, addr, size); /* a device launch's parameter buffer */
    if (G_UNLIKELY(!p) && orig == EX_SPACE_GENERIC &&
        addr - MEM_KPARAM_WINDOW < MEM_WINDOW_SIZE) {
        /* checked only off the fast path: kernel parameters by generic address */
        return ex_addr(w, in, EX_SPACE_KPARAM, addr - MEM_KPARAM_WINDOW, size, lane, write);
    }
    if (!p) {
        ex_fault(w, lane, "out-of-bounds %u-byte %s %s at address 0x%llx", size,
                 space_word(orig), write ? "store" : "load", (unsigned long long)addr);
    } else if (G_UNLIKELY(w->rec != NULL) && lane >= 0) {
        ex_rec_lane(w, in, (uint8_t)space, addr, size, (unsigned)lane, write);
    }
    return p;
}

/* ------------------------------------------------------------ SIMT stack */

/* Pops entries with no lanes left, and returns from calls whose lanes have
 * all finished; marks the warp done when no lane is left. */
void ex_simt_settle(ex_warp *w)
{
    for (;;) {
        while (w->simt->len > 0) {
            ex_simt *top = &g_array_index(w->simt, ex_simt, w->simt->len - 1);
            if (top->mask != 0 && top->pc != top->rpc)
                break;
            if (top->mask != 0 && top->pc == top->rpc && w->simt->len > 1) {
                ex_simt *below = top - 1;
                if (below->call_depth == top->call_depth) {
                    g_array_set_size(w->simt, w->simt->len - 1);
                    continue;
                }
                break;
            }
            if (top->mask != 0)
                break;
            g_array_set_size(w->simt, w->simt->len - 1);
        }
        if (w->calls->len > 0) {
            ex_callframe *cf = &g_array_index(w->calls, ex_callframe, w->calls->len - 1);
            if (w->simt->len <= cf->simt_base) {
                ex_call_return(w);
                continue;
            }
        }
        break;
    }
    if (w->simt->len == 0 && w->state == WARP_RUNNING)
        w->state = WARP_DONE;
}

/* Removes lanes from every entry (exit), then settles. */
void ex_simt_remove_lanes(ex_warp *w, uint32_t lanes)
{
    for (guint i = 0; i < w->simt->len; i++)
        g_array_index(w->simt, ex_simt, i).mask &= ~lanes;
    ex_simt_settle(w);
}

/* ------------------------------------------------------------ returns */

/* All lanes of the innermost call have returned: copies the return values
 * to the caller and switches back to its frame, registers and code. */
void ex_call_return(ex_warp *w)
{
    ex_callframe cf = g_array_index(w->calls, ex_callframe, w->calls->len - 1);
    g_array_set_size(w->calls, w->calls->len - 1);
    const ex_func *callee = w->fn;
    const ex_func *caller = &w->launch->mod->funcs[cf.func];
    const ex_call *c = cf.site;
    uint64_t (*caller_r)[WARP_SIZE] = w->rfile + cf.caller_roff;
    uint32_t lanes = cf.mask & ~w->exited;
    uint32_t nrets = c->nrets < callee->nrets ? c->nrets : callee->nrets;
    for (uint32_t i = 0; i < nrets; i++) {
        uint32_t rreg = callee->ret_regs[i];
        EX_LANES(lanes, l, {
            uint64_t v = 0;
            const uint8_t *src = NULL;
            uint32_t n = callee->ret_sizes[i];
            if (rreg != EX_NONE)
                v = w->r[rreg][l];
            else
                src = ex_lane_stack(w, l, cf.callee_fp + callee->ret_offsets[i]);
            if (c->ret_offsets[i] == EX_NONE) {
                if (src)
                    memcpy(&v, src, n < 8 ? n : 8);
                caller_r[c->ret_sizes[i]][l] = v;
            } else {
                uint8_t *dst = ex_lane_stack(w, l, cf.fp + c->ret_offsets[i]);
                uint32_t m = n < c->ret_sizes[i] ? n : c->ret_sizes[i];
                if (src)
                    memcpy(dst, src, m);
                else
                    memcpy(dst, &v, m < 8 ? m : 8);
            }
        });
    }
    w->fp = cf.fp;
    w->stack_top = cf.saved_top;
    w->r = caller_r;
    w->fn = caller;
    w->code = caller->code;
}

void ex_do_return(ex_warp *w, uint32_t lanes)
{
    if (w->calls->len == 0) {
        /* returning from the kernel ends those threads */
        w->exited |= lanes;
        ex_simt_remove_lanes(w, lanes);
        ex_lanes_exited(w, lanes);
        return;
    }
    const ex_callframe *cf = &g_array_index(w->calls, ex_callframe, w->calls->len - 1);
    for (guint i = cf->simt_base; i < w->simt->len; i++)
        g_array_index(w->simt, ex_simt, i).mask &= ~lanes;
    ex_simt_settle(w);
}

/* ----------------------------------------------------------------- running */

static uint32_t guard_mask(const ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint64_t *p = w->r[in->guard];
    uint32_t g = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++)
        g |= (uint32_t)(p[l] != 0) << l;
    if (in->guard_neg)
        g = ~g;
    return mask & g;
}

uint32_t ex_warp_guard_mask(const ex_warp *w, const ex_instr *in, uint32_t mask)
{
    return in->guard != EX_NONE ? guard_mask(w, in, mask) : mask;
}

/* Faults the warp with `why` plus the loop it is in (line and label), so a
 * hung kernel names the loop that never ends.  `spinning`: it made no
 * progress there (the livelock check); a run limit stops a kernel that
 * may just be long, and says only where it was. */
static void report_stuck(ex_warp *w, uint32_t pc, const char *why, bool spinning)
{
    const ptx_cfg *cfg = w->fn->cfg;
    GString *where = g_string_new(NULL);
    uint32_t b = cfg ? cfg->block_of[pc] : PTX_CFG_NONE;
    uint32_t loop = b != PTX_CFG_NONE ? ptx_cfg_loop_of(cfg, b) : PTX_CFG_NONE;
    if (loop != PTX_CFG_NONE) {
        const ptx_loop *lp = &g_array_index(cfg->loops, ptx_loop, loop);
        uint32_t first = cfg->blocks[lp->header].first;
        const ptx_instr *pi = ptx_func_instr(w->fn->ir, first);
        const char *label = NULL;
        for (guint i = 0; i < w->fn->ir->labels->len; i++) {
            const ptx_symbol *s = ptx_module_sym(w->launch->mod->ir,
                                                 g_array_index(w->fn->ir->labels, int32_t, i));
            if (s->index == (int32_t)first)
                label = s->name;
        }
        g_string_printf(where, "; it %s in the loop at line %u%s%s%s",
                        spinning ? "is spinning" : "was", pi->loc.line, label ? " (" : "",
                        label ? label : "", label ? ")" : "");
    }
    ex_fault(w, -1, "%s%s", why, where->str);
    g_string_free(where, TRUE);
}

static void report_livelock(ex_warp *w, uint32_t pc)
{
    ex_launch *L = w->launch;
    char *why;
    bool limit = L->max_warp_instrs && L->clock > L->max_warp_instrs;
    if (limit)
        why = g_strdup_printf("stopped after %llu warp instructions "
                              "(limits.max_warp_instructions; raise it with "
                              "--max-warp-instructions or --set "
                              "limits.max_warp_instructions=N)",
                              (unsigned long long)L->max_warp_instrs);
    else
        why = g_strdup_printf("no progress for %llu warp instructions (livelock: a spin loop "
                              "that cannot finish under stack-based reconvergence, or a kernel "
                              "that never ends)", (unsigned long long)L->livelock_limit);
    report_stuck(w, pc, why, !limit);
    g_free(why);
}

void ex_warp_stop(ex_warp *w, const char *why)
{
    uint32_t pc = w->simt->len ? g_array_index(w->simt, ex_simt, w->simt->len - 1).pc : 0;
    if (pc < w->fn->ninstrs) /* a run limit (instructions, cycles) */
        report_stuck(w, pc, why, false);
    else
        ex_fault(w, -1, "%s", why);
}

void ex_warp_step(ex_warp *w, ex_access *rec)
{
    if (rec) {
        rec->mask = 0;
        rec->write = 0;
        rec->atomic = 0;
        rec->order = 0;
        rec->size = 0;
        rec->async = 0;
        rec->mbar = UINT32_MAX;
        rec->instr = NULL;
        rec->fn = NULL;
    }
    w->rec = rec;
    ex_warp_run(w, 1);
    w->rec = NULL;
}

void ex_warp_run(ex_warp *w, uint64_t budget)
{
    if (G_LIKELY(!w->its))
        ex_warp_run_stack(w, budget);
    else
        ex_its_run(w, budget); /* runtime/its.c */
}

/* `k` instructions from the stack top's pc that neither branch nor wait
 * (ex_func.straight says how many there are): the entry and its lanes stay,
 * only the pc moves, so the loop skips the per-instruction stack and
 * control checks of ex_warp_run_stack; the counts, the livelock clock and
 * fault stops are the same. */
void ex_warp_run_plain(ex_warp *w, uint32_t k)
{
    ex_launch *L = w->launch;
    uint64_t limit = L->livelock_limit;
    uint64_t max_instrs = L->max_warp_instrs ? L->max_warp_instrs : UINT64_MAX;
    ex_simt *top = &g_array_index(w->simt, ex_simt, w->simt->len - 1);
    const uint32_t lanes = top->mask;
    for (uint32_t pc = top->pc; k > 0 && w->state == WARP_RUNNING; k--, pc++) {
        const ex_instr *in = &w->code[pc];
        uint32_t mask = in->guard != EX_NONE ? guard_mask(w, in, lanes) : lanes;
        w->instrs++;
        w->thread_instrs += ex_popc(mask);
        if (mask)
            in->fn(w, in, mask);
        top->pc = pc + 1;
        if (G_UNLIKELY(top->pc == top->rpc)) {
            ex_simt_settle(w);
            k = 1; /* the stack changed: the caller looks again */
        }
        if (G_UNLIKELY(++L->clock - L->last_progress > limit || L->clock > max_instrs) &&
            w->state == WARP_RUNNING) {
            report_livelock(w, pc);
            break;
        }
    }
}

void ex_warp_run_stack(ex_warp *w, uint64_t budget)
{
    ex_launch *L = w->launch;
    uint64_t limit = L->livelock_limit;
    uint64_t max_instrs = L->max_warp_instrs ? L->max_warp_instrs : UINT64_MAX;
    while (budget-- > 0 && w->state == WARP_RUNNING) {
        ex_simt *top = &g_array_index(w->simt, ex_simt, w->simt->len - 1);
        uint32_t pc = top->pc;
        if (G_UNLIKELY(pc >= w->fn->ninstrs)) {
            /* falling off the end of a function returns from it */
            ex_do_return(w, top->mask);
            continue;
        }
        uint32_t run = w->fn->straight[pc];
        if (run > 1 && budget + 1 >= run) {
            ex_warp_run_plain(w, run);
            budget -= run - 1;
            continue;
        }
        const ex_instr *in = &w->code[pc];
        uint32_t mask = top->mask;
        if (in->guard != EX_NONE)
            mask = guard_mask(w, in, mask);
        w->instrs++;
        w->thread_instrs += ex_popc(mask);
        if (in->flags & EXF_CONTROL) {
            in->fn(w, in, mask);
            if (w->state != WARP_RUNNING && w->state != WARP_AT_BARRIER)
                break;
        } else {
            if (mask)
                in->fn(w, in, mask);
            top->pc = pc + 1;
            if (G_UNLIKELY(top->pc == top->rpc))
                ex_simt_settle(w);
        }
        if (G_UNLIKELY(++L->clock - L->last_progress > limit || L->clock > max_instrs) &&
            w->state == WARP_RUNNING) {
            report_livelock(w, pc);
            break;
        }
        if (w->state == WARP_AT_BARRIER)
            break;
    }
}
