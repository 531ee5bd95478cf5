// libor/kernels.cu — Monte Carlo pricing of a portfolio of swaptions under
// the LIBOR market model, one path per thread.  Each path evolves nn <= NN
// forward rates over nmat <= NMAT time steps, nn - nmat <= NN - NMAT (a
// log-normal step per rate, drift from the rates below it), then values
// NOPT receiver swaptions (maturities from the host) and discounts.
// libor_value returns each path's value; libor_delta also carries the
// tangent (forward-mode derivative) of the value with respect to a parallel
// shift of the initial rates.  Forward rates, discount factors and annuities
// live in per-thread arrays (local memory).  Written for ptxemu from the
// model's equations (Brace-Gatarek-Musiela / Giles's formulation), not from
// any benchmark suite's source.

#define NN 80
#define NMAT 40
#define NOPT 15
#define DELTA 0.25f
#define SQRT_DELTA 0.5f
#define L0 0.05f

__constant__ float lambda[NN];
__constant__ int maturities[NOPT];
__constant__ float swaprates[NOPT];

extern "C" __global__ void libor_value(const float *z, float *val, int npath, int nn,
                                        int nmat)
{
    int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path >= npath)
        return;
    float L[NN], B[NN - NMAT], S[NN - NMAT];
    for (int i = 0; i < nn; i++)
        L[i] = L0;

    for (int n = 0; n < nmat; n++) {
        float sqez = SQRT_DELTA * z[n * npath + path];
        float v = 0.0f;
        for (int i = n + 1; i < nn; i++) {
            float lam = lambda[i - n - 1], con1 = DELTA * lam;
            v += con1 * L[i] / (1.0f + DELTA * L[i]);
            float vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
            L[i] = L[i] * vrat;
        }
    }

    float b = 1.0f, s = 0.0f;
    for (int n = nmat; n < nn; n++) {
        b = b / (1.0f + DELTA * L[n]);
        s = s + DELTA * b;
        B[n - nmat] = b;
        S[n - nmat] = s;
    }
    float v = 0.0f;
    for (int k = 0; k < NOPT; k++) {
        int m = maturities[k] - 1;
        float swapval = B[m] + swaprates[k] * S[m] - 1.0f;
        if (swapval < 0.0f)
            v += -100.0f * swapval;
    }
    for (int n = 0; n < nmat; n++)
        v = v / (1.0f + DELTA * L[n]);
    val[path] = v;
}

extern "C" __global__ void libor_delta(const float *z, float *val, float *dval, int npath,
                                        int nn, int nmat)
{
    int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path >= npath)
        return;
    float L[NN], Ld[NN], B[NN - NMAT], Bd[NN - NMAT], S[NN - NMAT], Sd[NN - NMAT];
    for (int i = 0; i < nn; i++) {
        L[i] = L0;
        Ld[i] = 1.0f;
    }

    for (int n = 0; n < nmat; n++) {
        float sqez = SQRT_DELTA * z[n * npath + path];
        float v = 0.0f, vd = 0.0f;
        for (int i = n + 1; i < nn; i++) {
            float lam = lambda[i - n - 1], con1 = DELTA * lam;
            float den = 1.0f + DELTA * L[i];
            v += con1 * L[i] / den;
            vd += con1 * Ld[i] / (den * den);
            float vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
            Ld[i] = Ld[i] * vrat + L[i] * vrat * con1 * vd;
            L[i] = L[i] * vrat;
        }
    }

    float b = 1.0f, bd = 0.0f, s = 0.0f, sd = 0.0f;
    for (int n = nmat; n < nn; n++) {
        float den = 1.0f + DELTA * L[n];
        b = b / den;
        bd = (bd - b * DELTA * Ld[n]) / den;
        s = s + DELTA * b;
        sd = sd + DELTA * bd;
        B[n - nmat] = b;
        Bd[n - nmat] = bd;
        S[n - nmat] = s;
        Sd[n - nmat] = sd;
    }
    float v = 0.0f, vd = 0.0f;
    for (int k = 0; k < NOPT; k++) {
        int m = maturities[k] - 1;
        float swapval = B[m] + swaprates[k] * S[m] - 1.0f;
        if (swapval < 0.0f) {
            v += -100.0f * swapval;
            vd += -100.0f * (Bd[m] + swaprates[k] * Sd[m]);
        }
    }
    for (int n = 0; n < nmat; n++) {
        float den = 1.0f + DELTA * L[n];
        v = v / den;
        vd = (vd - v * DELTA * Ld[n]) / den;
    }
    val[path] = v;
    dval[path] = vd;
}
