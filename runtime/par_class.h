/* runtime/par_class.h — may a kernel's CTAs run on several host threads
 * (runtime/par_class.c). */
#ifndef PTXEMU_RUNTIME_PAR_CLASS_H
#define PTXEMU_RUNTIME_PAR_CLASS_H

#include "runtime/exec.h"

/* Sets serial_why of every kernel of the module (called by the loader). */
void ex_module_classify(ex_module *m);
/* Why a launch of L's kernel runs its CTAs on one thread (NULL: it may run
 * them in parallel). */
const char *ex_launch_serial_why(const ex_launch *L);

#endif
