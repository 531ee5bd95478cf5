/* timing/config_write.c — configs written back out and the Markdown key reference. */
#include "timing/config_internal.h"

#include <string.h>

/* ------------------------------------------------------------ group docs */

typedef struct group_doc {
    const char *name, *doc;
} group_doc;

static const group_doc group_docs[] = {
    {"gpu", "Chip organisation. SMs are grouped into clusters; each cluster "
            "has one NoC injection port (and one ICC unit when icc.mode is "
            "not off)."},
    {"clock", "Clock domains in MHz. A latency is counted in the clock of "
              "the unit that owns it."},
    {"core", "Per-SM resources (they bound how many CTAs fit on an SM) and "
             "the issue stage."},
    {"units", "Functional-unit lanes per SM. A warp instruction occupies its "
              "unit for warp_size / (lanes per scheduler) cycles, and at "
              "least the initiation interval of its class."},
    {"latency", "Issue-to-result latency per instruction class, one key per "
                "class of isa/latency.h (int_* integer, fp_* single and dp_* "
                "double precision, sfu the transcendental functions). Memory, "
                "control and barrier classes cost their issue latency here; "
                "the memory system adds the rest. Defaults come from "
                "isa/latency.h (Fermi class)."},
    {"initiation", "Initiation interval per instruction class: cycles before "
                   "the unit takes the next warp instruction of that class. "
                   "No seed gives these: the defaults are 8 for the classes "
                   "with a latency of 32 cycles or more (the divides) and 1 "
                   "otherwise."},
    {"l1d", "L1 data cache per SM (global and local accesses)."},
    {"l1i", "Instruction cache per SM (off by default); its misses are read "
            "from the L2 like data."},
    {"l2", "Unified L2 cache, one partition per memory controller."},
    {"const_cache", "Constant cache per SM."},
    {"tex_cache", "Texture cache per SM (CLASO Table 1 lists it; compute "
                  "kernels rarely use it)."},
    {"noc", "Crossbar between the cluster ports and the memory partitions, "
            "clocked by clock.icnt. Each cluster has exactly one injection "
            "port and each memory partition one."},
    {"dram", "GDDR DRAM: one channel per memory partition with its own "
             "memory scheduler. Timings are in DRAM clock cycles."},
    {"icc", "Intra-cluster coalescing (ICC seed section 6): per cluster, a "
            "merge table coalesces L1 misses of the cluster's SMs to a line "
            "already outstanding, and the coalesced cache keeps returned "
            "lines that had more than one requester."},
    {"energy", "Energy model: static power per active SM and dynamic energy "
               "per event. No seed publishes coefficients: the dynamic "
               "defaults are derived from published per-operation energies "
               "([H] Horowitz, ISSCC 2014, 45 nm; [K] Keckler et al., the "
               "DARPA exascale study's figures), the static ones are "
               "placeholders; docs/energy.md gives each derivation. Compare "
               "normalised values only (ONAC, ICC)."},
    {"warp", "Warp scheduler (ordering policy) of every SM scheduler."},
    {"phase", "The phase pass's reading of the thesis (frontend/phase.h): what the phase-aware "
              "policies (pa, pa-tl) see; docs/experiments/phases-table33.md compares the readings."},
    {"spin", "Spin detection and warp backoff (the backoff level)."},
    {"fetch", "Fetch-stage policy: which waiting warp gets its instruction "
              "buffer refilled next."},
    {"cta", "CTA scheduling: one placement policy followed by a chain of "
            "admission filters; every filter sees every request."},
    {"kernel", "Kernel-level scheduling: the concurrent-kernel policy."},
    {"stats", "Statistics sampling."},
    {"limits", "Bounds on a run, for functional runs too: the device memory "
               "(allocations and module variables), and when a launch that "
               "never ends is stopped, with the location of its loop. "
               "`ptxemu run --max-warp-instructions/--max-cycles` override the "
               "last two; `ptxemu bench` raises both to 1e11 unless given. See "
               "docs/errors.md."},
    {"cdp", "Dynamic parallelism (device-side launches, docs/cdp.md): the "
            "device runtime's nesting and pending-launch limits (CUDA's defaults; "
            "functional runs honour them too) and, for the timing model, how a "
            "device launch reaches the GPU: as a kernel through the KMU (cdp) or "
            "as a TB group appended to its parent's kernel (dtbl)."},
    {"check", "Checks of the program's behaviour in functional runs (off by "
              "default; results and statistics do not change)."},
    {"sample", "Sampled simulation (docs/sampling.md): a launch runs in detail "
               "until its IPC over the last K windows is stable, then the CTAs "
               "not yet placed run functionally and its remaining cycles are "
               "projected from the measured rate, with an error estimate. "
               "Memory is always exactly that of the functional run; the "
               "statistics' cycles and IPC become projections (marked)."},
    {"sim", "How the simulator runs (not what it models): no setting here "
            "changes a result or a statistic."},
};

