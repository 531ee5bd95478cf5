/* cudart/lz4_block.h — decoder for the LZ4 block format (the framing-less
 * format nvcc --compress-mode=speed uses for fatbinary entries). */
#ifndef PTXEMU_CUDART_LZ4_BLOCK_H
#define PTXEMU_CUDART_LZ4_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes `src` into exactly `dst_len` bytes; false on malformed input
 * (never reads or writes out of bounds). */
bool lz4_block_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len);

#endif
