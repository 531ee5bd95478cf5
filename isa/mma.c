/* isa/mma.c — shapes, fragment layouts and arithmetic of warp-level MMA
 * (isa/mma.h explains the model). */
#include "isa/mma.h"
#include "isa/half.h"
#include "isa/softfloat.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- shapes */

static bool parse_dim(const char **p, char letter, unsigned *out)
{
    if (**p != letter)
        return false;
    (*p)++;
    unsigned v = 0, nd = 0;
    while (**p >= '0' && **p <= '9' && nd < 4) {
        v = v * 10 + (unsigned)(**p - '0');
        (*p)++;
        nd++;
    }
    *out = v;
    return nd > 0 && v > 0;
}

bool ptx_mma_parse_shape(const char *s, unsigned *m, unsigned *n, unsigned *k)
{
    *k = 0;
    if (!parse_dim(&s, 'm', m) || !parse_dim(&s, 'n', n))
        return false;
    if (*s == 'k' && !parse_dim(&s, 'k', k))
        return false;
    return *s == '\0';
}

/* Input classes: operands A and B must be of one class. */
enum { IC_NONE, IC_F16, IC_BF16, IC_TF32, IC_F64, IC_I8, IC_I4, IC_B1, IC_FP8 };

static int input_class(ptx_type t)
{
    switch (t) {
    case PTX_T_F16: return IC_F16;
    case PTX_T_BF16: return IC_BF16;
    case PTX_T_TF32: return IC_TF32;
    case PTX_T_F64: return IC_F64;
    case PTX_T_S8: case PTX_T_U8: return IC_I8;
    case PTX_T_S4: case PTX_T_U4: return IC_I4;
    case PTX_T_B1: return IC_B1;
    case PTX_T_E4M3: case PTX_T_E5M2: return IC_FP8;
    default: return IC_NONE;
    }
}

#define SHAPE(m, n, k) (((uint32_t)(m) << 20) | ((uint32_t)(n) << 10) | (uint32_t)(k))

static bool shape_in(const ptx_mma_geom *g, const uint32_t *list, unsigned n)
{
    uint32_t s = SHAPE(g->m, g->n, g->k);
    for (unsigned i = 0; i < n; i++)
        if (list[i] == s)
            return true;
    return false;
}

static bool is_f16_or_f32(uint8_t t)
{
    return t == PTX_T_F16 || t == PTX_T_F32;
}