/* A built-in group's description, else the summary of the policy whose
 * own keys the section holds. */
static const char *group_doc_of(const char *group)
{
    for (size_t i = 0; i < G_N_ELEMENTS(group_docs); i++)
        if (strcmp(group_docs[i].name, group) == 0)
            return group_docs[i].doc;
    const sched_policy *p = sched_find_any(group);
    return p ? p->hooks->summary : "";
}

static const void *cfield(const gpu_config *c, const gpu_config_key *k)
{
    return (const char *)c + k->offset;
}

/* ------------------------------------------------------------ formatting */

void gpu_config_append_size(GString *s, uint64_t v)
{
    static const char *const units[] = {"GB", "MB", "KB"};
    static const uint64_t mult[] = {1ull << 30, 1ull << 20, 1ull << 10};
    for (unsigned i = 0; i < 3; i++)
        if (v >= mult[i] && v % mult[i] == 0) {
            g_string_append_printf(s, "%" G_GUINT64_FORMAT "%s", v / mult[i],
                                   units[i]);
            return;
        }
    g_string_append_printf(s, "%" G_GUINT64_FORMAT, v);
}

/* Shortest text that reads back as exactly d. */
static void append_double(GString *s, double d)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    static const char *const fmts[] = {"%.15g", "%.16g", "%.17g"};
    for (unsigned i = 0; i < 3; i++) {
        g_ascii_formatd(buf, sizeof buf, fmts[i], d);
        if (g_ascii_strtod(buf, NULL) == d)
            break;
    }
    g_string_append(s, buf);
}

