/* benchmarks/bptree/kernels.cu — B+ tree search (Rodinia "b+tree" style).
 *
 * The tree is built on the host and stored as fixed-size nodes of ORDER
 * slots (structure of arrays): keys[node * ORDER + i] and
 * vals[node * ORDER + i].  In an internal node, slot 0 holds INT_MIN and
 * slot i > 0 the smallest key below child i; vals holds the child's node
 * number.  In a leaf, keys are the sorted record keys and vals their
 * positions in the record array; base[leaf] is the position of the leaf's
 * first key.  Unused slots hold INT_MAX.  All leaves are `height` levels
 * below the root.
 *
 * One CTA of ORDER threads serves one query; thread i looks at slot i of
 * the current node, and the one whose key interval contains the target
 * publishes the next node through shared memory. */

#include <limits.h>

#define ORDER 256

extern "C" __global__ void findK(const int *keys, const int *vals, const int *records,
                                 int root, int height, const int *queries,
                                 int *answers)
{
    __shared__ int s_node;
    __shared__ int s_ans;
    int q = blockIdx.x;
    int t = threadIdx.x;
    int target = queries[q];

    if (t == 0) {
        s_node = root;
        s_ans = -1;
    }
    __syncthreads();
    for (int level = 0; level < height; level++) {
        int node = s_node;
        int k = keys[node * ORDER + t];
        int next = t + 1 < ORDER ? keys[node * ORDER + t + 1] : INT_MAX;
        __syncthreads(); /* everyone has read s_node */
        if (k <= target && target < next)
            s_node = vals[node * ORDER + t];
        __syncthreads();
    }
    int leaf = s_node;
    if (keys[leaf * ORDER + t] == target)
        s_ans = records[vals[leaf * ORDER + t]];
    __syncthreads();
    if (t == 0)
        answers[q] = s_ans;
}

extern "C" __global__ void findRangeK(const int *keys, const int *vals, const int *base,
                                      int root, int height, const int *starts,
                                      const int *ends, int *recstart, int *reclen)
{
    __shared__ int s_lo_node;
    __shared__ int s_hi_node;
    int q = blockIdx.x;
    int t = threadIdx.x;
    int lo = starts[q];
    int hi = ends[q];

    if (t == 0) {
        s_lo_node = root;
        s_hi_node = root;
    }
    __syncthreads();
    for (int level = 0; level < height; level++) {
        int a = s_lo_node, b = s_hi_node;
        int ka = keys[a * ORDER + t];
        int na = t + 1 < ORDER ? keys[a * ORDER + t + 1] : INT_MAX;
        int kb = keys[b * ORDER + t];
        int nb = t + 1 < ORDER ? keys[b * ORDER + t + 1] : INT_MAX;
        __syncthreads();
        if (ka <= lo && lo < na)
            s_lo_node = vals[a * ORDER + t];
        if (kb <= hi && hi < nb)
            s_hi_node = vals[b * ORDER + t];
        __syncthreads();
    }
    int la = s_lo_node, lb = s_hi_node;
    /* keys before the range in the first leaf, keys up to hi in the last */
    int below = __syncthreads_count(keys[la * ORDER + t] < lo);
    int upto = __syncthreads_count(keys[lb * ORDER + t] <= hi);
    if (t == 0) {
        int first = base[la] + below;
        recstart[q] = first;
        reclen[q] = base[lb] + upto - first;
    }
}
