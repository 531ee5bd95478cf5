/* timing/kernel_csv.h — the concurrent-kernel time series of a timing run
 * (with a CSV directory, beside the per-SM series of timing/stats.h), at
 * the same sampling interval:
 *   launch-N-ctas.csv  cycle,launch,kernel,sm0..smK: CTAs of each kernel
 *                      resident on each SM (a row per resident kernel per
 *                      sample; thesis Fig. 5.8; `ptxemu plot --ctas` draws it);
 *   launch-N-dram.csv  cycle,dram_bytes,bandwidth: DRAM bytes moved in the
 *                      interval and their fraction of the peak bandwidth.
 * N is the run's first launch.  Files appear only when the run succeeds. */
#ifndef PTXEMU_TIMING_KERNEL_CSV_H
#define PTXEMU_TIMING_KERNEL_CSV_H

#include "timing/config.h"
#include "timing/outfile.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct tm_kcsv {
    out_file ctas, dram;
    uint32_t nsms;
    double peak;                 /* DRAM bytes per core cycle at most */
    uint64_t last_cycle, last_bytes;
} tm_kcsv;

bool tm_kcsv_open(tm_kcsv *c, const char *dir, uint32_t launch, const gpu_config *cfg,
                  uint64_t start, uint64_t dram_bytes, GError **error);
/* One resident kernel's CTAs per SM at `cycle`. */
void tm_kcsv_kernel(tm_kcsv *c, uint64_t cycle, uint32_t launch, const char *name,
                    const uint32_t *resident);
/* DRAM bytes moved so far (all kernels) at `cycle`. */
void tm_kcsv_dram(tm_kcsv *c, uint64_t cycle, uint64_t dram_bytes);
/* keep: give the files their names; otherwise remove them. */
bool tm_kcsv_close(tm_kcsv *c, bool keep, GError **error);

#endif
