/* tools/correlate_ref.c — reads the reference file of `ptxemu correlate`:
 * '#' lines (free text, or `# key: value` metadata), a header naming the
 * columns, then one row per kernel launch.  Every problem is reported with
 * the file and line; the launches themselves are checked against ptxemu's
 * run later (tools/cmd_correlate.c). */
#include "benchmarks/harness.h"
#include "tools/correlate.h"

#include <math.h>
#include <string.h>

/* What each metric is compared with; docs/correlate.md has the table. */
const corr_metric_info corr_metrics[CM_COUNT] = {
    [CM_CYCLES] = {"cycles", CK_COUNT, "cycles (end_cycle - start_cycle + 1 of the launch)", NULL},
    [CM_WARP_INSTRUCTIONS] = {"warp_instructions", CK_COUNT, "warp_instructions", NULL},
    [CM_INSTRUCTIONS] = {"instructions", CK_COUNT, "thread_instructions", NULL},
    [CM_IPC] = {"ipc", CK_RATIO, "thread_instructions / cycles (the JSON's ipc is per warp)",
                NULL},
    [CM_L1_HIT] = {"l1_hit", CK_RATE, "memory.l1_hit_rate = l1_hits / (l1_hits + l1_misses)",
                   NULL},
    [CM_L2_HIT] = {"l2_hit", CK_RATE, "memory.l2_hit_rate = l2_hits / (l2_hits + l2_misses)",
                   NULL},
    [CM_DRAM_READS] = {"dram_reads", CK_COUNT, "memory.dram_reads (DRAM read requests)", NULL},
    [CM_DRAM_WRITES] = {"dram_writes", CK_COUNT, "memory.dram_writes (DRAM write requests)",
                        NULL},
    [CM_ICNT_STALLS] = {"icnt_stalls", CK_COUNT, NULL,
                        "ptxemu counts no interconnect stalls (its crossbar has no stall "
                        "counter); not compared"},
};

int corr_metric_find(const char *name)
{
    for (int m = 0; m < CM_COUNT; m++)
        if (!strcmp(corr_metrics[m].name, name))
            return m;
    return -1;
}

/* The fields of one line: split at commas, a field may be "quoted" ("" is
 * a quote inside one); surrounding blanks are dropped. */
static GPtrArray *split_fields(const char *line, bool *bad_quote)
{
    GPtrArray *f = g_ptr_array_new_with_free_func(g_free);
    GString *cur = g_string_new(NULL);
    *bad_quote = false;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                g_string_append_c(cur, *p);
            }
            if (*p != '"')
                *bad_quote = true;
            else
                p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p && *p != ',')
                *bad_quote = true;
            while (*p && *p != ',')
                p++;
        } else {
            while (*p && *p != ',')
                g_string_append_c(cur, *p++);
            while (cur->len && (cur->str[cur->len - 1] == ' ' || cur->str[cur->len - 1] == '\t'))
                g_string_truncate(cur, cur->len - 1);
        }
        g_ptr_array_add(f, g_strdup(cur->str));
        g_string_truncate(cur, 0);
        if (*p != ',')
            break;
        p++;
    }
    g_string_free(cur, TRUE);
    return f;
}

static void err_at(GPtrArray *errors, const char *path, unsigned line, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
static void err_at(GPtrArray *errors, const char *path, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_ptr_array_add(errors, line ? g_strdup_printf("%s:%u: %s", path, line, msg)
                                 : g_strdup_printf("%s: %s", path, msg));
    g_free(msg);
}

/* A metric's value: a finite number >= 0 (a rate also <= 1). */
static bool parse_value(const char *s, corr_kind kind, double *out)
{
    char *end;
    double v = g_ascii_strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < 0 || (kind == CK_RATE && v > 1))
        return false;
    *out = v;
    return true;
}

