/* tests/fuzz/fuzz_parser.c — libFuzzer harness for the PTX front end.
 *
 * Any input must either parse, or fail with one "fuzz.ptx:LINE:COL: error:"
 * line; it must never crash, leak or trip a sanitizer.  When it parses, its
 * dump must parse again and dumping that must give the same text (the
 * printer's fixed-point promise).  A broken promise aborts, so libFuzzer
 * saves the input. */
#include "frontend/parser.h"
#include "frontend/print.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail, const char *text)
{
    fprintf(stderr, "fuzz_parser: %s: %s\n", what, detail);
    if (text)
        fprintf(stderr, "---- text ----\n%s\n---- end ----\n", text);
    abort();
}

/* "fuzz.ptx:L:C: error: msg" with L, C >= 1 and no newline. */
static void check_message(const char *msg)
{
    const char *p = msg;
    if (strncmp(p, "fuzz.ptx:", 9) != 0)
        die("error message has no location", msg, NULL);
    p += 9;
    for (int field = 0; field < 2; field++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || *end != ':' || v < 1)
            die("malformed error location", msg, NULL);
        p = end + 1;
    }
    if (strncmp(p, " error: ", 8) != 0 || strchr(msg, '\n'))
        die("malformed error message", msg, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *err = NULL;
    ptx_module *m = ptx_parse_string((const char *)data, size, "fuzz.ptx", &err);
    if (!m) {
        if (!err)
            die("parse failed without an error", "", NULL);
        check_message(err->message);
        g_error_free(err);
        return 0;
    }
    GString *d1 = g_string_new(NULL);
    ptx_print_module(d1, m);
    ptx_module *m2 = ptx_parse_string(d1->str, d1->len, "dump.ptx", &err);
    if (!m2)
        die("the dump of a valid module does not parse", err->message, d1->str);
    GString *d2 = g_string_new(NULL);
    ptx_print_module(d2, m2);
    if (strcmp(d1->str, d2->str) != 0) {
        size_t i = 0;
        while (d1->str[i] == d2->str[i])
            i++;
        char at[160];
        snprintf(at, sizeof at, "byte %zu: '%.60s' vs '%.60s'", i, d1->str + i, d2->str + i);
        die("dump -> parse -> dump is not a fixed point", at, d1->str);
    }
    if (m->funcs->len != m2->funcs->len || m->vars->len != m2->vars->len ||
        m->syms->len != m2->syms->len)
        die("the re-parsed module differs", "function/variable/symbol counts", d1->str);
    for (guint i = 0; i < m->funcs->len; i++) {
        const ptx_func *f = ptx_module_func(m, i), *g = ptx_module_func(m2, i);
        if (f->instrs->len != g->instrs->len || f->operands->len != g->operands->len ||
            f->regs->len != g->regs->len)
            die("the re-parsed module differs", f->name ? f->name : "?", d1->str);
    }
    g_string_free(d2, TRUE);
    g_string_free(d1, TRUE);
    ptx_module_free(m2);
    ptx_module_free(m);
    return 0;
}
