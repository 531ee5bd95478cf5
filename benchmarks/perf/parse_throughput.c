/* benchmarks/perf/parse_throughput.c — how fast the front end reads PTX.
 *
 * Builds a PTX module of at least 20 MB (default) by replicating the nvcc
 * corpus (the .ptx files of tests/corpus/nvcc) with every module-scope name
 * renamed per copy, so the result is one valid module; the text is the same
 * on every run.  Then times ptx_parse_string on it (best of 3) and ptx_print_module
 * of the result (best of 3), and prints MB/s and instructions/s.
 *
 * usage: parse_throughput [MB] [--write FILE]   (FILE: the generated PTX) */
#include "frontend/parser.h"
#include "frontend/print.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the source tree (set by meson); $PTXEMU_SOURCE_DIR overrides it */
#ifndef PTXEMU_SOURCE_ROOT
#define PTXEMU_SOURCE_ROOT "."
#endif

typedef struct corpus_file {
    char *body;          /* the text after .version/.target/.address_size */
    GHashTable *globals; /* module-scope names to rename */
} corpus_file;

static bool ident_char(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '$';
}

/* Drops the header directives: the generated module has one header. */
static char *strip_header(const char *text)
{
    GString *o = g_string_new(NULL);
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (strncmp(p, ".version", 8) && strncmp(p, ".target", 7) &&
            strncmp(p, ".address_size", 13))
            g_string_append_len(o, p, (gssize)n);
        p += n;
    }
    return g_string_free(o, FALSE);
}

static bool load_corpus(GPtrArray *files)
{
    const char *root = g_getenv("PTXEMU_SOURCE_DIR");
    char *dir = g_build_filename(root ? root : PTXEMU_SOURCE_ROOT, "tests", "corpus", "nvcc",
                                 NULL);
    GError *err = NULL;
    GDir *d = g_dir_open(dir, 0, &err);
    if (!d) {
        fprintf(stderr, "parse_throughput: %s\n", err->message);
        g_error_free(err);
        g_free(dir);
        return false;
    }
    /* sorted, so the generated text does not depend on directory order */
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d)))
        if (g_str_has_suffix(name, ".ptx"))
            g_ptr_array_add(names, g_strdup(name));
    g_dir_close(d);
    g_ptr_array_sort(names, (GCompareFunc)(void *)g_strcmp0);
    bool ok = true;
    for (guint i = 0; i < names->len && ok; i++) {
        char *path = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
        ptx_module *m = ptx_parse_file(path, &err);
        gchar *text = NULL;
        if (!m || !g_file_get_contents(path, &text, NULL, &err)) {
            fprintf(stderr, "parse_throughput: %s\n", err->message);
            g_clear_error(&err);
            ok = false;
        } else {
            corpus_file *cf = g_new0(corpus_file, 1);
            cf->body = strip_header(text);
            cf->globals = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
            GHashTableIter it;
            gpointer key;
            g_hash_table_iter_init(&it, m->globals);
            while (g_hash_table_iter_next(&it, &key, NULL))
                g_hash_table_add(cf->globals, g_strdup(key));
            g_ptr_array_add(files, cf);
        }
        g_free(text);
        ptx_module_free(m);
        g_free(path);
    }
    g_ptr_array_free(names, TRUE);
    g_free(dir);
    return ok && files->len > 0;
}

/* Appends body with every module-scope name given the suffix. */
static void append_renamed(GString *o, const corpus_file *cf, const char *suffix)
{
    const char *p = cf->body;
    GString *word = g_string_new(NULL);
    while (*p) {
        if (!ident_char(*p) || (p > cf->body && (ident_char(p[-1]) || p[-1] == '%' ||
                                                  p[-1] == '.'))) {
            g_string_append_c(o, *p++);
            continue;
        }
        const char *s = p;
        while (ident_char(*p))
            p++;
        g_string_assign(word, "");
        g_string_append_len(word, s, p - s);
        g_string_append_len(o, s, p - s);
        if (g_hash_table_contains(cf->globals, word->str))
            g_string_append(o, suffix);
    }
    g_string_free(word, TRUE);
}