/* `# key: value`: metadata; the core clock is checked here. */
static void read_meta(corr_ref *r, const char *text, unsigned line, GPtrArray *errors)
{
    const char *colon = strchr(text, ':');
    if (!colon)
        return;
    char *key = g_strstrip(g_strndup(text, (gsize)(colon - text)));
    bool word = *key != '\0';
    for (const char *k = key; *k; k++)
        word &= g_ascii_isalnum(*k) || *k == '_' || *k == '-';
    if (!word) { /* free text that happens to hold a colon */
        g_free(key);
        return;
    }
    char *value = g_strstrip(g_strdup(colon + 1));
    if (!strcmp(key, "core_clock_mhz")) {
        char *end;
        double f = g_ascii_strtod(value, &end);
        if (end == value || *end || !isfinite(f) || f <= 0 || f > 100000)
            err_at(errors, r->path, line, "core_clock_mhz: '%s' is not a clock in MHz", value);
        else
            r->core_mhz = f;
    }
    if (!strcmp(key, "dram_request_bytes")) {
        char *end;
        double b = g_ascii_strtod(value, &end);
        if (end == value || *end || !isfinite(b) || b < 1 || b > 65536)
            err_at(errors, r->path, line, "dram_request_bytes: '%s' is not a size in bytes",
                   value);
        else
            r->dram_bytes = b;
    }
    g_ptr_array_add(r->meta, key);
    g_ptr_array_add(r->meta, value);
}

const char *corr_ref_meta(const corr_ref *r, const char *key)
{
    for (guint i = 0; i + 1 < r->meta->len; i += 2)
        if (!strcmp(g_ptr_array_index(r->meta, i), key))
            return g_ptr_array_index(r->meta, i + 1);
    return NULL;
}

enum { COL_BENCH, COL_SIZE, COL_LAUNCH, COL_KERNEL, COL_KEYS };
static const char *const key_cols[COL_KEYS] = {"benchmark", "size", "launch", "kernel"};

typedef struct header {
    int key[COL_KEYS];           /* column of each key field */
    int metric[CM_COUNT];        /* column of each metric, -1 absent */
    guint ncols;
} header;

static bool read_header(corr_ref *r, GPtrArray *f, unsigned line, header *h, GPtrArray *errors)
{
    bool good = true;
    for (int k = 0; k < COL_KEYS; k++)
        h->key[k] = -1;
    for (int m = 0; m < CM_COUNT; m++)
        h->metric[m] = -1;
    h->ncols = f->len;
    for (guint c = 0; c < f->len; c++) {
        const char *name = g_ptr_array_index(f, c);
        for (guint d = 0; d < c; d++)
            if (!strcmp(name, g_ptr_array_index(f, d))) {
                err_at(errors, r->path, line, "column '%s' appears twice", name);
                good = false;
            }
        for (int k = 0; k < COL_KEYS; k++)
            if (!strcmp(name, key_cols[k]))
                h->key[k] = (int)c;
        int m = corr_metric_find(name);
        if (m >= 0) {
            h->metric[m] = (int)c;
            r->column[m] = true;
        }
    }
    for (int k = 0; k < COL_KEYS; k++)
        if (h->key[k] < 0) {
            err_at(errors, r->path, line, "the header has no '%s' column (want benchmark, size, "
                   "launch, kernel and metric columns)", key_cols[k]);
            good = false;
        }
    bool any = false;
    for (int m = 0; m < CM_COUNT; m++)
        any |= r->column[m];
    if (!any) {
        GString *names = g_string_new(NULL);
        for (int m = 0; m < CM_COUNT; m++)
            g_string_append_printf(names, "%s%s", m ? ", " : "", corr_metrics[m].name);
        err_at(errors, r->path, line, "the header names no metric column (%s)", names->str);
        g_string_free(names, TRUE);
        good = false;
    }
    return good;
}

