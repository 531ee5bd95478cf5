/* runtime/printf.c — device-side printf (`vprintf(fmt, args)`) and
 * `__assertfail`.  CUDA packs printf arguments into a buffer, each aligned
 * to its own size; floats arrive promoted to double.  Output goes to the
 * launch's stream, one lane after another in lane order. */
#include "runtime/printf.h"
#include "runtime/warp.h"

#include <stdio.h>
#include <string.h>

/* Reads a NUL-terminated string from device memory (generic address). */
static bool read_cstring(ex_warp *w, uint64_t addr, int lane, GString *out)
{
    for (uint64_t i = 0; i < (1u << 20); i++) {
        uint8_t *p = ex_addr(w, NULL, EX_SPACE_GENERIC, addr + i, 1, lane, false);
        if (!p)
            return false;
        if (*p == '\0')
            return true;
        g_string_append_c(out, (char)*p);
    }
    return true;
}

static bool arg_bytes(ex_warp *w, uint64_t buf, uint64_t *off, unsigned size, int lane,
                      uint64_t *val)
{
    *off = (*off + size - 1) / size * size;
    uint8_t *p = ex_addr(w, NULL, EX_SPACE_GENERIC, buf + *off, size, lane, false);
    if (!p)
        return false;
    *val = 0;
    memcpy(val, p, size);
    *off += size;
    return true;
}

/* Formats one lane's printf into `out`; false after a fault. */
static bool format_lane(ex_warp *w, int lane, const char *fmt, uint64_t buf, GString *out)
{
    uint64_t off = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            g_string_append_c(out, *p);
            continue;
        }
        if (p[1] == '%') {
            g_string_append_c(out, '%');
            p++;
            continue;
        }
        /* collect one conversion: flags, width, precision, length, type */
        const char *start = p++;
        while (*p && strchr("-+ #0", *p))
            p++;
        while (*p && (g_ascii_isdigit(*p) || *p == '.'))
            p++;
        int longs = 0;
        bool half = false;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't')
                longs++;
            if (*p == 'h')
                half = true;
            p++;
        }
        if (!*p)
            break;
        char conv = *p;
        /* a format for the host printf with a 64-bit length in any case */
        char spec[64];
        size_t n = (size_t)(p - start);
        if (n > 40)
            n = 40;
        GString *f = g_string_new_len(start, (gssize)n);
        for (gsize i = f->len; i-- > 1;)
            if (strchr("hlLqjzt", f->str[i]))
                g_string_erase(f, (gssize)i, 1);
        uint64_t v = 0;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
            unsigned size = longs ? 8 : 4;
            if (!arg_bytes(w, buf, &off, size, lane, &v)) {
                g_string_free(f, TRUE);
                return false;
            }
            if (conv == 'c') {
                g_snprintf(spec, sizeof spec, "%sc", f->str);
                g_string_append_printf(out, spec, (int)(char)v);
                break;
            }
            g_snprintf(spec, sizeof spec, "%sll%c", f->str, conv);
            if (conv == 'd' || conv == 'i') {
                long long s = size == 8 ? (long long)v : (long long)(int32_t)v;
                if (half)
                    s = (short)s;
                g_string_append_printf(out, spec, s);
            } else {
                unsigned long long u = size == 8 ? v : (uint32_t)v;
                if (half)
                    u = (unsigned short)u;
                g_string_append_printf(out, spec, u);
            }
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            if (!arg_bytes(w, buf, &off, 8, lane, &v)) {
                g_string_free(f, TRUE);
                return false;
            }
            double dv;
            memcpy(&dv, &v, 8);
            g_snprintf(spec, sizeof spec, "%s%c", f->str, conv);
            g_string_append_printf(out, spec, dv);
            break;
        }
        case 's': {
            if (!arg_bytes(w, buf, &off, 8, lane, &v)) {
                g_string_free(f, TRUE);
                return false;
            }
            GString *s = g_string_new(NULL);
            bool ok = v == 0 ? (g_string_assign(s, "(null)"), true) : read_cstring(w, v, lane, s);
            if (ok) {
                g_snprintf(spec, sizeof spec, "%ss", f->str);
                g_string_append_printf(out, spec, s->str);
            }
            g_string_free(s, TRUE);
            if (!ok) {
                g_string_free(f, TRUE);
                return false;
            }
            break;
        }
        case 'p': {
            if (!arg_bytes(w, buf, &off, 8, lane, &v)) {
                g_string_free(f, TRUE);
                return false;
            }
            g_string_append_printf(out, "0x%llx", (unsigned long long)v);
            break;
        }
        default:
            /* unknown conversion: printed as written, like CUDA */
            g_string_append_len(out, start, p - start + 1);
            break;
        }
        g_string_free(f, TRUE);
    }
    return true;
}

static uint64_t frame_u64(ex_warp *w, unsigned lane, uint32_t off)
{
    uint64_t v = 0;
    memcpy(&v, w->stack + (gsize)lane * w->stack_cap + w->fp + off, 8);
    return v;
}

static uint64_t arg_value(ex_warp *w, const ex_call *c, unsigned i, unsigned lane)
{
    if (i >= c->nargs)
        return 0;
    if (c->arg_offsets[i] == EX_NONE)
        return w->r[c->arg_sizes[i]][lane];
    return frame_u64(w, lane, c->arg_offsets[i]);
}

void ex_vprintf(ex_warp *w, const ex_call *c, uint32_t mask)
{
    GString *fmt = g_string_new(NULL), *out = g_string_new(NULL);
    FILE *f = w->launch->printf_out ? w->launch->printf_out : stdout;
    EX_LANES(mask, l, {
        g_string_truncate(fmt, 0);
        g_string_truncate(out, 0);
        uint64_t fa = arg_value(w, c, 0, l), buf = arg_value(w, c, 1, l);
        if (!read_cstring(w, fa, (int)l, fmt) || !format_lane(w, (int)l, fmt->str, buf, out))
            break;
        fwrite(out->str, 1, out->len, f);
        /* vprintf returns the number of arguments; callers ignore it */
        if (c->nrets > 0 && c->ret_offsets[0] != EX_NONE) {
            uint32_t r = 0;
            memcpy(w->stack + (gsize)l * w->stack_cap + w->fp + c->ret_offsets[0], &r, 4);
        }
    });
    g_string_free(fmt, TRUE);
    g_string_free(out, TRUE);
}

void ex_assertfail(ex_warp *w, const ex_call *c, uint32_t mask)
{
    unsigned l = (unsigned)__builtin_ctz(mask);
    GString *msg = g_string_new(NULL), *file = g_string_new(NULL), *fn = g_string_new(NULL);
    read_cstring(w, arg_value(w, c, 0, l), (int)l, msg);
    read_cstring(w, arg_value(w, c, 1, l), (int)l, file);
    read_cstring(w, arg_value(w, c, 3, l), (int)l, fn);
    uint32_t line = (uint32_t)arg_value(w, c, 2, l);
    if (w->state == WARP_RUNNING)
        ex_fault(w, (int)l, "device assertion `%s' failed in %s at %s:%u", msg->str, fn->str,
                 file->str, line);
    g_string_free(msg, TRUE);
    g_string_free(file, TRUE);
    g_string_free(fn, TRUE);
}
