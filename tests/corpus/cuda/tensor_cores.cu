// Tensor-core kernels for the corpus: nvcuda::wmma (a 32x32x32 f16 GEMM,
// four warps, one 16x16 tile each, with an element-wise scale of the
// accumulator fragment) and mma.sync fed by ldmatrix, plus movmatrix,
// through inline PTX.  tests/runtime/test_wmma.c runs them against CPU
// references.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define GM 32
#define GN 32
#define GK 32

// c = 2 * a x b: a row-major GM x GK, b column-major GK x GN, c row-major.
extern "C" __global__ void wmma_gemm(const half *a, const half *b, float *c)
{
    int warp = threadIdx.x / 32;
    int tm = (warp / (GN / 16)) * 16, tn = (warp % (GN / 16)) * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < GK; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * GK + k, GK);
        wmma::load_matrix_sync(fb, b + tn * GK + k, GK);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] *= 2.0f;
    wmma::store_matrix_sync(c + tm * GN + tn, acc, GN, wmma::mem_row_major);
}

// d (16 x 8, row-major) = a (16 x 16, row-major) x b (16 x 8, row-major),
// one warp: ldmatrix.x4 for A, ldmatrix.x2.trans for B, then mma.sync
// (m16n8k16 from sm_80, two m16n8k8 before).  t receives lane by lane the
// movmatrix transpose of A's top-left 8x8 block.
extern "C" __global__ void mma_tile(const half *a, const half *b, float *d, unsigned *t)
{
    __shared__ __align__(16) half sa[16 * 16];
    __shared__ __align__(16) half sb[16 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32)
        sa[i] = a[i];
    for (int i = l; i < 128; i += 32)
        sb[i] = b[i];
    __syncthreads();
    unsigned a0, a1, a2, a3, b0, b1, tr;
    unsigned pa = (unsigned)__cvta_generic_to_shared(sa + (l % 16) * 16 + (l / 16) * 8);
    unsigned pb = (unsigned)__cvta_generic_to_shared(sb + (l % 16) * 8);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b0), "=r"(b1) : "r"(pb));
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a0), "r"(a1), "r"(b0));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a2), "r"(a3), "r"(b1));
#endif
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(tr) : "r"(a0));
    int g = l / 4, q = l % 4;
    d[g * 8 + 2 * q] = c0;
    d[g * 8 + 2 * q + 1] = c1;
    d[(g + 8) * 8 + 2 * q] = c2;
    d[(g + 8) * 8 + 2 * q + 1] = c3;
    t[l] = tr;
}