const char *ptx_mma_check(ptx_mma_geom *g)
{
    static const uint32_t sync_f16[] = {SHAPE(8, 8, 4), SHAPE(16, 8, 8), SHAPE(16, 8, 16)};
    static const uint32_t sync_bf16[] = {SHAPE(16, 8, 8), SHAPE(16, 8, 16)};
    static const uint32_t sync_tf32[] = {SHAPE(16, 8, 4), SHAPE(16, 8, 8)};
    static const uint32_t sync_f64[] = {SHAPE(8, 8, 4), SHAPE(16, 8, 4), SHAPE(16, 8, 8),
                                        SHAPE(16, 8, 16)};
    static const uint32_t sync_i8[] = {SHAPE(8, 8, 16), SHAPE(16, 8, 16), SHAPE(16, 8, 32)};
    static const uint32_t sync_i4[] = {SHAPE(8, 8, 32), SHAPE(16, 8, 32), SHAPE(16, 8, 64)};
    static const uint32_t sync_b1[] = {SHAPE(8, 8, 128), SHAPE(16, 8, 128), SHAPE(16, 8, 256)};
    static const uint32_t sync_fp8[] = {SHAPE(16, 8, 16), SHAPE(16, 8, 32)};
    static const uint32_t wmma_16[] = {SHAPE(16, 16, 16), SHAPE(32, 8, 16), SHAPE(8, 32, 16)};
    static const uint32_t wmma_tf32[] = {SHAPE(16, 16, 8)};
    static const uint32_t wmma_f64[] = {SHAPE(8, 8, 4)};
    static const uint32_t wmma_i4[] = {SHAPE(8, 8, 32)};
    static const uint32_t wmma_b1[] = {SHAPE(8, 8, 128)};
#define IN(list) shape_in(g, list, sizeof list / sizeof list[0])
    g->batch = 1;
    int ca = input_class((ptx_type)g->atype), cb = input_class((ptx_type)g->btype);
    if (ca == IC_NONE || cb != ca)
        return "A and B need one of the types .f16, .bf16, .tf32, .f64, .s8/.u8, "
               ".s4/.u4, .b1, .e4m3/.e5m2 (the same kind for both)";
    if (ca == IC_F16 && g->btype != PTX_T_F16)
        return "A and B need the same type";
    if ((ca == IC_B1) != (g->bitop != PTX_MMA_BITOP_NONE))
        return ca == IC_B1 ? ".b1 needs .xor.popc or .and.popc"
                           : ".xor/.and.popc apply only to .b1";
    bool wmma = g->kind == PTX_MMA_WMMA, shape_ok;
    bool acc_ok;
    switch (ca) {
    case IC_F16:
        shape_ok = wmma ? IN(wmma_16) : IN(sync_f16);
        acc_ok = is_f16_or_f32(g->ctype) && is_f16_or_f32(g->dtype);
        break;
    case IC_BF16:
        shape_ok = wmma ? IN(wmma_16) : IN(sync_bf16);
        acc_ok = g->ctype == PTX_T_F32 && g->dtype == PTX_T_F32;
        break;
    case IC_TF32:
        shape_ok = wmma ? IN(wmma_tf32) : IN(sync_tf32);
        acc_ok = g->ctype == PTX_T_F32 && g->dtype == PTX_T_F32;
        break;
    case IC_F64:
        shape_ok = wmma ? IN(wmma_f64) : IN(sync_f64);
        acc_ok = g->ctype == PTX_T_F64 && g->dtype == PTX_T_F64;
        break;
    case IC_I8:
        shape_ok = wmma ? IN(wmma_16) : IN(sync_i8);
        acc_ok = g->ctype == PTX_T_S32 && g->dtype == PTX_T_S32;
        break;
    case IC_I4:
        shape_ok = wmma ? IN(wmma_i4) : IN(sync_i4);
        acc_ok = g->ctype == PTX_T_S32 && g->dtype == PTX_T_S32;
        break;
    case IC_B1:
        shape_ok = wmma ? IN(wmma_b1) : IN(sync_b1);
        acc_ok = g->ctype == PTX_T_S32 && g->dtype == PTX_T_S32;
        break;
    default: /* IC_FP8 */
        shape_ok = !wmma && IN(sync_fp8);
        acc_ok = is_f16_or_f32(g->ctype) && g->ctype == g->dtype;
        break;
    }
#undef IN
    if (!shape_ok)
        return "this shape is not defined for these types";
    if (!acc_ok)
        return "these accumulator (C/D) types are not defined for these input types";
    bool integer = ca == IC_I8 || ca == IC_I4 || ca == IC_B1;
    if (g->satfinite && !(integer && ca != IC_B1) && !(wmma && ca == IC_F16))
        return ".satfinite applies to .s8/.u8/.s4/.u4 (and wmma .f16)";
    if (g->rnd != PTX_RND_NONE && ca != IC_F64)
        return "a rounding modifier applies only to .f64";
    bool sub_byte = ca == IC_I4 || ca == IC_B1;
    if (!wmma && !(ca == IC_F16 && g->m == 8)) {
        if (g->alayout != PTX_MMA_ROW || g->blayout != PTX_MMA_COL)
            return "this shape needs .row.col";
    } else if (wmma && sub_byte && (g->alayout != PTX_MMA_ROW || g->blayout != PTX_MMA_COL)) {
        return "sub-byte wmma needs .row.col";
    }
    if (!wmma && ca == IC_F16 && g->m == 8)
        g->batch = 4; /* four quad-pairs, four independent products */
    return NULL;
}

/* ----------------------------------------------------------- layouts */

