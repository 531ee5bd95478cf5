// Exercises: 2D indexing, shared-memory tile with halo, __syncthreads, 5-point stencil.
#define TX 16
#define TY 16

extern "C" __global__ void stencil5(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TY + 2][TX + 2];
    int x = blockIdx.x * TX + threadIdx.x;
    int y = blockIdx.y * TY + threadIdx.y;
    int lx = threadIdx.x + 1;
    int ly = threadIdx.y + 1;
    int cx = min(x, w - 1);
    int cy = min(y, h - 1);

    tile[ly][lx] = in[cy * w + cx];
    if (threadIdx.x == 0)
        tile[ly][0] = in[cy * w + max(cx - 1, 0)];
    if (threadIdx.x == TX - 1)
        tile[ly][TX + 1] = in[cy * w + min(cx + 1, w - 1)];
    if (threadIdx.y == 0)
        tile[0][lx] = in[max(cy - 1, 0) * w + cx];
    if (threadIdx.y == TY - 1)
        tile[TY + 1][lx] = in[min(cy + 1, h - 1) * w + cx];
    __syncthreads();

    if (x < w && y < h)
        out[y * w + x] = 0.5f * tile[ly][lx]
                       + 0.125f * (tile[ly][lx - 1] + tile[ly][lx + 1]
                                 + tile[ly - 1][lx] + tile[ly + 1][lx]);
}
