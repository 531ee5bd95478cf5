// aes: AES-128 encryption (ECB) of 16-byte blocks, one block per thread,
// in the T-table formulation: rounds 1-9 are four table lookups and XORs per
// state column, the last round uses the S-box.  The round keys, the four
// T-tables and the S-box are set by the host in constant memory; each CTA
// first copies the tables into shared memory.  Written for ptxemu.
// State words are big-endian column words: byte 0 of a column is bits 31-24.

#define AES_THREADS 256

__constant__ unsigned c_round_keys[44];
__constant__ unsigned c_te[4][256];
__constant__ unsigned char c_sbox[256];

__device__ __forceinline__ unsigned aes_bswap(unsigned x)
{
    return __byte_perm(x, 0, 0x0123);
}

extern "C" __global__ void aes128_encrypt_ecb(uint4 *out, const uint4 *in,
                                              unsigned nblocks)
{
    __shared__ unsigned te[4][256];
    __shared__ unsigned char sbox[256];
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) {
        te[0][i] = c_te[0][i];
        te[1][i] = c_te[1][i];
        te[2][i] = c_te[2][i];
        te[3][i] = c_te[3][i];
        sbox[i] = c_sbox[i];
    }
    __syncthreads();

    const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nblocks)
        return;

    uint4 block = in[b];
    unsigned s0 = aes_bswap(block.x) ^ c_round_keys[0];
    unsigned s1 = aes_bswap(block.y) ^ c_round_keys[1];
    unsigned s2 = aes_bswap(block.z) ^ c_round_keys[2];
    unsigned s3 = aes_bswap(block.w) ^ c_round_keys[3];

    for (int r = 1; r < 10; r++) {
        unsigned t0 = te[0][s0 >> 24] ^ te[1][(s1 >> 16) & 0xff] ^
                      te[2][(s2 >> 8) & 0xff] ^ te[3][s3 & 0xff] ^ c_round_keys[4 * r];
        unsigned t1 = te[0][s1 >> 24] ^ te[1][(s2 >> 16) & 0xff] ^
                      te[2][(s3 >> 8) & 0xff] ^ te[3][s0 & 0xff] ^ c_round_keys[4 * r + 1];
        unsigned t2 = te[0][s2 >> 24] ^ te[1][(s3 >> 16) & 0xff] ^
                      te[2][(s0 >> 8) & 0xff] ^ te[3][s1 & 0xff] ^ c_round_keys[4 * r + 2];
        unsigned t3 = te[0][s3 >> 24] ^ te[1][(s0 >> 16) & 0xff] ^
                      te[2][(s1 >> 8) & 0xff] ^ te[3][s2 & 0xff] ^ c_round_keys[4 * r + 3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }

    unsigned o0 = ((unsigned)sbox[s0 >> 24] << 24) ^ ((unsigned)sbox[(s1 >> 16) & 0xff] << 16) ^
                  ((unsigned)sbox[(s2 >> 8) & 0xff] << 8) ^ sbox[s3 & 0xff] ^ c_round_keys[40];
    unsigned o1 = ((unsigned)sbox[s1 >> 24] << 24) ^ ((unsigned)sbox[(s2 >> 16) & 0xff] << 16) ^
                  ((unsigned)sbox[(s3 >> 8) & 0xff] << 8) ^ sbox[s0 & 0xff] ^ c_round_keys[41];
    unsigned o2 = ((unsigned)sbox[s2 >> 24] << 24) ^ ((unsigned)sbox[(s3 >> 16) & 0xff] << 16) ^
                  ((unsigned)sbox[(s0 >> 8) & 0xff] << 8) ^ sbox[s1 & 0xff] ^ c_round_keys[42];
    unsigned o3 = ((unsigned)sbox[s3 >> 24] << 24) ^ ((unsigned)sbox[(s0 >> 16) & 0xff] << 16) ^
                  ((unsigned)sbox[(s1 >> 8) & 0xff] << 8) ^ sbox[s2 & 0xff] ^ c_round_keys[43];
    out[b] = make_uint4(aes_bswap(o0), aes_bswap(o1), aes_bswap(o2), aes_bswap(o3));
}
