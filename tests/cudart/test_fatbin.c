/* tests/cudart/test_fatbin.c — the fatbinary reader of the drop-in
 * libcudart without a CUDA toolkit: the LZ4 block decoder on hand-encoded
 * blocks, entry parsing, the choice of the newest PTX not above the
 * target, compressed PTX, SASS-only and damaged images. */
#include "cudart/cuda_abi.h"
#include "cudart/fatbin.h"
#include "cudart/lz4_block.h"
#include "fatbin_build.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static void test_lz4_match_and_lengths(void **state)
{
    (void)state;
    /* "abc", then a 9-byte match 3 back (overlapping its own output), then "X" */
    const uint8_t block[] = {0x35, 'a', 'b', 'c', 3, 0, 0x10, 'X'};
    uint8_t out[13];
    assert_true(lz4_block_decode(block, sizeof block, out, sizeof out));
    assert_memory_equal(out, "abcabcabcabcX", 13);
    /* 15 + 5 literals (extended literal length), then a 15 + 10 + 4 = 29
     * byte run of the last literal (extended match length, offset 1) */
    uint8_t ext[2 + 20 + 3 + 1];
    ext[0] = 0xff;
    ext[1] = 5;
    for (int i = 0; i < 20; i++)
        ext[2 + i] = (uint8_t)('a' + i);
    ext[22] = 1, ext[23] = 0, ext[24] = 10;
    ext[25] = 0x00; /* an empty last sequence */
    uint8_t big[49];
    assert_true(lz4_block_decode(ext, sizeof ext, big, sizeof big));
    assert_memory_equal(big, "abcdefghijklmnopqrst", 20);
    for (int i = 20; i < 49; i++)
        assert_int_equal(big[i], 't');
}

static void test_lz4_malformed(void **state)
{
    (void)state;
    uint8_t out[16];
    const uint8_t zero_offset[] = {0x14, 'a', 0, 0, 0x00};
    assert_false(lz4_block_decode(zero_offset, sizeof zero_offset, out, 9));
    const uint8_t far_offset[] = {0x14, 'a', 2, 0, 0x00};
    assert_false(lz4_block_decode(far_offset, sizeof far_offset, out, 9));
    const uint8_t short_literals[] = {0x50, 'a', 'b'};
    assert_false(lz4_block_decode(short_literals, sizeof short_literals, out, 5));
    const uint8_t too_long[] = {0x30, 'a', 'b', 'c'};
    assert_false(lz4_block_decode(too_long, sizeof too_long, out, 2)); /* output too small */
    assert_false(lz4_block_decode(too_long, sizeof too_long, out, 4)); /* output not filled */
}

static const char PTX52[] = "// ptx 52\n", PTX75[] = "// ptx for compute_75\n",
                  PTX86[] = "// ptx 86, a little longer\n", ELF[] = "\x7f" "ELF....";

static GArray *parse(GByteArray *img)
{
    GArray *entries = g_array_new(FALSE, FALSE, sizeof(fatbin_entry));
    GError *err = NULL;
    assert_true(fatbin_parse(img->data, img->len, entries, &err));
    assert_null(err);
    return entries;
}

static void test_parse_fields(void **state)
{
    (void)state;
    fb_spec s[] = {{1, 75, 0, PTX75, sizeof PTX75 - 1, 0}, {2, 75, 0, ELF, 8, 0}};
    GByteArray *img = fb_build(s, 2);
    GArray *e = parse(img);
    assert_int_equal(e->len, 2);
    fatbin_entry *p = &g_array_index(e, fatbin_entry, 0);
    assert_int_equal(p->kind, FATBIN_KIND_PTX);
    assert_int_equal(p->arch, 75);
    assert_int_equal(p->ptx_major, 9);
    assert_int_equal(p->ptx_minor, 0);
    assert_int_equal(p->payload_size, 24); /* 22 bytes padded to 8 */
    assert_memory_equal(p->payload, PTX75, sizeof PTX75 - 1);
    fatbin_entry *q = &g_array_index(e, fatbin_entry, 1);
    assert_int_equal(q->kind, FATBIN_KIND_ELF);
    assert_memory_equal(q->payload, ELF, 8);
    /* the wrapper nvcc emits points at the image */
    fatbin_wrapper w = {(int)FATBINC_MAGIC, 1, (const unsigned long long *)img->data, NULL};
    assert_ptr_equal(fatbin_image(&w, NULL), img->data);
    assert_ptr_equal(fatbin_image(img->data, NULL), img->data);
    fatbin_wrapper bad = {0x1234, 1, NULL, NULL};
    GError *err = NULL;
    assert_null(fatbin_image(&bad, &err));
    assert_non_null(strstr(err->message, "0x466243b1"));
    g_error_free(err);
    g_array_free(e, TRUE);
    g_byte_array_free(img, TRUE);
}

