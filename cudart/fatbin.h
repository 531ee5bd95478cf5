/* cudart/fatbin.h — the PTX inside an nvcc fatbinary.
 *
 * Layout (little-endian), as nvcc 13 writes it:
 *   fatbin header, 16 bytes: u32 magic 0xBA55ED50, u16 version, u16 header
 *   size, u64 bytes of entries that follow the header;
 *   entries, each a header then its payload: u16 kind (1 PTX, 2 ELF/SASS),
 *   u16 version, u32 header size, u64 payload bytes, u32 compressed bytes,
 *   u32 (unused here), u16 PTX ISA minor, u16 PTX ISA major, u32 arch
 *   (75 = compute_75 / sm_75), u32 name offset, u32 name length, u64 flags,
 *   u64 (unused), u64 uncompressed bytes.
 *   Flags: 0x1 64-bit, 0x2000 payload LZ4 (block format), 0x8000 payload
 *   Zstandard.  PTX payloads are text, NUL-padded. */
#ifndef PTXEMU_CUDART_FATBIN_H
#define PTXEMU_CUDART_FATBIN_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_KIND_PTX 1u
#define FATBIN_KIND_ELF 2u
#define FATBIN_FLAG_LZ4 0x2000u
#define FATBIN_FLAG_ZSTD 0x8000u

typedef struct fatbin_entry {
    uint16_t kind;
    uint32_t arch;               /* e.g. 75 */
    uint16_t ptx_major, ptx_minor;
    uint64_t flags;
    const uint8_t *payload;      /* points into the image */
    uint64_t payload_size;       /* stored bytes */
    uint64_t compressed_size, uncompressed_size;
} fatbin_entry;

#define FATBIN_ERROR (fatbin_error_quark())
GQuark fatbin_error_quark(void);
enum {
    FATBIN_ERROR_FORMAT,         /* not a fatbinary, or damaged */
    FATBIN_ERROR_SASS_ONLY,      /* machine code but no PTX */
    FATBIN_ERROR_NO_TARGET,      /* PTX only for targets above the config's */
    FATBIN_ERROR_COMPRESSION,    /* cannot decompress an entry */
};

/* Parses the fatbin at `image` (its header first): appends a fatbin_entry
 * per entry to `entries` (GArray of fatbin_entry).  `limit` bounds how far
 * it may read (0 = trust the header's sizes, as for a registered binary). */
bool fatbin_parse(const void *image, size_t limit, GArray *entries, GError **error);

/* The image behind what __cudaRegisterFatBinary receives: the wrapper
 * struct of fatbinary_section.h, or a fatbin header directly. */
const void *fatbin_image(const void *registered, GError **error);

/* A program built with -rdc=true registers the device-linked binary, a
 * version-2 wrapper whose second pointer lists (NULL-terminated) the
 * relocatable fatbinary of every translation unit; nvlink links machine
 * code only, so the PTX is in those.  NULL for any other wrapper. */
const void *const *fatbin_prelinked(const void *registered);

/* The PTX of the newest PTX entry whose arch is not above `target`, as
 * NUL-terminated text (g_free it); its arch in *arch. */
char *fatbin_pick_ptx(const GArray *entries, uint32_t target, uint32_t *arch, GError **error);

/* An entry's payload decompressed (or copied), NUL-terminated; size in *len. */
uint8_t *fatbin_entry_data(const fatbin_entry *e, size_t *len, GError **error);

#endif
