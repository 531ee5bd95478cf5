// cdp-regx: regular-expression matching with device-side launches, in the
// style of the LaPerm seed's regx (Gregex: DFA matching of a string
// collection).  The expression is an alternation of literal signatures,
// compiled on the host into an anchored DFA (a trie: next[state * 256 +
// byte], -1 = no match possible; out[state] = signatures ending there).
// Matching "from a possible position": every position whose byte can start
// a signature (first[byte]) is a candidate, and the DFA is run from it.
// One parent thread per string counts its candidates; a string with more
// than `thresh` candidates is handed to a child TB whose threads take the
// positions in turn, the rest are matched by their own thread.  Each parent
// TB gathers its heavy strings in thread order and its thread 0 launches one
// child grid with a TB per heavy string.  count[] gets the number of
// (position, signature) matches per string; integer sums, so memory after
// every launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -rdc=true
// -arch=sm_75; the marker line below asks for -rdc=true).
// ptxemu: -rdc=true

#define PB 64 // parent TB size
#define CB 64 // child TB size

__device__ __forceinline__ int regx_at(const unsigned char *s, int len, int p, const int *next,
                                       const int *out)
{
    int st = 0, n = 0;
    for (int i = p; i < len; i++) {
        st = next[st * 256 + s[i]];
        if (st < 0)
            break;
        n += out[st];
    }
    return n;
}

extern "C" __global__ void regx_child(const unsigned char *text, const int *off,
                                      const unsigned char *first, const int *next,
                                      const int *out, const int *heavy, int *count)
{
    int id = heavy[blockIdx.x];
    int b = off[id], len = off[id + 1] - b, n = 0;
    const unsigned char *s = text + b;
    for (int p = threadIdx.x; p < len; p += blockDim.x)
        if (first[s[p]])
            n += regx_at(s, len, p, next, out);
    if (n)
        atomicAdd(&count[id], n);
}

extern "C" __global__ void regx_parent(const unsigned char *text, const int *off,
                                       const unsigned char *first, const int *next,
                                       const int *out, int *heavy, int *count, int ns,
                                       int thresh)
{
    __shared__ unsigned char is_heavy[PB];
    int id = blockIdx.x * PB + threadIdx.x;
    unsigned char h = 0;
    if (id < ns) {
        int b = off[id], len = off[id + 1] - b, cand = 0;
        const unsigned char *s = text + b;
        for (int i = 0; i < len; i++)
            cand += first[s[i]];
        if (cand > thresh) {
            h = 1;
        } else {
            int n = 0;
            for (int p = 0; p < len; p++)
                if (first[s[p]])
                    n += regx_at(s, len, p, next, out);
            count[id] = n;
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
            regx_child<<<k, CB>>>(text, off, first, next, out, list, count);
    }
}
