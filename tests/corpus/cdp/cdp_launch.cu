// Device-side launches (CUDA dynamic parallelism, CDP2) for tests/runtime/test_cdp.c.
// Compiled by scripts/regen-ptx.sh with nvcc -rdc=true -arch=sm_90 -ptx; the test
// runs the committed PTX and checks every result against a value computed on the CPU.

// a[i] += v for i < n (atomically: sibling grids may run at the same time)
__global__ void add(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&a[i], v);
}

// Thread 0 of every block launches into a named stream (the whole array,
// + block + 1), the tail-launch stream (+100 on the first 32), the
// fire-and-forget stream (+1000 on the first 32) and the NULL stream (+7 on
// the first 32).
__global__ void streams(int *a, int n)
{
    if (threadIdx.x == 0) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        add<<<(n + 31) / 32, 32, 0, s>>>(a, n, blockIdx.x + 1);
        add<<<1, 32, 0, cudaStreamTailLaunch>>>(a, n, 100);
        add<<<1, 32, 0, cudaStreamFireAndForget>>>(a, n, 1000);
        add<<<1, 32>>>(a, n, 7);
        cudaStreamDestroy(s);
    }
}

// Every block counts itself at its depth and, below `maxdepth`, launches two
// blocks one level deeper: 1, 2, 4, 8... blocks per level.
__global__ void nest(int *count, int depth, int maxdepth)
{
    atomicAdd(&count[depth], 1);
    if (depth < maxdepth)
        nest<<<2, 1>>>(count, depth + 1, maxdepth);
}

// a[i] = 3 * i
__global__ void produce(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 3 * i;
}

// *out = the sum of a[0..n)
__global__ void consume(const int *a, int n, int *out)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    *out = s;
}

// The child writes a; the tail launch, which starts only after this grid and
// its other work are complete, reads what the child wrote.
__global__ void produce_then_consume(int *a, int n, int *out)
{
    produce<<<(n + 63) / 64, 64>>>(a, n);
    consume<<<1, 1, 0, cudaStreamTailLaunch>>>(a, n, out);
}

// Every thread launches one child: blockDim.x * gridDim.x launches in all.
__global__ void fan(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    add<<<1, 32>>>(a + i * 32, 32, i);
}

// One block per level down to `maxdepth`: count[d] = 1 for every level d.
__global__ void chain(int *count, int depth, int maxdepth)
{
    count[depth] += 1;
    if (depth < maxdepth)
        chain<<<1, 1>>>(count, depth + 1, maxdepth);
}
