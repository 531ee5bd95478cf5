/* tools/run_args.c — strict parsing and checking of `ptxemu run --arg`
 * specs (see run_args.h). */
#include "tools/run_args.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

/* The most elements or bytes a buffer spec may ask for; device memory
 * (limits.device_memory) bounds it further when it is allocated. */
#define RUN_ARG_MAX_BYTES (1ull << 40)

/* A whole unsigned number: decimal or 0x hex, no sign, no trailing text. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!g_ascii_isdigit(s[0]))
        return false;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex && !g_ascii_isxdigit(s[2]))
        return false;
    char *end = NULL;
    errno = 0;
    guint64 v = g_ascii_strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
    if (errno || !end || *end)
        return false;
    *out = v;
    return true;
}

/* "TEXT" for messages: long texts cut with an ellipsis. */
static void quote(GString *why, const char *s)
{
    size_t n = strlen(s);
    g_string_append_printf(why, "'%.64s%s'", s, n > 64 ? "..." : "");
}

static bool int_fits(ptx_type t, bool negative, uint64_t v)
{
    unsigned bits = ptx_type_size(t) * 8;
    switch (ptx_type_kind_of(t)) {
    case PTX_TK_S:
        if (negative)
            return bits == 64 ? v <= (1ull << 63) : v <= (1ull << (bits - 1));
        return v <= (1ull << (bits - 1)) - 1;
    case PTX_TK_U: case PTX_TK_B:
        return !negative && (bits == 64 || v <= (1ull << bits) - 1);
    default:
        return false;
    }
}

static bool parse_scalar(const char *type, const char *val, run_arg *a, GString *why)
{
    ptx_type t = ptx_type_from_name(type, (unsigned)strlen(type));
    a->kind = RUN_ARG_SCALAR;
    a->type = t;
    a->scalar_size = ptx_type_size(t);
    ptx_type_kind k = t == PTX_T_NONE ? PTX_TK_NONE : ptx_type_kind_of(t);
    if (k == PTX_TK_U || k == PTX_TK_S || k == PTX_TK_B) {
        if (t == PTX_T_B1 || t == PTX_T_S4 || t == PTX_T_U4 || t == PTX_T_U16X2 ||
            t == PTX_T_S16X2) {
            g_string_printf(why, "scalar type '%s' is not supported on the command line", type);
            return false;
        }
        const char *digits = val;
        a->negative = val[0] == '-';
        if (a->negative && k != PTX_TK_S) {
            g_string_printf(why, "%s value ", type);
            quote(why, val);
            g_string_append(why, " is negative; unsigned and bit types take 0 or more");
            return false;
        }
        if (a->negative)
            digits++;
        uint64_t v;
        if (!parse_u64(digits, &v)) {
            g_string_printf(why, "bad %s value ", type);
            quote(why, val);
            g_string_append(why, " (a whole number, decimal or 0x hex)");
            return false;
        }
        if (!int_fits(t, a->negative, v)) {
            g_string_printf(why, "%s value ", type);
            quote(why, val);
            g_string_append(why, " does not fit the type");
            return false;
        }
        a->mag = v;
        a->scalar = a->negative ? 0 - v : v;
        if (a->scalar_size < 8)
            a->scalar &= (1ull << (a->scalar_size * 8)) - 1;
        return true;
    }
    if (t == PTX_T_F32 || t == PTX_T_F64) {
        char *end = NULL;
        errno = 0;
        double d = val[0] ? g_ascii_strtod(val, &end) : 0;
        bool special = isinf(d) || isnan(d);
        if (!end || *end || !val[0] || g_ascii_isspace(val[0]) ||
            (!special && errno == ERANGE && fabs(d) > 1) ||
            (t == PTX_T_F32 && !special && fabs(d) > 3.4028234663852886e38)) {
            g_string_printf(why, "%s value ", type);
            quote(why, val);
            g_string_append(why, !end || *end || !val[0] ? " is not a number"
                                                         : " is out of range for the type");
            return false;
        }
        if (t == PTX_T_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            a->scalar = b;
        } else {
            memcpy(&a->scalar, &d, 8);
        }
        return true;
    }
    if (k == PTX_TK_F)
        g_string_printf(why, "scalar type '%s' is not supported on the command line", type);
    else {
        g_string_assign(why, "unknown scalar type ");
        quote(why, type);
    }
    return false;
}

