/* timing/kernel_csv.c — per-kernel CTA residency and DRAM bandwidth time
 * series (timing/kernel_csv.h). */
#include "timing/kernel_csv.h"

#include <string.h>

bool tm_kcsv_open(tm_kcsv *c, const char *dir, uint32_t launch, const gpu_config *cfg,
                  uint64_t start, uint64_t dram_bytes, GError **error)
{
    memset(c, 0, sizeof *c);
    c->nsms = cfg->gpu.num_sms;
    /* bytes per core cycle: partitions x bus bytes x transfers per DRAM clock */
    c->peak = (double)cfg->dram.partitions * cfg->dram.bus_width / 8.0 * cfg->dram.data_rate *
              cfg->clock.dram / cfg->clock.core;
    c->last_cycle = start;
    c->last_bytes = dram_bytes;
    char *p = g_strdup_printf("%s/launch-%u-ctas.csv", dir, launch);
    bool ok = out_file_open(&c->ctas, p, error);
    g_free(p);
    if (!ok)
        return false;
    p = g_strdup_printf("%s/launch-%u-dram.csv", dir, launch);
    ok = out_file_open(&c->dram, p, error);
    g_free(p);
    if (!ok) {
        out_file_abort(&c->ctas);
        return false;
    }
    fputs("cycle,launch,kernel", c->ctas.f);
    for (uint32_t s = 0; s < c->nsms; s++)
        fprintf(c->ctas.f, ",sm%u", s);
    fputc('\n', c->ctas.f);
    fputs("cycle,dram_bytes,bandwidth\n", c->dram.f);
    return true;
}

void tm_kcsv_kernel(tm_kcsv *c, uint64_t cycle, uint32_t launch, const char *name,
                    const uint32_t *resident)
{
    if (!c->ctas.f)
        return;
    fprintf(c->ctas.f, "%" G_GUINT64_FORMAT ",%u,", cycle, launch);
    for (const char *p = name; *p; p++) /* kernel names are identifiers: no quoting */
        fputc(*p == ',' || *p == '"' || *p == '\n' ? '_' : *p, c->ctas.f);
    for (uint32_t s = 0; s < c->nsms; s++)
        fprintf(c->ctas.f, ",%u", resident[s]);
    fputc('\n', c->ctas.f);
}

void tm_kcsv_dram(tm_kcsv *c, uint64_t cycle, uint64_t dram_bytes)
{
    if (!c->dram.f || cycle <= c->last_cycle)
        return;
    uint64_t bytes = dram_bytes - c->last_bytes;
    double bw = c->peak > 0 ? (double)bytes / (double)(cycle - c->last_cycle) / c->peak : 0;
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(num, sizeof num, "%.4f", bw);
    fprintf(c->dram.f, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s\n", cycle, bytes, num);
    c->last_cycle = cycle;
    c->last_bytes = dram_bytes;
}

bool tm_kcsv_close(tm_kcsv *c, bool keep, GError **error)
{
    if (!keep) {
        out_file_abort(&c->ctas);
        out_file_abort(&c->dram);
        return true;
    }
    bool ok = out_file_close(&c->ctas, error);
    if (ok)
        ok = out_file_close(&c->dram, error);
    else
        out_file_abort(&c->dram);
    return ok;
}
