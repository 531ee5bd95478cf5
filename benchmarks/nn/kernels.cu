// nn: Rodinia-style nearest neighbour search.  Each record is a
// (latitude, longitude) pair; one thread per record computes its Euclidean
// distance, in degrees, to the query point.  The host then picks the k
// nearest records.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void nn_distance(const float2 *loc, float *dist, int n,
                                       float lat, float lng)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 p = loc[i];
        float dx = lat - p.x;
        float dy = lng - p.y;
        dist[i] = sqrtf(dx * dx + dy * dy);
    }
}
