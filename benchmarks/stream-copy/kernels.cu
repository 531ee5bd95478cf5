// stream-copy: dst[i] = src[i] over n float4s, one float4 per thread (the
// STREAM "copy" kernel).  A warp's 16-byte loads and stores cover four
// consecutive 128-byte lines, so every access is fully coalesced; with
// enough CTAs the copy is limited by DRAM bandwidth alone.
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void stream_copy(const float4 *src, float4 *dst, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}
