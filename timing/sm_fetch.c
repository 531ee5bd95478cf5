/* timing/sm_fetch.c — the instruction cache of one SM (l1i.enabled).
 *
 * The model follows GPGPU-Sim's (dev 6b244a5d) fetch stage, whose facts
 * are:
 *   - a PTX instruction is 8 bytes (src/cuda-sim/ptx_ir.cc:1232,
 *     m_inst_size = 8) and the functions of a program are assembled one
 *     after another in PTX order into one code address space
 *     (src/cuda-sim/cuda-sim.cc:286-321, g_assemble_code_next_pc; each is
 *     assembled when the parser reaches its end, ptx_parser.cc:206); a
 *     fetch reads code address 0xF0000000 + pc (shader.cc:864-867
 *     PROGRAM_MEM_START, :974);
 *   - each cycle the SM fetches for one warp with an empty instruction
 *     buffer that is not waiting for a miss, up to 16 bytes (2
 *     instructions) and not past the line's end (shader.cc:968-1014);
 *   - a miss marks the warp (imiss_pending) until its line comes back
 *     from the L2 (an INST_ACC_R read); the other warps keep fetching;
 *     when the MSHRs cannot take the miss the fetch is simply lost for
 *     that cycle (RESERVATION_FAIL);
 *   - the SM2_GTX480 cache is -gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4
 *     (gpgpusim.config:83): 4 sets x 128 B x 4 ways, LRU, allocate on
 *     fill, 2 MSHRs merging 32 requests; it is never invalidated between
 *     kernels (only the L1 data cache is, shader.cc:2204-2207).
 *
 * Here: a fetch that hits fills the warp's buffer as before (timing/sm.c
 * fetch_stage) with at most core.ibuffer_entries instructions, not past
 * the line; a miss takes or joins an MSHR entry and sends one line read
 * through the memory system (memsys_ifetch); when the line arrives it is
 * installed and every warp waiting for it rejoins the fetch queue (GPGPU-
 * Sim hands the line to its waiters one per cycle through the fetch
 * buffer; here they fetch again, one per cycle, and hit).  A module's
 * functions get code addresses in their order (ex_module.funcs), each
 * instruction l1i.instr_bytes. */
#include "timing/sm.h"
#include "timing/sm_internal.h"
#include "runtime/warp.h"

/* GPGPU-Sim's PROGRAM_MEM_START (shader.cc:864): the code address space. */
#define CODE_BASE UINT64_C(0xF0000000)

static uint32_t lg2(uint32_t x)
{
    uint32_t r = 0;
    while ((1u << r) < x)
        r++;
    return r;
}

void tm_l1i_init(tm_sm *sm)
{
    const gpu_config *cfg = sm->cfg;
    sm->l1i_on = cfg->l1i.enabled;
    if (!sm->l1i_on)
        return;
    cache_init(&sm->l1i, cfg->l1i.size / cfg->l1i.line, cfg->l1i.assoc, GPU_REPL_LRU);
    mshr_init(&sm->l1im, cfg->l1i.mshrs, cfg->l1i.mshr_merge);
    sm->l1i_shift = lg2(cfg->l1i.line);
}

void tm_l1i_free(tm_sm *sm)
{
    if (!sm->l1i_on)
        return;
    cache_free(&sm->l1i);
    mshr_free(&sm->l1im);
    sm->l1i_on = false;
}

void tm_l1i_abort(tm_sm *sm)
{
    if (!sm->l1i_on)
        return;
    mshr_free(&sm->l1im);
    mshr_init(&sm->l1im, sm->cfg->l1i.mshrs, sm->cfg->l1i.mshr_merge);
    for (uint32_t s = 0; s < sm->nwarps; s++)
        sm->warps[s].imiss = false;
}

/* Code offset of fn's first instruction: the instructions of the module's
 * functions before it. */
static uint64_t code_base(tm_sm *sm, const ex_warp *w)
{
    if (sm->code_fn == w->fn)
        return sm->code_base;
    const ex_module *mod = w->launch ? w->launch->mod : NULL;
    uint64_t base = 0;
    if (mod && w->fn >= mod->funcs && w->fn < mod->funcs + mod->nfuncs)
        for (const ex_func *f = mod->funcs; f < w->fn; f++)
            base += f->ninstrs;
    sm->code_fn = w->fn;
    sm->code_base = base * sm->cfg->l1i.instr_bytes;
    return sm->code_base;
}

bool tm_l1i_fetch(tm_sm *sm, uint32_t slot, uint64_t now, uint32_t *n)
{
    tm_warp *tw = &sm->warps[slot];
    const ex_warp *w = tw->w;
    uint32_t ib = sm->cfg->l1i.instr_bytes, line = sm->cfg->l1i.line;
    uint64_t addr = CODE_BASE + code_base(sm, w) + (uint64_t)ex_warp_pc(w) * ib;
    uint64_t key = addr >> sm->l1i_shift;
    uint32_t left = (uint32_t)(line - (addr & (line - 1))) / ib;
    if (cache_lookup(&sm->l1i, key, true)) {
        sm->c.l1i_hits++;
        *n = left < 1 ? 1 : left < sm->ibuf_entries ? left : sm->ibuf_entries;
        return true;
    }
    uint32_t e = mshr_find(&sm->l1im, key);
    if (e != MSHR_NONE) {
        if (!mshr_add(&sm->l1im, e, slot))
            goto refused;
    } else {
        if (!sm->l1im.nfree)
            goto refused;
        e = mshr_alloc(&sm->l1im, key, 0);
        if (!memsys_ifetch(sm->env->mem, sm->id, key << sm->l1i_shift, line,
                           tm_token(sm->id, TM_IFETCH_SLOT, e), now)) {
            mshr_release(&sm->l1im, e);
            goto refused;
        }
        mshr_add(&sm->l1im, e, slot);
    }
    sm->c.l1i_misses++;
    tw->imiss = true;
    return false;
refused:
    sm_fetch_enqueue(sm, slot, now);
    return false;
}

void tm_l1i_done(tm_sm *sm, uint32_t e, uint64_t cycle)
{
    if (!sm->l1i_on || e >= sm->l1im.n)
        return;
    uint64_t key = sm->l1im.key[e], victim;
    bool vd;
    cache_insert(&sm->l1i, key, false, &victim, &vd);
    const uint32_t *wt = mshr_waiters(&sm->l1im, e);
    for (uint32_t i = 0; i < sm->l1im.count[e]; i++) {
        tm_warp *tw = &sm->warps[wt[i]];
        if (!tw->imiss)
            continue;
        tw->imiss = false;
        if (tw->w && tw->w->state != WARP_DONE && tw->ibuf == 0)
            sm_fetch_enqueue(sm, wt[i], cycle);
    }
    mshr_release(&sm->l1im, e);
    if (sm->next_wake > cycle + 1)
        sm->next_wake = cycle + 1;
}