/* One data row; false (with the problems appended) when it is malformed. */
static bool read_row(corr_ref *r, const header *h, GPtrArray *f, unsigned line, corr_row *row,
                     GPtrArray *errors)
{
    memset(row, 0, sizeof *row);
    row->line = line;
    if (f->len != h->ncols) {
        err_at(errors, r->path, line, "%u fields, the header has %u columns", f->len, h->ncols);
        return false;
    }
    bool good = true;
    const char *bname = g_ptr_array_index(f, (guint)h->key[COL_BENCH]);
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n && !row->bench; i++)
        if (!strcmp(all[i]->name, bname)) {
            row->bench = all[i];
            row->bench_index = i;
        }
    if (!row->bench) {
        err_at(errors, r->path, line, "unknown benchmark '%s' (see 'ptxemu bench list')", bname);
        good = false;
    }
    const char *size = g_ptr_array_index(f, (guint)h->key[COL_SIZE]);
    if (!bench_parse_size(size, &row->size)) {
        err_at(errors, r->path, line, "unknown size '%s' (tiny, small or paper)", size);
        good = false;
    }
    const char *launch = g_ptr_array_index(f, (guint)h->key[COL_LAUNCH]);
    guint64 l;
    if (!g_ascii_string_to_unsigned(launch, 10, 0, G_MAXUINT32 - 1, &l, NULL)) {
        err_at(errors, r->path, line, "launch '%s' is not a launch index (0, 1, ...)", launch);
        good = false;
    }
    row->launch = (unsigned)l;
    const char *kernel = g_ptr_array_index(f, (guint)h->key[COL_KERNEL]);
    if (!*kernel) {
        err_at(errors, r->path, line, "the kernel field is empty");
        good = false;
    }
    row->kernel = g_strdup(kernel);
    for (int m = 0; m < CM_COUNT; m++) {
        if (h->metric[m] < 0)
            continue;
        const char *v = g_ptr_array_index(f, (guint)h->metric[m]);
        if (!*v) /* the reference lacks it */
            continue;
        if (!parse_value(v, corr_metrics[m].kind, &row->ref[m])) {
            err_at(errors, r->path, line, "%s: '%s' is not a number%s", corr_metrics[m].name, v,
                   corr_metrics[m].kind == CK_RATE ? " in [0, 1]" : " >= 0");
            good = false;
        }
        row->has_ref[m] = true;
    }
    if (!good)
        g_free(row->kernel);
    return good;
}

corr_ref *corr_ref_read(const char *path, GPtrArray *errors)
{
    guint before = errors->len;
    char *text;
    GError *err = NULL;
    if (!g_file_get_contents(path, &text, NULL, &err)) {
        g_ptr_array_add(errors, g_strdup(err->message));
        g_error_free(err);
        return NULL;
    }
    corr_ref *r = g_new0(corr_ref, 1);
    r->path = g_strdup(path);
    r->meta = g_ptr_array_new_with_free_func(g_free);
    r->rows = g_array_new(FALSE, TRUE, sizeof(corr_row));
    char **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    header h;
    bool have_header = false;
    for (unsigned i = 0; lines[i]; i++) {
        unsigned line = i + 1;
        char *s = g_strstrip(lines[i]); /* also drops a '\r' */
        if (!*s)
            continue;
        if (*s == '#') {
            read_meta(r, s + 1, line, errors);
            continue;
        }
        bool bad_quote;
        GPtrArray *f = split_fields(s, &bad_quote);
        if (bad_quote) {
            err_at(errors, path, line, "unbalanced quotes");
        } else if (!have_header) {
            have_header = true;
            if (!read_header(r, f, line, &h, errors)) {
                g_ptr_array_unref(f);
                break; /* the rows cannot be read without it */
            }
        } else {
            corr_row row;
            if (read_row(r, &h, f, line, &row, errors))
                g_array_append_val(r->rows, row);
        }
        g_ptr_array_unref(f);
    }
    g_strfreev(lines);
    if (!have_header)
        err_at(errors, path, 0, "no header line (benchmark,size,launch,kernel,METRIC...)");
    else if (errors->len == before && r->rows->len == 0)
        err_at(errors, path, 0, "no kernel launches: the file has a header but no rows");
    for (guint i = 0; i < r->rows->len; i++) {
        const corr_row *a = &g_array_index(r->rows, corr_row, i);
        for (guint j = 0; j < i; j++) {
            const corr_row *b = &g_array_index(r->rows, corr_row, j);
            if (a->bench == b->bench && a->size == b->size && a->launch == b->launch) {
                err_at(errors, path, a->line, "%s %s launch %u again (first on line %u)",
                       a->bench->name, corr_size_name(a->size), a->launch, b->line);
                break;
            }
        }
    }
    if (errors->len != before) {
        corr_ref_free(r);
        return NULL;
    }
    return r;
}

void corr_ref_free(corr_ref *r)
{
    if (!r)
        return;
    for (guint i = 0; i < r->rows->len; i++)
        g_free(g_array_index(r->rows, corr_row, i).kernel);
    g_array_free(r->rows, TRUE);
    g_ptr_array_free(r->meta, TRUE);
    g_free(r->path);
    g_free(r);
}
