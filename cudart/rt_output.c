/* cudart/rt_output.c — files the drop-in runtime writes when the program
 * exits: PTXEMU_STATS in functional mode (in timing mode the timing
 * model's own statistics JSON goes there instead, rewritten after every
 * launch), and the PTXEMU_SUMMARY that `ptxemu exec` prints. */
#include "cudart/rt_output.h"
#include "timing/outfile.h"

#include <stdio.h>

void rt_output_failed(cudart *rt, const char *message)
{
    if (!rt->output_error)
        rt->output_error = g_strdup(message);
}

static void write_file(cudart *rt, const char *what, const char *path, const GString *s)
{
    GError *err = NULL;
    if (!out_file_write_all(path, s->str, s->len, &err)) {
        rt_log(rt, RT_LOG_ERROR, "%s: %s", what, err->message);
        char *msg = g_strdup_printf("%s: %s", what, err->message);
        rt_output_failed(rt, msg);
        g_free(msg);
        g_error_free(err);
    }
}

/* A key file value: one line, backslashes doubled (GKeyFile's escapes). */
static void append_value(GString *s, const char *v)
{
    for (; *v; v++)
        if (*v == '\\')
            g_string_append(s, "\\\\");
        else if (*v == '\n')
            g_string_append(s, "\\n");
        else
            g_string_append_c(s, *v);
}

void rt_write_functional_stats(cudart *rt)
{
    GString *s = g_string_new("{\n  \"schema\": \"ptxemu-cudart-stats/1\",\n"
                              "  \"mode\": \"functional\",\n  \"kernels\": [");
    for (guint i = 0; i < rt->launches->len; i++) {
        const rt_launch_record *r = &g_array_index(rt->launches, rt_launch_record, i);
        char *name = g_strescape(r->kernel, NULL);
        g_string_append_printf(
            s, "%s\n    {\"launch\": %u, \"kernel\": \"%s\", \"grid\": [%u, %u, %u], "
               "\"block\": [%u, %u, %u], \"warp_instructions\": %llu, "
               "\"thread_instructions\": %llu, \"status\": %d}",
            i ? "," : "", i, name, r->grid.x, r->grid.y, r->grid.z, r->block.x, r->block.y,
            r->block.z, (unsigned long long)r->warp_instructions,
            (unsigned long long)r->thread_instructions, r->status);
        g_free(name);
    }
    g_string_append(s, "\n  ]\n}\n");
    write_file(rt, "PTXEMU_STATS", rt->stats_path, s);
    g_string_free(s, TRUE);
}

void rt_write_summary(cudart *rt)
{
    GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
    uint64_t warp = 0, thread = 0, cycles = rt_cycles(rt), failed = 0;
    for (guint i = 0; i < rt->launches->len; i++) {
        const rt_launch_record *r = &g_array_index(rt->launches, rt_launch_record, i);
        g_hash_table_add(names, (gpointer)r->kernel);
        warp += r->warp_instructions;
        thread += r->thread_instructions;
        failed += r->status != 0;
    }
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "mode=%s\nconfig=%s\nlaunches=%u\nkernels=%u\nfailed_launches=%llu\n"
                              "warp_instructions=%llu\nthread_instructions=%llu\ncycles=%llu\n",
                           rt->timing ? "timing" : "functional", rt->cfg.gpu.name,
                           rt->launches->len, g_hash_table_size(names),
                           (unsigned long long)failed, (unsigned long long)warp,
                           (unsigned long long)thread, (unsigned long long)cycles);
    g_hash_table_destroy(names);
    if (rt->output_error) {
        g_string_append(s, "output_error=");
        append_value(s, rt->output_error);
        g_string_append_c(s, '\n');
    }
    write_file(rt, "PTXEMU_SUMMARY", rt->summary_path, s);
    g_string_free(s, TRUE);
}