unsigned ptx_mma_elem_bits(ptx_type t)
{
    switch (t) {
    case PTX_T_B1: return 1;
    case PTX_T_S4: case PTX_T_U4: return 4;
    case PTX_T_S8: case PTX_T_U8: case PTX_T_E4M3: case PTX_T_E5M2: return 8;
    case PTX_T_F16: case PTX_T_BF16: case PTX_T_B16: return 16;
    case PTX_T_F64: return 64;
    default: return 32;
    }
}

ptx_type ptx_mma_opnd_type(const ptx_mma_geom *g, ptx_mma_opnd o)
{
    switch (o) {
    case PTX_MMA_A: return (ptx_type)g->atype;
    case PTX_MMA_B: return (ptx_type)g->btype;
    case PTX_MMA_C: return (ptx_type)g->ctype;
    default: return (ptx_type)g->dtype;
    }
}

void ptx_mma_dims(const ptx_mma_geom *g, ptx_mma_opnd o, unsigned *rows, unsigned *cols)
{
    *rows = o == PTX_MMA_B ? g->k : g->m;
    *cols = o == PTX_MMA_A ? g->k : g->n;
}

unsigned ptx_mma_frag_elems(const ptx_mma_geom *g, ptx_mma_opnd o)
{
    unsigned r, c;
    ptx_mma_dims(g, o, &r, &c);
    if (g->kind == PTX_MMA_WMMA && o <= PTX_MMA_B && ptx_mma_opnd_type(g, o) == PTX_T_F16)
        return 16; /* eight .f16x2 registers whatever the shape */
    return (unsigned)g->batch * r * c / 32u;
}

unsigned ptx_mma_frag_regs(const ptx_mma_geom *g, ptx_mma_opnd o)
{
    unsigned bits = ptx_mma_elem_bits(ptx_mma_opnd_type(g, o));
    unsigned e = ptx_mma_frag_elems(g, o);
    return bits == 64 ? e : (e * bits + 31u) / 32u;
}

/* mma.m8n8k4 with .f16: four quad-pairs (lanes 4q..4q+3 and 16+4q..16+4q+3)
 * each compute their own 8x8x4 product (PTX ISA "Matrix Fragments for
 * mma.m8n8k4 with .f16 floating point type"). */
static unsigned index_m8n8k4_f16(const ptx_mma_geom *g, ptx_mma_opnd o, unsigned lane,
                                 unsigned i)
{
    unsigned q = (lane >> 2) & 3u, hi = lane >= 16 ? 4u : 0u, t = lane & 3u, r, c;
    switch (o) {
    case PTX_MMA_A: /* 8 x 4 */
        r = g->alayout == PTX_MMA_ROW ? t + hi : i + hi;
        c = g->alayout == PTX_MMA_ROW ? i : t;
        return q * 32u + r * 4u + c;
    case PTX_MMA_B: /* 4 x 8 */
        r = g->blayout == PTX_MMA_ROW ? t : i;
        c = g->blayout == PTX_MMA_ROW ? i + hi : t + hi;
        return q * 32u + r * 8u + c;
    default: /* 8 x 8 */
        if (ptx_mma_opnd_type(g, o) == PTX_T_F16) {
            r = t + hi;
            c = i;
        } else {
            r = (t & 1u) + (i & 2u) + hi;
            c = (i & 4u) + (t & 2u) + (i & 1u);
        }
        return q * 64u + r * 8u + c;
    }
}

