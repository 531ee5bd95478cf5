/* tools/cmd_phases.c — `ptxemu phases`: the phase annotation of every
 * function (phase id and distance per instruction, phase lengths), the
 * setp-spin candidates, and the per-kernel summary of thesis Tables 3.2/3.3.
 * `--json` emits the same data (format: docs/phases-json.md). */
#include "frontend/cfg.h"
#include "frontend/parser.h"
#include "frontend/phase.h"
#include "frontend/print.h"
#include "frontend/spin.h"
#include "isa/latency.h"
#include "timing/config.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>

/* One analysed function. */
typedef struct fn_result {
    const ptx_func *f;
    ptx_cfg *cfg;
    ptx_phase_info *pi;
    ptx_spin_info *si;
    const char **label_at; /* per instruction: label defined there, or NULL */
} fn_result;

static const char **labels_by_instr(const ptx_module *m, const ptx_func *f)
{
    const char **at = g_new0(const char *, f->instrs->len + 1);
    for (guint k = 0; k < f->labels->len; k++) {
        const ptx_symbol *s = ptx_module_sym(m, g_array_index(f->labels, int32_t, k));
        if (s->kind == PTX_SYM_LABEL && s->index >= 0 &&
            (guint)s->index <= f->instrs->len && !at[s->index])
            at[s->index] = s->name;
    }
    return at;
}

static const char *block_name(const fn_result *r, uint32_t b, char *buf, size_t len)
{
    if (b >= r->cfg->nblocks)
        return "exit";
    const char *l = r->label_at[r->cfg->blocks[b].first];
    if (l)
        return l;
    snprintf(buf, len, "block %u", b);
    return buf;
}

static void instr_text(GString *out, const ptx_module *m, const ptx_func *f, uint32_t i)
{
    ptx_print_instr(out, m, f, ptx_func_instr(f, i));
}

/* ---------------------------------------------------------------- text */

static void text_phase_header(GString *o, const ptx_module *m, const fn_result *r,
                              uint32_t p)
{
    const ptx_phase *ph = &r->pi->phases[p];
    g_string_append_printf(o, "      // phase %u: length %u cycles, %u instruction%s, block %u, ",
                           p, ph->length, ph->end - ph->first,
                           ph->end - ph->first == 1 ? "" : "s", ph->block);
    if (ph->start == PTX_PHASE_START_BLOCK) {
        g_string_append(o, "starts the block");
    } else {
        char rb[64];
        ptx_reg_name(r->f, (uint32_t)ph->trigger_reg, rb, sizeof rb);
        g_string_append_printf(o, "reads %s of the ", rb);
        g_string_append(o, ptx_opcode_info((ptx_opcode)ptx_func_instr(r->f, ph->trigger_src)->op)->name);
        g_string_append_printf(o, " at line %u", ptx_func_instr(r->f, ph->trigger_src)->loc.line);
    }
    if (ph->next != PTX_PHASE_NONE)
        g_string_append_printf(o, "; next phase %u (%u cycles)", ph->next,
                               r->pi->phases[ph->next].length);
    g_string_append_c(o, '\n');
    (void)m;
}