static char *pick(GByteArray *img, uint32_t target, uint32_t *arch, GError **err)
{
    GArray *e = parse(img);
    char *t = fatbin_pick_ptx(e, target, arch, err);
    g_array_free(e, TRUE);
    return t;
}

static void test_pick_newest_not_above_target(void **state)
{
    (void)state;
    fb_spec s[] = {{1, 75, 0, PTX75, sizeof PTX75 - 1, 0},
                   {2, 86, 0, ELF, 8, 0},
                   {1, 86, 0, PTX86, sizeof PTX86 - 1, 0},
                   {1, 52, 0, PTX52, sizeof PTX52 - 1, 0}};
    GByteArray *img = fb_build(s, 4);
    uint32_t arch = 0;
    char *t = pick(img, 80, &arch, NULL);
    assert_string_equal(t, PTX75); /* NUL padding ends the text */
    assert_int_equal(arch, 75);
    g_free(t);
    t = pick(img, 90, &arch, NULL);
    assert_string_equal(t, PTX86);
    assert_int_equal(arch, 86);
    g_free(t);
    t = pick(img, 86, &arch, NULL); /* equal to the target is allowed */
    assert_int_equal(arch, 86);
    g_free(t);
    t = pick(img, 60, &arch, NULL);
    assert_string_equal(t, PTX52);
    g_free(t);
    GError *err = NULL;
    assert_null(pick(img, 50, &arch, &err));
    assert_int_equal(err->code, FATBIN_ERROR_NO_TARGET);
    assert_non_null(strstr(err->message, "compute_75, compute_86, compute_52"));
    g_error_free(err);
    g_byte_array_free(img, TRUE);
}

static void test_sass_only(void **state)
{
    (void)state;
    fb_spec s[] = {{2, 75, 0, ELF, 8, 0}, {2, 86, 0, ELF, 8, 0}};
    GByteArray *img = fb_build(s, 2);
    GError *err = NULL;
    assert_null(pick(img, 90, NULL, &err));
    assert_int_equal(err->code, FATBIN_ERROR_SASS_ONLY);
    assert_non_null(strstr(err->message, "-gencode arch=compute_XX,code=compute_XX"));
    assert_non_null(strstr(err->message, "2 SASS entries"));
    g_error_free(err);
    g_byte_array_free(img, TRUE);
}

static void test_lz4_entry(void **state)
{
    (void)state;
    const char text[] = "// a PTX text long enough to need an extended literal length\n";
    GByteArray *z = fb_lz4_literals(text, sizeof text - 1);
    fb_spec s[] = {{1, 75, 0x2000, z->data, z->len, sizeof text - 1}};
    GByteArray *img = fb_build(s, 1);
    uint32_t arch = 0;
    char *t = pick(img, 90, &arch, NULL);
    assert_string_equal(t, text);
    g_free(t);
    /* a damaged block is an error, not garbage */
    img->data[16 + 80 + 1] ^= 0x7f;
    GError *err = NULL;
    assert_null(pick(img, 90, &arch, &err));
    assert_int_equal(err->code, FATBIN_ERROR_COMPRESSION);
    g_error_free(err);
    g_byte_array_free(img, TRUE);
    g_byte_array_free(z, TRUE);
}

static void test_damaged(void **state)
{
    (void)state;
    fb_spec s[] = {{1, 75, 0, PTX75, sizeof PTX75 - 1, 0}};
    GByteArray *img = fb_build(s, 1);
    GArray *e = g_array_new(FALSE, FALSE, sizeof(fatbin_entry));
    GError *err = NULL;
    /* cut short: the header's size runs past what is there */
    assert_false(fatbin_parse(img->data, img->len - 8, e, &err));
    assert_int_equal(err->code, FATBIN_ERROR_FORMAT);
    g_clear_error(&err);
    /* an entry whose payload size runs past the fatbin */
    GByteArray *bad = g_byte_array_new();
    g_byte_array_append(bad, img->data, img->len);
    bad->data[16 + 8] = 0xff;
    assert_false(fatbin_parse(bad->data, bad->len, e, &err));
    assert_non_null(strstr(err->message, "runs past the end"));
    g_clear_error(&err);
    bad->data[0] = 0;
    assert_false(fatbin_parse(bad->data, bad->len, e, &err));
    assert_non_null(strstr(err->message, "magic"));
    g_clear_error(&err);
    g_byte_array_free(bad, TRUE);
    g_array_free(e, TRUE);
    g_byte_array_free(img, TRUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lz4_match_and_lengths),
        cmocka_unit_test(test_lz4_malformed),
        cmocka_unit_test(test_parse_fields),
        cmocka_unit_test(test_pick_newest_not_above_target),
        cmocka_unit_test(test_sass_only),
        cmocka_unit_test(test_lz4_entry),
        cmocka_unit_test(test_damaged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