static void append_choices(GString *s, const char *const *names)
{
    for (unsigned i = 0; names[i]; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", names[i]);
}

/* The value of key k in c as an INI file spells it. */
static void append_value(GString *s, const gpu_config *c, const gpu_config_key *k)
{
    const void *p = cfield(c, k);
    switch (k->kind) {
    case GPU_KIND_U32: g_string_append_printf(s, "%u", *(const uint32_t *)p); break;
    case GPU_KIND_SIZE: gpu_config_append_size(s, *(const uint64_t *)p); break;
    case GPU_KIND_DBL: append_double(s, *(const double *)p); break;
    case GPU_KIND_BOOL: g_string_append(s, *(const bool *)p ? "true" : "false"); break;
    case GPU_KIND_ENUM:
        g_string_append(s, gpu_config_choice_name(k->names, *(const int32_t *)p));
        break;
    case GPU_KIND_LIST: {
        const gpu_name_list *l = p;
        if (l->count == 0)
            g_string_append(s, "none");
        for (unsigned i = 0; i < l->count; i++)
            g_string_append_printf(s, "%s%s", i ? "," : "",
                                   gpu_config_choice_name(k->names, l->items[i]));
        break;
    }
    case GPU_KIND_STR: g_string_append(s, (const char *)p); break;
    }
}

static void append_bound(GString *s, const gpu_config_key *k, double v)
{
    if (k->kind == GPU_KIND_SIZE)
        gpu_config_append_size(s, (uint64_t)v);
    else if (k->kind == GPU_KIND_DBL)
        append_double(s, v);
    else
        g_string_append_printf(s, "%.0f", v);
}

/* What the key accepts, for error messages and the reference. */
void gpu_config_append_valid(GString *s, const gpu_config_key *k)
{
    switch (k->kind) {
    case GPU_KIND_U32: case GPU_KIND_SIZE: case GPU_KIND_DBL:
        if (k->min == k->max) {
            append_bound(s, k, k->min);
            break;
        }
        if (k->flags & GPU_KEY_POW2)
            g_string_append(s, "a power of two from ");
        append_bound(s, k, k->min);
        g_string_append(s, " to ");
        append_bound(s, k, k->max);
        break;
    case GPU_KIND_BOOL: g_string_append(s, "true, false"); break;
    case GPU_KIND_ENUM: append_choices(s, k->names); break;
    case GPU_KIND_LIST:
        g_string_append(s, "a comma list of ");
        append_choices(s, k->names);
        g_string_append(s, " (or none)");
        break;
    case GPU_KIND_STR:
        g_string_append_printf(s, "text of at most %d bytes", GPU_CONFIG_STR_LEN - 1);
        break;
    }
}

/* ------------------------------------------------------------ writing */

char *gpu_config_get_string(const gpu_config *cfg, const char *group_key)
{
    const char *dot = strchr(group_key, '.');
    if (!dot)
        return NULL;
    char *group = g_strndup(group_key, (size_t)(dot - group_key));
    const gpu_config_key *k = gpu_config_find_key(group, dot + 1);
    g_free(group);
    if (!k)
        return NULL;
    GString *s = g_string_new(NULL);
    append_value(s, cfg, k);
    return g_string_free(s, FALSE);
}

GKeyFile *gpu_config_to_keyfile(const gpu_config *cfg, bool comments)
{
    GKeyFile *kf = g_key_file_new();
    const char *last = NULL;
    size_t n_keys;
    const gpu_config_key *keys = gpu_config_keys(&n_keys);
    for (size_t i = 0; i < n_keys; i++) {
        const gpu_config_key *k = &keys[i];
        GString *v = g_string_new(NULL);
        append_value(v, cfg, k);
        if (k->kind == GPU_KIND_STR)
            g_key_file_set_string(kf, k->group, k->name, v->str);
        else
            g_key_file_set_value(kf, k->group, k->name, v->str);
        if (comments) {
            GString *c = g_string_new(" ");
            g_string_append(c, k->doc);
            g_string_append(c, " [");
            if (k->unit[0])
                g_string_append_printf(c, "%s; ", k->unit);
            gpu_config_append_valid(c, k);
            g_string_append(c, "]");
            g_key_file_set_comment(kf, k->group, k->name, c->str, NULL);
            g_string_free(c, TRUE);
            if (!last || strcmp(last, k->group) != 0) {
                char *gc = g_strconcat(" ", group_doc_of(k->group), NULL);
                g_key_file_set_comment(kf, k->group, NULL, gc, NULL);
                g_free(gc);
            }
        }
        last = k->group;
        g_string_free(v, TRUE);
    }
    return kf;
}

char *gpu_config_to_data(const gpu_config *cfg, bool comments, gsize *len)
{
    GKeyFile *kf = gpu_config_to_keyfile(cfg, comments);
    char *data = g_key_file_to_data(kf, len, NULL);
    g_key_file_free(kf);
    return data;
}

bool gpu_config_equal(const gpu_config *a, const gpu_config *b)
{
    size_t n_keys;
    const gpu_config_key *keys = gpu_config_keys(&n_keys);
    for (size_t i = 0; i < n_keys; i++) {
        const gpu_config_key *k = &keys[i];
        const void *p = cfield(a, k), *q = cfield(b, k);
        bool same = true;
        switch (k->kind) {
        case GPU_KIND_U32: same = *(const uint32_t *)p == *(const uint32_t *)q; break;
        case GPU_KIND_SIZE: same = *(const uint64_t *)p == *(const uint64_t *)q; break;
        case GPU_KIND_DBL: same = *(const double *)p == *(const double *)q; break;
        case GPU_KIND_BOOL: same = *(const bool *)p == *(const bool *)q; break;
        case GPU_KIND_ENUM: same = *(const int32_t *)p == *(const int32_t *)q; break;
        case GPU_KIND_LIST: {
            const gpu_name_list *x = p, *y = q;
            same = x->count == y->count &&
                   memcmp(x->items, y->items, x->count) == 0;
            break;
        }
        case GPU_KIND_STR: same = strcmp(p, q) == 0; break;
        }
        if (!same)
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ reference */

char *gpu_config_docs_markdown(void)
{
    gpu_config def;
    gpu_config_defaults(&def);
    GString *s = g_string_new(NULL);
    const char *last = NULL;
    size_t n_keys;
    const gpu_config_key *keys = gpu_config_keys(&n_keys);
    for (size_t i = 0; i < n_keys; i++) {
        const gpu_config_key *k = &keys[i];
        if (!last || strcmp(last, k->group) != 0) {
            g_string_append_printf(s, "%s### [%s]\n\n%s\n\n", last ? "\n" : "",
                                   k->group, group_doc_of(k->group));
            g_string_append(s, "| key | unit | default | valid values | meaning |\n"
                               "|---|---|---|---|---|\n");
            last = k->group;
        }
        g_string_append_printf(s, "| `%s.%s` | %s | `", k->group, k->name,
                               k->unit[0] ? k->unit : "-");
        append_value(s, &def, k);
        g_string_append(s, "` | ");
        gpu_config_append_valid(s, k);
        g_string_append_printf(s, " | %s |\n", k->doc);
    }
    return g_string_free(s, FALSE);
}

void gpu_config_print_docs(FILE *out)
{
    char *d = gpu_config_docs_markdown();
    fputs(d, out);
    g_free(d);
}
