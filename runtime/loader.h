/* runtime/loader.h — loading a parsed module into decoded functions
 * (runtime/loader.c). */
#ifndef PTXEMU_RUNTIME_LOADER_H
#define PTXEMU_RUNTIME_LOADER_H

#include "runtime/exec.h"
#include "frontend/phase.h"

/* Decodes `ir`; instructions without semantics are described (with their
 * location) in `unsupported`, and get no handler. */
ex_module *ex_module_load_ex(const ptx_module *ir, dev_memory *mem,
                             GPtrArray *unsupported, GError **err);
void ex_module_free(ex_module *m);
/* The most static shared memory a module may declare (the largest of any
 * GPU: 228 KiB, the parser's limit of one variable, frontend/ir.h); a
 * timing config checks its own core.shared_mem too. */
#define EX_SHARED_MAX PTX_SHARED_MAX
/* false (with the location of the first .shared variable that does not
 * fit) when the module's static shared memory exceeds `limit` bytes. */
bool ex_module_check_shared(const ex_module *m, uint64_t limit, const char *what,
                            GError **err);
/* The annotations of ef's instructions with phases measured in the
 * latencies of `lat` (a GPU config's table; NULL: the default table) and
 * the rule options `opts` (NULL: the defaults, frontend/phase.h), one
 * more entry than instructions; free with g_free. */
ex_annot *ex_func_annotate(const ex_func *ef, const ptx_latency_table *lat,
                           const ptx_phase_opts *opts);

#endif