static void text_function(GString *o, const ptx_module *m, const fn_result *r)
{
    const ptx_func *f = r->f;
    const ptx_phase_info *pi = r->pi;
    g_string_append_printf(o, "%s %s: %u instructions, %u blocks, %u loops, %u phases, "
                              "%u long-latency instructions, %u spin candidates\n",
                           f->is_entry ? ".entry" : ".func", f->name, pi->ninstrs,
                           r->cfg->nblocks, r->cfg->loops->len, pi->nphases, pi->nlong,
                           r->si->cands->len);
    g_string_append(o, "      //  phase  dist  lat  next  L=long-latency S=spin candidate\n");
    for (uint32_t i = 0; i < pi->ninstrs; i++) {
        if (r->label_at[i])
            g_string_append_printf(o, "%s:\n", r->label_at[i]);
        uint32_t p = pi->phase_of[i];
        if (p != PTX_PHASE_NONE && pi->phases[p].first == i)
            text_phase_header(o, m, r, p);
        g_string_append_printf(o, "  %5u  p%-4u %5u %4u %5u %c%c  ", i, p, pi->distance[i],
                               pi->latency[i], pi->next_length[i], pi->is_long[i] ? 'L' : ' ',
                               r->si->is_candidate[i] ? 'S' : ' ');
        instr_text(o, m, f, i);
        if (r->si->is_candidate[i]) {
            const ptx_spin_cand *c =
                &g_array_index(r->si->cands, ptx_spin_cand, r->si->cand_of[i]);
            g_string_append_printf(o, "  // spin candidate (%s)", ptx_spin_role_name(c->role));
        }
        g_string_append_c(o, '\n');
    }
    if (r->label_at[pi->ninstrs])
        g_string_append_printf(o, "%s:\n", r->label_at[pi->ninstrs]);

    char b1[64];
    for (guint k = 0; k < r->cfg->loops->len; k++) {
        const ptx_loop *l = &g_array_index(r->cfg->loops, ptx_loop, k);
        const ptx_spin_loop *sl = &g_array_index(r->si->loops, ptx_spin_loop, k);
        g_string_append_printf(o, "  loop %u: header %s, depth %u, back edges from", k,
                               block_name(r, l->header, b1, sizeof b1), l->depth);
        for (guint j = 0; j < l->latches->len; j++)
            g_string_append_printf(o, " %s", block_name(r, g_array_index(l->latches, uint32_t, j),
                                                        b1, sizeof b1));
        g_string_append(o, ", exits to");
        for (guint j = 0; j < l->exits->len; j++)
            g_string_append_printf(o, " %s", block_name(r, g_array_index(l->exits, uint32_t, j),
                                                        b1, sizeof b1));
        if (!l->exits->len)
            g_string_append(o, " nothing");
        g_string_append(o, "; communication:");
        if (!sl->mem)
            g_string_append(o, " none");
        for (unsigned b = 0; b < PTX_SPIN_MEM_KINDS; b++)
            if (sl->mem & (1u << b))
                g_string_append_printf(o, " %s (line %u)", ptx_spin_mem_name(1u << b),
                                       ptx_func_instr(r->f, sl->mem_instr[b])->loc.line);
        g_string_append_printf(o, "; %u spin candidate%s\n", sl->ncands,
                               sl->ncands == 1 ? "" : "s");
    }
    for (guint k = 0; k < r->si->cands->len; k++) {
        const ptx_spin_cand *c = &g_array_index(r->si->cands, ptx_spin_cand, k);
        g_string_append_printf(o, "  spin candidate: line %u  ",
                               ptx_func_instr(f, c->setp)->loc.line);
        instr_text(o, m, f, c->setp);
        g_string_append_printf(o, "\n      loop %u, %s: %s\n", c->loop,
                               ptx_spin_role_name(c->role), c->reason);
    }
}

static void text_summary(GString *o, fn_result *rs, guint n)
{
    g_string_append(o, "summary (columns of thesis Tables 3.2/3.3; lengths in cycles)\n");
    g_string_append_printf(o, "  %-40s %6s %12s %13s %14s %5s\n", "kernel", "kind",
                           "total phases", "longest phase", "shortest phase", "spin");
    for (guint k = 0; k < n; k++) {
        const fn_result *r = &rs[k];
        g_string_append_printf(o, "  %-40s %6s %12u %13u %14u %5u\n", r->f->name,
                               r->f->is_entry ? "entry" : "func", r->pi->nphases,
                               r->pi->longest, r->pi->shortest, r->si->cands->len);
    }
}

/* ---------------------------------------------------------------- JSON */

