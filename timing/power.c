/* timing/power.c — the energy model (see timing/power.h, docs/energy.md).
 *
 * static  = static_core x (powered SM-cycles) + static_uncore x cycles,
 *           converted with the core clock; an SM's powered cycles are the
 *           kernel's cycles less its gated_cycles, so a gated SM draws no
 *           static power;
 * dynamic = sum over event classes of count x coefficient: warp
 *           instructions by unit (SP/INT ALU, SFU, DP; the register-file
 *           reads and write-back of an instruction are part of its
 *           coefficient, as the counters do not split operands), memory
 *           instructions, L1 / shared (each serialised bank pass) /
 *           constant / L2 accesses, NoC flits, DRAM column accesses and
 *           row activations, and with ICC on its table lookups. */
#include "timing/power.h"

#include <string.h>

void tm_kernel_energy(const gpu_config *cfg, const tm_kernel_stats *k, tm_energy *out)
{
    memset(out, 0, sizeof *out);
    const struct gpu_config_energy *e = &cfg->energy;
    const double nj = 1e-9;
    double hz = (double)cfg->clock.core * 1e6;
    uint64_t cycles = tm_kernel_cycles(k);
    /* A sampled launch (timing/sample.h) counted its events and gated
     * cycles only while it ran in detail; the rest is projected at the
     * detailed part's rates, as its cycles are: events by warp
     * instructions, powered SM-cycles by the detailed part's powered share. */
    uint64_t span = cycles;   /* cycles the gating counters cover */
    double events = 1.0;      /* event counts -> whole-launch counts */
    if (k->sample && k->sample->sampled && k->sample->detailed_cycles) {
        span = k->sample->detailed_cycles;
        if (k->sample->detailed_instrs)
            events = (double)k->warp_instrs / (double)k->sample->detailed_instrs;
    }
    uint64_t powered = 0; /* SM-cycles not gated, over `span` */
    for (uint32_t i = 0; i < k->ncores; i++)
        powered += k->cores[i].gated_cycles < span ? span - k->cores[i].gated_cycles : 0;
    out->seconds = (double)cycles / hz;
    out->static_core_j =
        e->static_core * (double)powered * ((double)cycles / (double)(span ? span : 1)) / hz;
    out->static_uncore_j = e->static_uncore * out->seconds;

    const tm_core_counters *c = &k->total;
    uint64_t sp = c->alu_instrs - c->sfu_instrs - c->dp_instrs;
    out->alu_j = (double)sp * e->alu_inst * nj;
    out->sfu_j = (double)c->sfu_instrs * e->sfu_inst * nj;
    out->dp_j = (double)c->dp_instrs * e->dp_inst * nj;
    out->mem_inst_j = (double)c->mem_instrs * e->mem_inst * nj;
    out->shared_j = (double)(c->shared_accesses + c->shared_conflicts) * e->shared_access * nj;

    const tm_mem_counters *m = &k->mem;
    out->l1_j = (double)m->l1_accesses * e->l1_access * nj;
    out->const_j = (double)(m->const_hits + m->const_misses) * e->const_access * nj;
    out->l2_j = (double)m->l2_accesses * e->l2_access * nj;
    out->noc_j = (double)m->noc_flits * e->noc_flit * nj;
    out->dram_j = ((double)(m->dram_reads + m->dram_writes) * e->dram_access +
                   (double)m->dram_activates * e->dram_activate) * nj;
    if (cfg->icc.mode != GPU_ICC_OFF) /* every read request looks the table up */
        out->icc_j = (double)(m->noc_read_requests + m->icc_merges + m->icc_cache_hits) *
                     e->icc_access * nj;

    if (events != 1.0) {
        double *parts[] = {&out->alu_j, &out->sfu_j,   &out->dp_j,  &out->mem_inst_j,
                           &out->l1_j,  &out->shared_j, &out->const_j, &out->l2_j,
                           &out->noc_j, &out->dram_j,  &out->icc_j};
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
            *parts[i] *= events;
    }
    out->static_j = out->static_core_j + out->static_uncore_j;
    out->dynamic_j = out->alu_j + out->sfu_j + out->dp_j + out->mem_inst_j + out->l1_j +
                     out->shared_j + out->const_j + out->l2_j + out->noc_j + out->dram_j +
                     out->icc_j;
    out->total_j = out->static_j + out->dynamic_j;
    out->avg_power_w = out->seconds > 0 ? out->total_j / out->seconds : 0;
    out->edp_js = out->total_j * out->seconds;
}
