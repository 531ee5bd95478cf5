/* timing/core_csv.c — per-core warp-state time series, one CSV row per core
 * and interval (tm_csv_*, declared in timing/stats.h). */
#include "timing/stats.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

bool tm_csv_open(tm_csv *c, const char *dir, uint32_t launch, const char *kernel,
                 uint32_t ncores, const tm_core_counters *base, uint64_t start,
                 GError **error)
{
    memset(c, 0, sizeof *c);
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                    "cannot create the trace directory %s: %s", dir, g_strerror(e));
        return false;
    }
    char *name = g_strdup_printf("launch-%u-%s.csv", launch, kernel);
    for (char *p = name; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_' && *p != '.')
            *p = '_';
    char *path = g_build_filename(dir, name, NULL);
    g_free(name);
    bool opened = out_file_open(&c->out, path, error);
    g_free(path);
    if (!opened)
        return false;
    c->f = c->out.f;
    c->ncores = ncores;
    c->last = g_new0(tm_core_counters, ncores ? ncores : 1);
    memcpy(c->last, base, sizeof *base * ncores);
    c->last_cycle = start;
    fputs("cycle,sm,ctas_resident", c->f);
    for (unsigned s = 1; s < SCHED_WS_COUNT; s++)
        fprintf(c->f, ",%s", sched_warp_state_names[s]);
    fputs(",alu_load,mem_load,instructions,ctas_issued,ctas_finished\n", c->f);
    return true;
}

static void csv_avg(FILE *f, uint64_t num, uint64_t den)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    fprintf(f, ",%s", g_ascii_formatd(buf, sizeof buf, "%.3f", tm_ratio(num, den)));
}

void tm_csv_sample(tm_csv *c, uint64_t cycle, const tm_core_counters *now,
                   const uint32_t *resident)
{
    if (!c->f || cycle <= c->last_cycle)
        return;
    uint64_t dt = cycle - c->last_cycle;
    for (uint32_t i = 0; i < c->ncores; i++) {
        tm_core_counters d = now[i];
        tm_core_counters_sub(&d, &c->last[i]);
        fprintf(c->f, "%" G_GUINT64_FORMAT ",%u,%u", cycle, i, resident[i]);
        for (unsigned s = 1; s < SCHED_WS_COUNT; s++)
            csv_avg(c->f, d.warp_state[s], dt);
        csv_avg(c->f, d.alu_load, dt);
        csv_avg(c->f, d.mem_load, dt);
        fprintf(c->f, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n",
                d.warp_instrs, d.ctas_issued, d.ctas_finished);
        c->last[i] = now[i];
    }
    c->last_cycle = cycle;
}

bool tm_csv_close(tm_csv *c, bool keep, GError **error)
{
    bool good = true;
    if (c->f && keep)
        good = out_file_close(&c->out, error);
    else if (c->f)
        out_file_abort(&c->out);
    g_free(c->last);
    memset(c, 0, sizeof *c);
    return good;
}