static void json_str(GString *o, const char *s)
{
    g_string_append_c(o, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': g_string_append(o, "\\\""); break;
        case '\\': g_string_append(o, "\\\\"); break;
        case '\n': g_string_append(o, "\\n"); break;
        case '\t': g_string_append(o, "\\t"); break;
        case '\r': g_string_append(o, "\\r"); break;
        default:
            if (*p < 0x20)
                g_string_append_printf(o, "\\u%04x", *p);
            else
                g_string_append_c(o, (char)*p);
        }
    }
    g_string_append_c(o, '"');
}

static void json_u32_or_null(GString *o, uint32_t v)
{
    if (v == UINT32_MAX)
        g_string_append(o, "null");
    else
        g_string_append_printf(o, "%u", v);
}

static void json_blocks(GString *o, const fn_result *r, const GArray *blocks)
{
    g_string_append_c(o, '[');
    for (guint j = 0; j < blocks->len; j++) {
        uint32_t b = g_array_index(blocks, uint32_t, j);
        if (j)
            g_string_append(o, ", ");
        if (b >= r->cfg->nblocks)
            g_string_append(o, "null");
        else
            g_string_append_printf(o, "%u", b);
    }
    g_string_append_c(o, ']');
}

static void json_function(GString *o, const ptx_module *m, const fn_result *r)
{
    const ptx_func *f = r->f;
    const ptx_phase_info *pi = r->pi;
    GString *t = g_string_new(NULL);
    g_string_append(o, "    {\n      \"name\": ");
    json_str(o, f->name);
    g_string_append_printf(o, ",\n      \"kind\": \"%s\",\n", f->is_entry ? "entry" : "func");
    g_string_append_printf(o, "      \"instructions\": %u,\n      \"blocks\": %u,\n", pi->ninstrs,
                           r->cfg->nblocks);
    g_string_append_printf(o, "      \"summary\": {\"total_phases\": %u, \"longest_phase\": %u, "
                              "\"shortest_phase\": %u, \"long_latency_instructions\": %u, "
                              "\"spin_candidates\": %u},\n",
                           pi->nphases, pi->longest, pi->shortest, pi->nlong,
                           r->si->cands->len);
    g_string_append(o, "      \"phases\": [");
    for (uint32_t p = 0; p < pi->nphases; p++) {
        const ptx_phase *ph = &pi->phases[p];
        g_string_append_printf(o, "%s\n        {\"id\": %u, \"block\": %u, \"first\": %u, "
                                  "\"last\": %u, \"length\": %u, \"next\": ",
                               p ? "," : "", p, ph->block, ph->first, ph->end - 1, ph->length);
        json_u32_or_null(o, ph->next);
        g_string_append(o, ", \"start\": ");
        if (ph->start == PTX_PHASE_START_BLOCK) {
            g_string_append(o, "\"block\"}");
        } else {
            char rb[64];
            g_string_append_printf(o, "\"long-op\", \"trigger_reg\": ");
            json_str(o, ptx_reg_name(f, (uint32_t)ph->trigger_reg, rb, sizeof rb));
            g_string_append_printf(o, ", \"trigger_instr\": %u}", ph->trigger_src);
        }
    }
    g_string_append(o, "\n      ],\n      \"instrs\": [");
    for (uint32_t i = 0; i < pi->ninstrs; i++) {
        const ptx_instr *in = ptx_func_instr(f, i);
        g_string_set_size(t, 0);
        instr_text(t, m, f, i);
        g_string_append_printf(o, "%s\n        {\"index\": %u, \"line\": %u, \"label\": ",
                               i ? "," : "", i, in->loc.line);
        if (r->label_at[i])
            json_str(o, r->label_at[i]);
        else
            g_string_append(o, "null");
        g_string_append(o, ", \"text\": ");
        json_str(o, t->str);
        g_string_append(o, ", \"phase\": ");
        json_u32_or_null(o, pi->phase_of[i]);
        g_string_append_printf(o, ", \"distance\": %u, \"latency\": %u, \"next_phase_length\": %u, "
                                  "\"long_latency\": %s, \"spin_candidate\": %s}",
                               pi->distance[i], pi->latency[i], pi->next_length[i],
                               pi->is_long[i] ? "true" : "false",
                               r->si->is_candidate[i] ? "true" : "false");
    }
    g_string_append(o, "\n      ],\n      \"loops\": [");
    for (guint k = 0; k < r->cfg->loops->len; k++) {
        const ptx_loop *l = &g_array_index(r->cfg->loops, ptx_loop, k);
        const ptx_spin_loop *sl = &g_array_index(r->si->loops, ptx_spin_loop, k);
        char b1[64];
        g_string_append_printf(o, "%s\n        {\"id\": %u, \"header\": %u, \"header_label\": ",
                               k ? "," : "", k, l->header);
        json_str(o, block_name(r, l->header, b1, sizeof b1));
        g_string_append_printf(o, ", \"depth\": %u, \"parent\": ", l->depth);
        json_u32_or_null(o, l->parent);
        g_string_append(o, ", \"latches\": ");
        json_blocks(o, r, l->latches);
        g_string_append(o, ", \"exits\": ");
        json_blocks(o, r, l->exits);
        g_string_append(o, ", \"communication\": [");
        bool first = true;
        for (unsigned b = 0; b < PTX_SPIN_MEM_KINDS; b++) {
            if (!(sl->mem & (1u << b)))
                continue;
            g_string_append_printf(o, "%s{\"kind\": \"%s\", \"instr\": %u}", first ? "" : ", ",
                                   ptx_spin_mem_name(1u << b), sl->mem_instr[b]);
            first = false;
        }
        g_string_append_printf(o, "], \"spin_candidates\": %u}", sl->ncands);
    }
    g_string_append(o, "\n      ],\n      \"spin_candidates\": [");
    for (guint k = 0; k < r->si->cands->len; k++) {
        const ptx_spin_cand *c = &g_array_index(r->si->cands, ptx_spin_cand, k);
        const ptx_loop *l = &g_array_index(r->cfg->loops, ptx_loop, c->loop);
        g_string_set_size(t, 0);
        instr_text(t, m, f, c->setp);
        g_string_append_printf(o, "%s\n        {\"setp\": %u, \"line\": %u, \"text\": ",
                               k ? "," : "", c->setp, ptx_func_instr(f, c->setp)->loc.line);
        json_str(o, t->str);
        g_string_append_printf(o, ", \"loop\": %u, \"header\": %u, \"latches\": ", c->loop,
                               l->header);
        json_blocks(o, r, l->latches);
        g_string_append(o, ", \"exits\": ");
        json_blocks(o, r, l->exits);
        g_string_append_printf(o, ", \"role\": \"%s\", \"via\": %u, \"decides\": %u, "
                                  "\"communication\": [",
                               ptx_spin_role_name(c->role), c->via, c->decides);
        bool first = true;
        for (unsigned b = 0; b < PTX_SPIN_MEM_KINDS; b++)
            if (c->mem & (1u << b)) {
                g_string_append_printf(o, "%s\"%s\"", first ? "" : ", ",
                                       ptx_spin_mem_name(1u << b));
                first = false;
            }
        g_string_append(o, "], \"operands\": [");
        first = true;
        for (unsigned b = 0; b < PTX_SPIN_OPND_KINDS; b++)
            if (c->opnds & (1u << b)) {
                g_string_append_printf(o, "%s\"%s\"", first ? "" : ", ",
                                       ptx_spin_opnd_name(1u << b));
                first = false;
            }
        g_string_append(o, "], \"reason\": ");
        json_str(o, c->reason);
        g_string_append_c(o, '}');
    }
    g_string_append(o, "\n      ]\n    }");
    g_string_free(t, TRUE);
}

