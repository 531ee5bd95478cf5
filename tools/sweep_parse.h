/* tools/sweep_parse.h — what the two halves of the experiment-file reader
 * share (tools/sweep_spec.c reads and checks, tools/sweep_variants.c
 * expands the overrides): the parse context, errors with file and line,
 * and value getters.  Private to those two files. */
#ifndef PTXEMU_TOOLS_SWEEP_PARSE_H
#define PTXEMU_TOOLS_SWEEP_PARSE_H

#include "tools/sweep.h"

#include <glib.h>
#include <stdbool.h>

/* At most this many values in one range, and variants in one experiment:
 * beyond them an experiment is a typo (1..999999999), not a sweep. */
#define SWEEP_MAX_RANGE 10000
#define SWEEP_MAX_VARIANTS 100000

typedef struct parse_ctx {
    const char *path;
    const char *text;
    GKeyFile *kf;
    GError **error;
} parse_ctx;

/* Sets *p->error to "FILE:LINE: [group] key: message" (the line of the key,
 * or of the group when key is NULL); returns false. */
G_GNUC_PRINTF(4, 5)
bool sweep_perr(parse_ctx *p, const char *group, const char *key, const char *fmt, ...);
/* A comma list (trimmed, empty items dropped), or NULL when absent. */
char **sweep_get_list(parse_ctx *p, const char *group, const char *key);
/* A trimmed value, or NULL when absent. */
char *sweep_get_str(parse_ctx *p, const char *group, const char *key);

/* tools/sweep_variants.c */
GPtrArray *sweep_override_combos(parse_ctx *p, sweep_spec *s);
GPtrArray *sweep_with_variants(parse_ctx *p, sweep_spec *s, GPtrArray *combos);
const char *sweep_variant_setting(parse_ctx *p, const char *kv);
const char *sweep_combo_config(char **sets);
char **sweep_combo_sets(char **sets);

#endif