static GString *generate(const GPtrArray *files, size_t min_bytes)
{
    GString *o = g_string_sized_new(min_bytes + (1u << 20));
    g_string_append(o, ".version 9.0\n.target sm_90\n.address_size 64\n");
    char suffix[32];
    for (unsigned copy = 0; o->len < min_bytes; copy++) {
        for (guint i = 0; i < files->len; i++) {
            g_snprintf(suffix, sizeof suffix, "_c%u_%u", copy, i);
            append_renamed(o, g_ptr_array_index(files, i), suffix);
        }
    }
    return o;
}

static double now(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

/* CPU time of this process: on a shared, loaded machine the wall time
 * includes waiting for a core, the CPU time does not. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    double mb = 20;
    const char *write_to = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--write") && i + 1 < argc)
            write_to = argv[++i];
        else if ((mb = g_ascii_strtod(argv[i], NULL)) <= 0) {
            fprintf(stderr, "usage: parse_throughput [MB] [--write FILE]\n");
            return 2;
        }
    }
    GPtrArray *files = g_ptr_array_new();
    if (!load_corpus(files))
        return 1;
    GString *text = generate(files, (size_t)(mb * 1024 * 1024));
    if (write_to && !g_file_set_contents(write_to, text->str, (gssize)text->len, NULL)) {
        fprintf(stderr, "parse_throughput: cannot write %s\n", write_to);
        return 1;
    }

    double best_parse = 1e30, best_dump = 1e30, cpu_parse = 1e30, cpu_dump = 1e30;
    uint64_t instrs = 0, funcs = 0;
    size_t dump_len = 0;
    for (int rep = 0; rep < 3; rep++) {
        GError *err = NULL;
        double t0 = now(), c0 = cpu_now();
        ptx_module *m = ptx_parse_string(text->str, text->len, "generated.ptx", &err);
        double t1 = now(), c1 = cpu_now();
        if (!m) {
            fprintf(stderr, "parse_throughput: %s\n", err->message);
            return 1;
        }
        best_parse = MIN(best_parse, t1 - t0);
        cpu_parse = MIN(cpu_parse, c1 - c0);
        instrs = funcs = 0;
        for (guint i = 0; i < m->funcs->len; i++) {
            instrs += ptx_module_func(m, i)->instrs->len;
            funcs++;
        }
        GString *d = g_string_sized_new(text->len);
        t0 = now();
        c0 = cpu_now();
        ptx_print_module(d, m);
        t1 = now();
        c1 = cpu_now();
        best_dump = MIN(best_dump, t1 - t0);
        cpu_dump = MIN(cpu_dump, c1 - c0);
        dump_len = d->len;
        g_string_free(d, TRUE);
        ptx_module_free(m);
    }
    double size_mb = (double)text->len / (1024.0 * 1024.0);
    printf("input: %.1f MB, %" G_GUINT64_FORMAT " functions, %" G_GUINT64_FORMAT
           " instructions (%u corpus files replicated)\n",
           size_mb, funcs, instrs, files->len);
    double out_mb = (double)dump_len / (1024.0 * 1024.0);
    printf("parse: %.3f s  %.1f MB/s  %.2f M instructions/s  (best of 3, wall)\n", best_parse,
           size_mb / best_parse, (double)instrs / best_parse / 1e6);
    printf("       %.3f s  %.1f MB/s  %.2f M instructions/s  (best of 3, CPU time)\n",
           cpu_parse, size_mb / cpu_parse, (double)instrs / cpu_parse / 1e6);
    printf("dump:  %.3f s  %.1f MB/s of output (%.1f MB)  (best of 3, wall; %.3f s CPU)\n",
           best_dump, out_mb / best_dump, out_mb, cpu_dump);
    g_string_free(text, TRUE);
    for (guint i = 0; i < files->len; i++) {
        corpus_file *cf = g_ptr_array_index(files, i);
        g_free(cf->body);
        g_hash_table_destroy(cf->globals);
        g_free(cf);
    }
    g_ptr_array_free(files, TRUE);
    return 0;
}
