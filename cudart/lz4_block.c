/* cudart/lz4_block.c — LZ4 block decoding, written from the LZ4 block
 * format description: a block is a run of sequences; each starts with a
 * token whose high nibble is the literal count and low nibble the match
 * length minus 4 (15 in either means "add the following bytes until one is
 * not 255"), then the literals, then a 2-byte little-endian match offset
 * back into the output.  The last sequence has literals only. */
#include "cudart/lz4_block.h"

/* Reads an extended length: adds bytes while they are 255. */
static bool read_len(const uint8_t **p, const uint8_t *end, size_t *len)
{
    uint8_t b;
    do {
        if (*p >= end)
            return false;
        b = *(*p)++;
        *len += b;
    } while (b == 255);
    return true;
}

bool lz4_block_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len)
{
    const uint8_t *p = src, *end = src + src_len;
    size_t out = 0;
    while (p < end) {
        uint8_t token = *p++;
        size_t lit = token >> 4;
        if (lit == 15 && !read_len(&p, end, &lit))
            return false;
        if (lit > (size_t)(end - p) || lit > dst_len - out)
            return false;
        for (size_t i = 0; i < lit; i++)
            dst[out++] = p[i];
        p += lit;
        if (p == end)
            break; /* the last sequence: literals only */
        if (end - p < 2)
            return false;
        size_t off = (size_t)p[0] | (size_t)p[1] << 8;
        p += 2;
        size_t mlen = token & 15u;
        if (mlen == 15 && !read_len(&p, end, &mlen))
            return false;
        mlen += 4;
        if (off == 0 || off > out || mlen > dst_len - out)
            return false;
        /* byte by byte: a match may overlap the bytes it produces */
        for (size_t i = 0; i < mlen; i++, out++)
            dst[out] = dst[out - off];
    }
    return out == dst_len;
}
