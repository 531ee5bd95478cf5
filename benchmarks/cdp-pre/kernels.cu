// cdp-pre: product recommendation (item-based collaborative filtering) with
// device-side launches, in the style of the LaPerm seed's pre.  Ratings are
// stored by user (CSR); the model gives every item its K most similar items.
// pre_parent: one thread per user sums the user's stars (the mean, x10),
// then scores its candidate items: for every rated item j and neighbour i of
// j, score[u][i] += sim(j, i) x (10 stars - mean10).  A user with more than
// `thresh` ratings is handed to a child TB whose threads take the ratings in
// turn (atomicAdd on the user's score row); the rest score their own row.
// Each parent TB gathers its heavy users in thread order and its thread 0
// launches one child grid with a TB per heavy user.  pre_pick: one thread
// per user picks the unrated item of highest score (ties: lowest id).
// Integer sums, so memory after every launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -rdc=true
// -arch=sm_75; the marker line below asks for -rdc=true).
// ptxemu: -rdc=true

#define PB 64 // parent TB size
#define CB 64 // child TB size
#define K 20  // neighbours per item (CDP_PRE_K)

extern "C" __global__ void pre_child(const int *urow, const int *uitem, const int *urate,
                                     const int *nbr, const int *nsim, const int *mean10,
                                     const int *heavy, int *score, int nitems)
{
    int u = heavy[blockIdx.x], m = mean10[u];
    int *row = score + (long long)u * nitems;
    for (int k = urow[u] + threadIdx.x; k < urow[u + 1]; k += blockDim.x) {
        int j = uitem[k], dev = 10 * urate[k] - m;
        for (int q = 0; q < K; q++)
            atomicAdd(&row[nbr[j * K + q]], nsim[j * K + q] * dev);
    }
}

extern "C" __global__ void pre_parent(const int *urow, const int *uitem, const int *urate,
                                      const int *nbr, const int *nsim, int *mean10, int *heavy,
                                      int *score, int nusers, int nitems, int thresh)
{
    __shared__ unsigned char is_heavy[PB];
    int u = blockIdx.x * PB + threadIdx.x;
    unsigned char h = 0;
    if (u < nusers) {
        int b = urow[u], e = urow[u + 1], sum = 0;
        for (int k = b; k < e; k++)
            sum += urate[k];
        int m = 10 * sum / (e - b);
        mean10[u] = m;
        if (e - b > thresh) {
            h = 1;
        } else {
            int *row = score + (long long)u * nitems;
            for (int k = b; k < e; k++) {
                int j = uitem[k], dev = 10 * urate[k] - m;
                for (int q = 0; q < K; q++)
                    row[nbr[j * K + q]] += nsim[j * K + q] * dev;
            }
        }
    }
    is_heavy[threadIdx.x] = h;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *list = heavy + blockIdx.x * PB, k = 0;
        for (int t = 0; t < PB; t++)
            if (is_heavy[t])
                list[k++] = blockIdx.x * PB + t;
        if (k > 0)
            pre_child<<<k, CB>>>(urow, uitem, urate, nbr, nsim, mean10, list, score, nitems);
    }
}

extern "C" __global__ void pre_pick(const int *urow, const int *uitem, const int *score,
                                    int *best, int *best_score, int nusers, int nitems)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= nusers)
        return;
    const int *row = score + (long long)u * nitems;
    int k = urow[u], e = urow[u + 1], b = -1, bs = 0;
    for (int i = 0; i < nitems; i++) {
        while (k < e && uitem[k] < i)
            k++;
        if (k < e && uitem[k] == i)
            continue; // rated
        if (b < 0 || row[i] > bs) {
            b = i;
            bs = row[i];
        }
    }
    best[u] = b;
    best_score[u] = bs;
}
