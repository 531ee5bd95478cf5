/* benchmarks/streamcluster/kernels.cu — the "pgain" step of streaming
 * k-median clustering (Rodinia streamcluster style).
 *
 * The host holds a set of open centres; point p is served by centre
 * assign[p] at cost[p] = weight[p] * |p - centre|^2.  To judge a candidate
 * point x as a new centre, one thread per point computes its weighted
 * squared distance d to x (written to dist[p]) and what the move would save:
 * cost[p] - d.  A point with d < cost[p] would switch to x; otherwise its
 * (negative) saving counts against closing its current centre.  Each CTA
 * sums these per centre, in thread order so the result is deterministic:
 *   block_out[b * (nc + 1) + c]  sum over non-switching points of centre c
 *   block_out[b * (nc + 1) + nc] sum over switching points
 * The host adds the CTA sums and accepts or rejects x.
 * Coordinates are feature-major: coord[f * n + p]. */

#define SC_BLOCK 256

extern "C" __global__ void pgain(const float *coord, const float *weight, const float *cost,
                                 const int *assign, int n, int dim, int nc, int x,
                                 float *dist, float *block_out)
{
    __shared__ float s_save[SC_BLOCK];
    __shared__ int s_centre[SC_BLOCK];
    int t = threadIdx.x;
    int p = blockIdx.x * SC_BLOCK + t;

    if (p < n) {
        float d = 0.0f;
        for (int f = 0; f < dim; f++) {
            float diff = coord[f * n + p] - coord[f * n + x];
            d = fmaf(diff, diff, d);
        }
        d = d * weight[p];
        dist[p] = d;
        float cur = cost[p];
        s_save[t] = cur - d;
        s_centre[t] = d < cur ? -1 : assign[p];
    } else {
        s_save[t] = 0.0f;
        s_centre[t] = -2; /* no point */
    }
    __syncthreads();

    if (t <= nc) {
        int want = t < nc ? t : -1;
        float acc = 0.0f;
        for (int j = 0; j < SC_BLOCK; j++)
            if (s_centre[j] == want)
                acc += s_save[j];
        block_out[blockIdx.x * (nc + 1) + t] = acc;
    }
}