static void json_latency(GString *o, const ptx_latency_table *lat)
{
    g_string_append(o, "  \"latency_table\": {\"source\": \"built-in (GPGPU-Sim 3.x GTX480/Fermi)\", "
                       "\"cycles\": {");
    for (unsigned c = 0; c < PTX_LAT_COUNT; c++)
        g_string_append_printf(o, "%s\"%s\": %u", c ? ", " : "",
                               ptx_latency_class_name((ptx_lat_class)c), lat->cycles[c]);
    g_string_append(o, "}},\n");
}

/* ------------------------------------------------------------- command */

int cmd_phases(int argc, char **argv)
{
    gchar *kernel = NULL, *config = NULL, *blocks = NULL, *loads = NULL;
    gchar **sets = NULL;
    gboolean json = FALSE, summary = FALSE;
    GOptionEntry entries[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel, "only this kernel or function", "NAME"},
        {"config", 'c', 0, G_OPTION_ARG_STRING, &config,
         "GPU preset (configs/NAME.ini) or INI file whose latencies to use: the numbers "
         "the timing model's schedulers see", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "override one config key (repeatable), e.g. latency.fp_add=6", "GROUP.KEY=VALUE"},
        {"blocks", 0, 0, G_OPTION_ARG_STRING, &blocks,
         "split (default): every basic block starts a phase; linear: only the long-op rule "
         "does, across blocks (docs/experiments/phases-table33.md)", "split|linear"},
        {"loads", 0, 0, G_OPTION_ARG_STRING, &loads,
         "offchip (default): loads/stores of global, local, texture and generic memory are "
         "long; all: of any space", "offchip|all"},
        {"json", 0, 0, G_OPTION_ARG_NONE, &json, "print JSON (docs/phases-json.md)", NULL},
        {"summary", 's', 0, G_OPTION_ARG_NONE, &summary,
         "print only the per-kernel summary table", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("FILE");
    g_option_context_set_summary(ctx, "Print the phases (thesis ch. 3) and setp-spin "
                                      "candidates of each function: phase id, phase distance "
                                      "and latency per instruction, phase lengths in cycles, "
                                      "and the per-kernel total/longest/shortest phase.");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    gboolean ok = g_option_context_parse(ctx, &argc, &argv, &err);
    g_option_context_free(ctx);
    int status = 0;
    if (!ok) {
        fprintf(stderr, "ptxemu: %s\n", err->message);
        g_error_free(err);
        status = 2;
    } else if (argc != 2) {
        fprintf(stderr, "ptxemu phases: expected one input file\n");
        status = 2;
    }
    /* the latencies: a GPU config's (as the timing model uses them) or the
     * default table of isa/latency.h */
    gpu_config gcfg;
    const ptx_latency_table *lat = ptx_latency_default();
    if (!status && (config || sets)) {
        bool good = config ? gpu_config_load_preset(config, &gcfg, &err)
                           : (gpu_config_defaults(&gcfg), true);
        if (good && sets)
            good = gpu_config_apply_overrides(&gcfg, (const char *const *)sets, &err);
        if (!good) {
            fprintf(stderr, "ptxemu phases: %s\n", err->message);
            g_clear_error(&err);
            status = 2;
        }
        lat = &gcfg.latency;
    }
    g_strfreev(sets);
    /* the options: the config's phase.blocks/phase.loads, then the flags */
    ptx_phase_opts popts;
    ptx_phase_opts_init(&popts);
    if (!status && (config || sets)) {
        popts.blocks = (ptx_phase_blocks)gcfg.phase.blocks;
        popts.loads = (ptx_phase_loads)gcfg.phase.loads;
    }
    if (!status && blocks && !ptx_phase_blocks_lookup(blocks, &popts.blocks)) {
        fprintf(stderr, "ptxemu phases: --blocks: '%s' is not split or linear\n", blocks);
        status = 2;
    }
    if (!status && loads && !ptx_phase_loads_lookup(loads, &popts.loads)) {
        fprintf(stderr, "ptxemu phases: --loads: '%s' is not offchip or all\n", loads);
        status = 2;
    }
    g_free(blocks);
    g_free(loads);
    if (status) {
        g_free(kernel);
        g_free(config);
        return status;
    }
    /* the options show only when they differ from the defaults, so default
     * output stays what it was before they existed */
    bool opts_default = popts.blocks == PTX_PHASE_BLOCKS_SPLIT &&
                        popts.loads == PTX_PHASE_LOADS_OFFCHIP;

    ptx_module *m = ptx_parse_file(argv[1], &err);
    if (!m) {
        fprintf(stderr, "%s\n", err->message);
        g_error_free(err);
        g_free(kernel);
        return 1;
    }
    GArray *results = g_array_new(FALSE, TRUE, sizeof(fn_result));
    for (guint k = 0; k < m->funcs->len; k++) {
        const ptx_func *f = ptx_module_func(m, k);
        if (!f->has_body || (kernel && g_strcmp0(f->name, kernel) != 0))
            continue;
        ptx_cfg *cfg = ptx_cfg_build(m, f, &err);
        if (!cfg) {
            fprintf(stderr, "%s\n", err->message);
            g_clear_error(&err);
            status = 1;
            continue;
        }
        fn_result r = {f, cfg, ptx_phase_analyze_opts(cfg, lat, &popts), ptx_spin_analyze(m, cfg),
                       labels_by_instr(m, f)};
        g_array_append_val(results, r);
    }
    if (kernel && !results->len && status == 0) {
        fprintf(stderr, "ptxemu phases: no kernel or function named '%s' in %s\n", kernel,
                argv[1]);
        status = 1;
    }

    fn_result *rs = (fn_result *)(void *)results->data;
    GString *out = g_string_new(NULL);
    if (kernel && !results->len) {
        /* nothing to show: the error above says why */
    } else if (json) {
        g_string_append(out, "{\n  \"format\": \"ptxemu-phases\",\n  \"version\": 1,\n  \"file\": ");
        json_str(out, argv[1]);
        g_string_append(out, ",\n");
        json_latency(out, lat);
        if (!opts_default)
            g_string_append_printf(out, "  \"phase_options\": {\"blocks\": \"%s\", \"loads\": \"%s\"},\n",
                                   ptx_phase_blocks_name(popts.blocks),
                                   ptx_phase_loads_name(popts.loads));
        g_string_append(out, "  \"functions\": [");
        for (guint k = 0; k < results->len; k++) {
            g_string_append(out, k ? ",\n" : "\n");
            if (summary) {
                g_string_append(out, "    {\"name\": ");
                json_str(out, rs[k].f->name);
                g_string_append_printf(out, ", \"kind\": \"%s\", \"summary\": {\"total_phases\": %u, "
                                            "\"longest_phase\": %u, \"shortest_phase\": %u, "
                                            "\"long_latency_instructions\": %u, "
                                            "\"spin_candidates\": %u}}",
                                       rs[k].f->is_entry ? "entry" : "func", rs[k].pi->nphases,
                                       rs[k].pi->longest, rs[k].pi->shortest, rs[k].pi->nlong,
                                       rs[k].si->cands->len);
            } else {
                json_function(out, m, &rs[k]);
            }
        }
        g_string_append(out, "\n  ]\n}\n");
    } else {
        if (!summary) {
            g_string_append_printf(out, "// %s: phases and spin candidates; latencies: built-in "
                                        "GPGPU-Sim 3.x GTX480 (Fermi) table\n", argv[1]);

            for (guint k = 0; k < results->len; k++) {
                g_string_append_c(out, '\n');
                text_function(out, m, &rs[k]);
            }
            g_string_append_c(out, '\n');
        }
        if (!opts_default)
            g_string_append_printf(out, "phase options: blocks=%s loads=%s\n",
                                   ptx_phase_blocks_name(popts.blocks),
                                   ptx_phase_loads_name(popts.loads));
        text_summary(out, rs, results->len);
    }
    fwrite(out->str, 1, out->len, stdout);
    g_string_free(out, TRUE);

    for (guint k = 0; k < results->len; k++) {
        ptx_spin_info_free(rs[k].si);
        ptx_phase_info_free(rs[k].pi);
        ptx_cfg_free(rs[k].cfg);
        g_free(rs[k].label_at);
    }
    g_array_free(results, TRUE);
    ptx_module_free(m);
    g_free(kernel);
    return status;
}