bool run_arg_parse(const char *spec, run_arg *a, GString *why)
{
    memset(a, 0, sizeof *a);
    gchar **f = g_strsplit(spec, ":", 4);
    guint n = g_strv_length(f);
    bool ok = false;
    if (n < 2) {
        g_string_assign(why, "argument ");
        quote(why, spec);
        g_string_append(why, " is not TYPE:VALUE or a buffer spec");
    } else if (!strcmp(f[0], "file")) {
        a->kind = RUN_ARG_FILE;
        a->path = g_strjoinv(":", f + 1);
        GStatBuf st;
        if (g_stat(a->path, &st) != 0 || !S_ISREG(st.st_mode)) {
            int e = errno;
            g_string_printf(why, "cannot read %s: %s", a->path,
                            S_ISREG(st.st_mode) ? g_strerror(e) : "not a regular file");
        } else {
            a->bytes = (uint64_t)st.st_size;
            ok = true;
        }
    } else if (!strcmp(f[0], "zeros") && n == 2) {
        a->kind = RUN_ARG_ZEROS;
        ok = parse_u64(f[1], &a->bytes) && a->bytes > 0 && a->bytes <= RUN_ARG_MAX_BYTES;
        if (!ok) {
            g_string_assign(why, "bad byte count in ");
            quote(why, spec);
            g_string_append_printf(why, " (a whole number from 1 to %llu)",
                                   (unsigned long long)RUN_ARG_MAX_BYTES);
        }
    } else if ((!strcmp(f[0], "iota") && n == 3) || (!strcmp(f[0], "rand") && n == 4)) {
        a->kind = f[0][0] == 'r' ? RUN_ARG_RAND : RUN_ARG_IOTA;
        a->type = ptx_type_from_name(f[1], (unsigned)strlen(f[1]));
        unsigned sz = a->type == PTX_T_NONE ? 0 : ptx_type_size(a->type);
        ptx_type_kind k = a->type == PTX_T_NONE ? PTX_TK_NONE : ptx_type_kind_of(a->type);
        bool type_ok = (k == PTX_TK_U || k == PTX_TK_S || k == PTX_TK_B) ||
                       a->type == PTX_T_F32 || a->type == PTX_T_F64;
        bool count_ok = parse_u64(f[2], &a->count) && a->count > 0 &&
                        a->count <= RUN_ARG_MAX_BYTES / 8;
        bool seed_ok = a->kind == RUN_ARG_IOTA || parse_u64(f[3], &a->seed);
        if (!type_ok || !sz || sz > 8 || a->type == PTX_T_B1) {
            g_string_assign(why, "bad element type in ");
            quote(why, spec);
        } else if (!count_ok) {
            g_string_assign(why, "bad element count in ");
            quote(why, spec);
            g_string_append_printf(why, " (a whole number from 1 to %llu)",
                                   (unsigned long long)(RUN_ARG_MAX_BYTES / 8));
        } else if (!seed_ok) {
            g_string_assign(why, "bad seed in ");
            quote(why, spec);
        } else {
            a->bytes = a->count * sz;
            ok = true;
        }
    } else if (n == 2) {
        ok = parse_scalar(f[0], f[1], a, why);
    } else {
        g_string_assign(why, "argument ");
        quote(why, spec);
        g_string_append(why, " is not TYPE:VALUE or a buffer spec");
    }
    g_strfreev(f);
    return ok;
}

bool run_arg_fits_param(const run_arg *a, const ptx_var *p, GString *why)
{
    unsigned psize = ptx_type_size(p->type) * (p->vec ? p->vec : 1);
    for (uint32_t i = 0; i < p->ndims; i++)
        psize *= p->dims[i] ? (unsigned)p->dims[i] : 1;
    ptx_type_kind pk = ptx_type_kind_of(p->type);
    bool scalar_param = p->ndims == 0 && p->vec <= 1;
    if (a->kind != RUN_ARG_SCALAR) {
        if (!scalar_param || psize != 8 || pk == PTX_TK_F) {
            g_string_printf(why, "a buffer, but the parameter (.%s) is not a 64-bit pointer",
                            ptx_type_name(p->type));
            return false;
        }
        return true;
    }
    if (a->scalar_size != psize) {
        g_string_printf(why, "%u bytes, but the parameter (.%s) has %u", a->scalar_size,
                        ptx_type_name(p->type), psize);
        return false;
    }
    ptx_type_kind ak = ptx_type_kind_of(a->type);
    if (ak == PTX_TK_B || !scalar_param || pk == PTX_TK_B)
        return true; /* raw bits, or a .bN / array parameter: any value of its size */
    bool afl = ak == PTX_TK_F, pfl = pk == PTX_TK_F;
    if (afl != pfl) {
        g_string_printf(why, "a .%s value, but the parameter is .%s (write b%u:BITS to pass "
                        "raw bits)", ptx_type_name(a->type), ptx_type_name(p->type), psize * 8);
        return false;
    }
    if (!afl) {
        if (!int_fits(p->type, a->negative, a->mag)) {
            g_string_printf(why, "the value does not fit the parameter's type .%s",
                            ptx_type_name(p->type));
            return false;
        }
    }
    return true;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Writes element i of `type` into buf: iota (value i) or random. */
static void fill_elem(guint8 *buf, ptx_type t, gsize i, bool random, uint64_t *state)
{
    unsigned sz = ptx_type_size(t);
    uint64_t bits = 0;
    if (t == PTX_T_F32) {
        float f = random ? (float)(splitmix(state) >> 40) / 16777216.0f : (float)i;
        memcpy(&bits, &f, 4);
    } else if (t == PTX_T_F64) {
        double d = random ? (double)(splitmix(state) >> 11) / 9007199254740992.0 : (double)i;
        memcpy(&bits, &d, 8);
    } else {
        bits = random ? splitmix(state) : (uint64_t)i;
    }
    memcpy(buf + i * sz, &bits, sz);
}

bool run_arg_materialise(run_arg *a, GString *why)
{
    if (a->kind == RUN_ARG_SCALAR)
        return true;
    if (a->kind == RUN_ARG_FILE) {
        GError *err = NULL;
        gsize len = 0;
        if (!g_file_get_contents(a->path, (gchar **)&a->host, &len, &err)) {
            g_string_assign(why, err->message);
            g_error_free(err);
            return false;
        }
        if (len != a->bytes) {
            g_string_printf(why, "%s changed size while it was read", a->path);
            return false;
        }
        return true;
    }
    a->host = g_try_malloc0(a->bytes ? a->bytes : 1);
    if (!a->host) {
        g_string_printf(why, "cannot allocate %llu bytes of host memory",
                        (unsigned long long)a->bytes);
        return false;
    }
    uint64_t seed = a->seed;
    if (a->kind == RUN_ARG_IOTA || a->kind == RUN_ARG_RAND)
        for (gsize i = 0; i < a->count; i++)
            fill_elem(a->host, a->type, i, a->kind == RUN_ARG_RAND, &seed);
    return true;
}

void run_arg_clear(run_arg *a)
{
    g_free(a->host);
    g_free(a->path);
    memset(a, 0, sizeof *a);
}
