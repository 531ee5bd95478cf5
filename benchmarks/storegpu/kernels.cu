// storegpu/kernels.cu — sliding-window MD5 hashing of a data buffer, as a
// content-addressable store does to find chunk boundaries and duplicate
// blocks.  Thread k hashes the 48-byte window that starts at byte 16 k
// (windows overlap by 32 bytes): the 12 message words, MD5 padding for a
// 384-bit message, one 64-step compression; the 4-word digest goes to
// digest[4k..4k+3].  The sine table comes from the host in `__constant__`.
// Written for ptxemu from RFC 1321, not from StoreGPU's source.

#define WIN_WORDS 12
#define STRIDE_WORDS 4

__constant__ unsigned md5_k[64];

__device__ static unsigned rotl(unsigned x, int c) { return (x << c) | (x >> (32 - c)); }

extern "C" __global__ void md5_windows(const unsigned *data, unsigned nwin, unsigned *digest)
{
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nwin)
        return;
    const unsigned *w = data + (size_t)k * STRIDE_WORDS;
    unsigned m[16];
#pragma unroll
    for (int i = 0; i < WIN_WORDS; i++)
        m[i] = w[i];
    m[12] = 0x80u;
    m[13] = 0u;
    m[14] = WIN_WORDS * 32;   // message length in bits
    m[15] = 0u;

    const int sh[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    unsigned a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
#pragma unroll
    for (int i = 0; i < 64; i++) {
        unsigned f;
        int g;
        if (i < 16) {
            f = (b & c) | (~b & d);
            g = i;
        } else if (i < 32) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) & 15;
        } else if (i < 48) {
            f = b ^ c ^ d;
            g = (3 * i + 5) & 15;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) & 15;
        }
        unsigned t = d;
        d = c;
        c = b;
        b = b + rotl(a + f + md5_k[i] + m[g], sh[i / 16][i & 3]);
        a = t;
    }
    unsigned *out = digest + (size_t)k * 4;
    out[0] = 0x67452301u + a;
    out[1] = 0xefcdab89u + b;
    out[2] = 0x98badcfeu + c;
    out[3] = 0x10325476u + d;
}
