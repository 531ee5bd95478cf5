/* benchmarks/kmeans/kernels.cu — k-means clustering, device part.
 *
 *   kmeans_invert  transposes the point-major feature table (as read from a
 *                  file) into feature-major order, so that consecutive
 *                  threads read consecutive addresses;
 *   kmeans_assign  one thread per point: squared Euclidean distance to every
 *                  centroid (centroids in constant memory, refreshed by the
 *                  host each iteration), nearest one wins (lowest index on a
 *                  tie); a point whose cluster changes bumps a global counter.
 * The host recomputes the centroids between launches. */

#define KM_MAX_CLUSTERS 16
#define KM_MAX_FEATURES 64

__constant__ float c_clusters[KM_MAX_CLUSTERS * KM_MAX_FEATURES];

extern "C" __global__ void kmeans_invert(const float *points, float *features,
                                         int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    for (int f = 0; f < nfeatures; f++)
        features[f * npoints + p] = points[p * nfeatures + f];
}

extern "C" __global__ void kmeans_assign(const float *features, int npoints,
                                         int nfeatures, int nclusters,
                                         int *membership, int *delta)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    int best = 0;
    float best_dist = 3.402823466e38f;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float d = features[f * npoints + p] - c_clusters[c * nfeatures + f];
            dist = fmaf(d, d, dist);
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    if (membership[p] != best) {
        membership[p] = best;
        atomicAdd(delta, 1);
    }
}
