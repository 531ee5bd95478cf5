/* tools/run_args.h — `ptxemu run --arg SPEC`: parsing a kernel argument
 * strictly, checking it against the kernel parameter it is passed to, and
 * building the buffer contents once device memory for it exists. */
#ifndef PTXEMU_TOOLS_RUN_ARGS_H
#define PTXEMU_TOOLS_RUN_ARGS_H

#include "api/ptxemu.h"
#include "frontend/ir.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum run_arg_kind {
    RUN_ARG_SCALAR, RUN_ARG_FILE, RUN_ARG_ZEROS, RUN_ARG_IOTA, RUN_ARG_RAND,
} run_arg_kind;

typedef struct run_arg {
    run_arg_kind kind;
    ptx_type type;          /* scalar type, or element type of iota/rand */
    bool negative;          /* scalar integer written with a '-' */
    uint64_t mag;           /* scalar integer: its magnitude */
    uint64_t scalar;        /* scalar: value bits (integers: the value) */
    unsigned scalar_size;
    uint64_t count, seed;   /* iota/rand */
    uint64_t bytes;         /* buffers */
    char *path;             /* file: */
    ptxemu_dptr dptr;
    guint8 *host;           /* buffer contents once materialised */
} run_arg;

/* Parses SPEC (u32:5, f32:1.5, b32:0x3fc00000, file:PATH, zeros:BYTES,
 * iota:TYPE:COUNT, rand:TYPE:COUNT:SEED).  Numbers must be whole (no
 * trailing text), in range for their type and, for sizes, positive;
 * nothing is allocated.  False with the reason in `why`. */
bool run_arg_parse(const char *spec, run_arg *a, GString *why);
/* Checks the argument against kernel parameter `p`: a buffer needs a
 * 64-bit integer (pointer) parameter; a scalar needs the parameter's size
 * and type class (integer or float; a .bN spelling is raw bits and fits
 * any N-bit parameter), and an integer must fit the parameter's type. */
bool run_arg_fits_param(const run_arg *a, const ptx_var *p, GString *why);
/* Reads the file or fills the buffer (host memory, a.bytes long). */
bool run_arg_materialise(run_arg *a, GString *why);
void run_arg_clear(run_arg *a);

#endif
