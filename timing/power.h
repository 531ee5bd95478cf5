/* timing/power.h — the energy model (docs/energy.md): per kernel, static
 * energy of the powered SMs (a power-gated SM draws none) and of the rest
 * of the chip, plus dynamic energy per counted event, with the [energy]
 * coefficients of the GPU config.  Results are for comparing policies on
 * one config (normalised values), not absolute predictions. */
#ifndef PTXEMU_TIMING_POWER_H
#define PTXEMU_TIMING_POWER_H

#include "timing/config.h"
#include "timing/stats.h"

typedef struct tm_energy {
    double seconds;              /* kernel cycles at the core clock */
    double static_core_j;        /* SMs, powered (not gated) cycles only */
    double static_uncore_j;      /* everything outside the SMs */
    double alu_j, sfu_j, dp_j, mem_inst_j;
    double l1_j, shared_j, const_j, l2_j, noc_j, dram_j, icc_j;
    double static_j, dynamic_j, total_j;
    double avg_power_w;          /* total_j / seconds */
    double edp_js;               /* energy-delay product, J x s */
} tm_energy;

void tm_kernel_energy(const gpu_config *cfg, const tm_kernel_stats *k, tm_energy *out);

#endif