unsigned ptx_mma_frag_index(const ptx_mma_geom *g, ptx_mma_opnd o, unsigned lane, unsigned i)
{
    unsigned rows, cols;
    ptx_mma_dims(g, o, &rows, &cols);
    if (g->kind == PTX_MMA_WMMA)
        return (lane * ptx_mma_frag_elems(g, o) + i) % (rows * cols);
    if (g->batch == 4)
        return index_m8n8k4_f16(g, o, lane, i);
    /* every other mma shape: groupID, threadID_in_group, and P elements
     * per 32-bit register; register r of A covers rows g (+8 for odd r
     * when m = 16) and a k-block of 4P columns per register pair */
    unsigned gid = lane >> 2, t = lane & 3u, r, c;
    unsigned bits = ptx_mma_elem_bits(ptx_mma_opnd_type(g, o));
    unsigned p = bits >= 32 ? 1u : 32u / bits, reg = i / p, e = i % p;
    switch (o) {
    case PTX_MMA_A:
        if (g->m == 16) {
            r = gid + 8u * (reg & 1u);
            c = t * p + e + (reg >> 1) * 4u * p;
        } else {
            r = gid;
            c = t * p + e + reg * 4u * p;
        }
        break;
    case PTX_MMA_B:
        r = t * p + e + reg * 4u * p;
        c = gid;
        break;
    default:
        r = g->m == 16 ? gid + 8u * (i >> 1) : gid;
        c = 2u * t + (i & 1u);
        break;
    }
    return r * cols + c;
}

uint64_t ptx_mma_get_elem(const uint64_t *regs, unsigned bits, unsigned i)
{
    if (bits == 64)
        return regs[i];
    unsigned per = 32u / bits, sh = (i % per) * bits;
    uint32_t mask = bits == 32 ? UINT32_MAX : (1u << bits) - 1u;
    return ((uint32_t)regs[i / per] >> sh) & mask;
}

void ptx_mma_set_elem(uint64_t *regs, unsigned bits, unsigned i, uint64_t v)
{
    if (bits == 64) {
        regs[i] = v;
        return;
    }
    unsigned per = 32u / bits, sh = (i % per) * bits;
    uint32_t mask = (bits == 32 ? UINT32_MAX : (1u << bits) - 1u) << sh;
    uint32_t old = (uint32_t)regs[i / per];
    regs[i / per] = (old & ~mask) | (((uint32_t)v << sh) & mask);
}

/* -------------------------------------------------------- arithmetic */

static float bits_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* Exact conversion of an input element to f32. */
static float to_f32(ptx_type t, uint64_t bits)
{
    switch (t) {
    case PTX_T_F16: return bits_f32(ptx_f16_to_f32((uint16_t)bits));
    case PTX_T_BF16: return bits_f32((uint32_t)bits << 16);
    case PTX_T_TF32: return bits_f32((uint32_t)bits & 0xffffe000u);
    case PTX_T_E4M3:
        return bits_f32((uint32_t)ptx_fp_pack(PTX_FMT_F32, ptx_fp_unpack(PTX_FMT_E4M3, bits),
                                              PTX_RND_RN, false));
    case PTX_T_E5M2:
        return bits_f32((uint32_t)ptx_fp_pack(PTX_FMT_F32, ptx_fp_unpack(PTX_FMT_E5M2, bits),
                                              PTX_RND_RN, false));
    default: return bits_f32((uint32_t)bits);
    }
}

static int64_t to_int(ptx_type t, uint64_t bits)
{
    switch (t) {
    case PTX_T_S8: return (int8_t)(uint8_t)bits;
    case PTX_T_S4: return (int64_t)((bits & 0xfu) ^ 0x8u) - 8;
    case PTX_T_S32: return (int32_t)(uint32_t)bits;
    default: return (int64_t)bits; /* u8, u4, b1: already masked */
    }
}

/* f32 accumulator to D's type, canonical NaN; .satfinite: +-max for
 * infinities and +0 for NaN (PTX ISA wmma.mma). */
static uint64_t from_f32(ptx_type dt, float v, bool satfinite)
{
    if (satfinite) {
        if (isnan(v))
            v = 0.0f;
        else if (isinf(v) || (dt == PTX_T_F16 && fabsf(v) > 65504.0f))
            v = copysignf(dt == PTX_T_F16 ? 65504.0f : 3.40282347e38f, v);
    }
    if (dt == PTX_T_F16)
        return ptx_f16_from_f32_rn(f32_bits(v));
    return isnan(v) ? 0x7fffffffu : f32_bits(v);
}

