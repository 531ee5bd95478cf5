/* frontend/print.h — PTX text from the IR (ptxemu dump, error messages). */
#ifndef PTXEMU_FRONTEND_PRINT_H
#define PTXEMU_FRONTEND_PRINT_H

#include "frontend/ir.h"

#include <glib.h>

void ptx_print_module(GString *out, const ptx_module *m);
void ptx_print_func(GString *out, const ptx_module *m, const ptx_func *f);
void ptx_print_var(GString *out, const ptx_module *m, const ptx_var *v);
void ptx_print_instr(GString *out, const ptx_module *m, const ptx_func *f,
                     const ptx_instr *in);
void ptx_print_operand(GString *out, const ptx_module *m, const ptx_func *f,
                       const ptx_operand *op);

#endif
