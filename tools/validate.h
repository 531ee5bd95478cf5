/* tools/validate.h — the parts of `ptxemu validate` its two forms share
 * (benchmarks: tools/cmd_validate.c; run specs: tools/validate_run.c). */
#ifndef PTXEMU_TOOLS_VALIDATE_H
#define PTXEMU_TOOLS_VALIDATE_H

#include <glib.h>
#include <glib/gstdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* "k=v k=v" plus the extra overrides as a NULL-terminated strv. */
char **validate_combo_sets(const char *combo, char **extra);
/* Describes the first difference of two buffers into `why` (left empty
 * when they are identical). */
void validate_describe_diff(const char *name, const guint8 *a, size_t na, const guint8 *b,
                            size_t nb, GString *why);
/* Width of the policies column: the longest combination. */
int validate_width(GPtrArray *combos);
/* The run-spec form: `ptxemu run PTX OPTS...` per combination. */
int validate_run_spec(const char *ptx, char **opts, const char *config, char **extra,
                      GPtrArray *combos);

#endif
