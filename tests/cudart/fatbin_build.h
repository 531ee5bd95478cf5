/* tests/cudart/fatbin_build.h — builds fatbinary images in memory for the
 * tests that need no CUDA toolkit, in the layout cudart/fatbin.h describes
 * (the test writes the bytes field by field, so a parser that read a field
 * from the wrong offset fails). */
#ifndef PTXEMU_TESTS_CUDART_FATBIN_BUILD_H
#define PTXEMU_TESTS_CUDART_FATBIN_BUILD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct fb_spec {
    uint16_t kind;               /* 1 PTX, 2 ELF */
    uint32_t arch;
    uint64_t flags;              /* 0x2000: payload is LZ4 */
    const void *payload;
    size_t payload_len;          /* stored bytes */
    size_t uncompressed_len;     /* for compressed payloads */
} fb_spec;

static inline void fb_put(GByteArray *a, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        uint8_t b = (uint8_t)(v >> (8 * i));
        g_byte_array_append(a, &b, 1);
    }
}

/* A whole fatbin: 16-byte header, then 80-byte entry headers (as nvcc
 * writes them) each followed by its payload padded to 8 bytes. */
static inline GByteArray *fb_build(const fb_spec *e, unsigned n)
{
    GByteArray *body = g_byte_array_new();
    for (unsigned i = 0; i < n; i++) {
        size_t padded = (e[i].payload_len + 7) / 8 * 8;
        bool compressed = e[i].flags & 0xa000u;
        fb_put(body, e[i].kind, 2);
        fb_put(body, 0x0101, 2);
        fb_put(body, 80, 4);                       /* header size */
        fb_put(body, padded, 8);                   /* payload bytes */
        fb_put(body, compressed ? e[i].payload_len : 0, 4);
        fb_put(body, 64, 4);
        fb_put(body, 0, 2);                        /* PTX ISA minor */
        fb_put(body, 9, 2);                        /* PTX ISA major */
        fb_put(body, e[i].arch, 4);
        fb_put(body, 0, 4);
        fb_put(body, 0, 4);
        fb_put(body, e[i].flags | 0x11u, 8);       /* 64-bit, Linux */
        fb_put(body, 0, 8);
        fb_put(body, compressed ? e[i].uncompressed_len : 0, 8);
        fb_put(body, 0x48, 8);
        fb_put(body, 0, 8);
        g_byte_array_append(body, e[i].payload, (guint)e[i].payload_len);
        for (size_t p = e[i].payload_len; p < padded; p++)
            fb_put(body, 0, 1);
    }
    GByteArray *a = g_byte_array_new();
    fb_put(a, 0xBA55ED50u, 4);
    fb_put(a, 1, 2);
    fb_put(a, 16, 2);
    fb_put(a, body->len, 8);
    g_byte_array_append(a, body->data, body->len);
    g_byte_array_free(body, TRUE);
    return a;
}

/* An LZ4 block holding `text` as one literals-only sequence (valid LZ4:
 * the last sequence of a block carries literals only). */
static inline GByteArray *fb_lz4_literals(const char *text, size_t n)
{
    GByteArray *a = g_byte_array_new();
    if (n < 15) {
        fb_put(a, (uint64_t)n << 4, 1);
    } else {
        fb_put(a, 0xf0, 1);
        size_t rest = n - 15;
        for (; rest >= 255; rest -= 255)
            fb_put(a, 255, 1);
        fb_put(a, rest, 1);
    }
    g_byte_array_append(a, (const guint8 *)text, (guint)n);
    return a;
}

#endif
