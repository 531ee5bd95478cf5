/* timing/config_internal.h — the value formatting config.c borrows from config_write.c. */
#ifndef PTXEMU_TIMING_CONFIG_INTERNAL_H
#define PTXEMU_TIMING_CONFIG_INTERNAL_H

#include "timing/config.h"

#include <glib.h>
#include <stdint.h>

/* A byte count with the largest unit that divides it (4MB, 48KB, 100). */
void gpu_config_append_size(GString *s, uint64_t v);
/* What the key accepts, for error messages and the reference. */
void gpu_config_append_valid(GString *s, const gpu_config_key *k);

#endif