static double bits_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static uint64_t fma_f64(uint64_t a, uint64_t b, uint64_t c, ptx_rnd rnd)
{
    if (rnd == PTX_RND_NONE || rnd == PTX_RND_RN)
        return f64_bits(fma(bits_f64(a), bits_f64(b), bits_f64(c)));
    ptx_fpval v = ptx_sf_fma(ptx_fp_unpack(PTX_FMT_F64, a), ptx_fp_unpack(PTX_FMT_F64, b),
                             ptx_fp_unpack(PTX_FMT_F64, c), rnd);
    return ptx_fp_pack(PTX_FMT_F64, v, rnd, false);
}

static void compute_float(const ptx_mma_geom *g, const uint64_t *a, const uint64_t *b,
                          const uint64_t *c, uint64_t *d)
{
    unsigned m = g->m, n = g->n, k = g->k, na = m * k, nb = k * n;
    float fa[PTX_MMA_MAX_A], fb[PTX_MMA_MAX_B];
    for (unsigned bt = 0; bt < g->batch; bt++) {
        for (unsigned i = 0; i < na; i++)
            fa[i] = to_f32((ptx_type)g->atype, a[bt * na + i]);
        for (unsigned i = 0; i < nb; i++)
            fb[i] = to_f32((ptx_type)g->btype, b[bt * nb + i]);
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++) {
                unsigned o = bt * m * n + i * n + j;
                float acc = to_f32((ptx_type)g->ctype, c[o]);
                for (unsigned kk = 0; kk < k; kk++)
                    acc = fmaf(fa[i * k + kk], fb[kk * n + j], acc);
                d[o] = from_f32((ptx_type)g->dtype, acc, g->satfinite);
            }
    }
}

static void compute_f64(const ptx_mma_geom *g, const uint64_t *a, const uint64_t *b,
                        const uint64_t *c, uint64_t *d)
{
    unsigned m = g->m, n = g->n, k = g->k;
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            uint64_t acc = c[i * n + j];
            for (unsigned kk = 0; kk < k; kk++)
                acc = fma_f64(a[i * k + kk], b[kk * n + j], acc, (ptx_rnd)g->rnd);
            d[i * n + j] = ptx_fp_is_nan_bits(PTX_FMT_F64, acc) ? ptx_fp_canon_nan(PTX_FMT_F64)
                                                                : acc;
        }
}

static void compute_int(const ptx_mma_geom *g, const uint64_t *a, const uint64_t *b,
                        const uint64_t *c, uint64_t *d)
{
    unsigned m = g->m, n = g->n, k = g->k;
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            int64_t acc = to_int(PTX_T_S32, c[i * n + j]);
            for (unsigned kk = 0; kk < k; kk++) {
                uint64_t x = a[i * k + kk], y = b[kk * n + j];
                if (g->bitop == PTX_MMA_BITOP_XOR)
                    acc += (int64_t)((x ^ y) & 1u);
                else if (g->bitop == PTX_MMA_BITOP_AND)
                    acc += (int64_t)(x & y & 1u);
                else
                    acc += to_int((ptx_type)g->atype, x) * to_int((ptx_type)g->btype, y);
            }
            if (g->satfinite)
                acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            d[i * n + j] = (uint32_t)acc;
        }
}

void ptx_mma_compute(const ptx_mma_geom *g, const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, uint64_t *d)
{
    if (g->atype == PTX_T_F64)
        compute_f64(g, a, b, c, d);
    else if (ptx_type_is_float((ptx_type)g->atype))
        compute_float(g, a, b, c, d);
    else
        compute_int(g, a, b, c, d);
}

uint32_t ptx_mma_work(const ptx_mma_geom *g)
{
    uint64_t fmas = (uint64_t)g->m * g->n * g->k * g->batch;
    switch (input_class((ptx_type)g->atype)) {
    case IC_TF32: fmas *= 2; break;
    case IC_F64: fmas *= 16; break;
    case IC_I8: case IC_FP8: fmas /= 2; break;
    case IC_I4: fmas /= 4; break;
    case IC_B1: fmas /= 16; break;
    default: break;
    }
    return fmas > UINT32_MAX ? UINT32_MAX : (uint32_t)fmas;
}
