/* isa/intops.c — the less frequent integer instructions (the hot ones are
 * static inline in intops.h). */
#include "isa/intops.h"

#include <string.h>

uint32_t ptx_int_bmsk(uint32_t a, uint32_t b, bool clamp)
{
    /* Follows the ISA pseudo-code; shifts of 32 are spelled out because C
     * leaves them undefined. */
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~UINT32_C(0) << a1;
    bool pos_over = false, width_over = false;
    if (clamp) {
        if (a >= 32) {
            pos_over = true;
            mask0 = 0;
        }
        if (b >= 32)
            width_over = true;
    }
    uint32_t mask1;
    if (sum >= 32 || pos_over || width_over)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~UINT32_C(0);
    else
        mask1 = ~UINT32_C(0) << sum;
    return mask0 & ~mask1;
}

uint32_t ptx_int_szext(uint32_t a, uint32_t b, bool clamp, bool sgn)
{
    uint32_t b1 = b & 0x1f;
    bool too_large = clamp && b >= 32;
    /* mask covers the bits above the N-bit field. */
    uint32_t mask = too_large ? 0 : ~UINT32_C(0) << b1;
    bool sign_bit = false;
    if (b1 != 0 && !too_large && sgn)
        sign_bit = (a >> ((b1 - 1) & 0x1f)) & 1;
    return (a & ~mask) | (sign_bit ? mask : 0);
}

uint32_t ptx_int_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31)
        return 0xffffffffu;
    if (offset == 0)
        return (mask >> base) & 1 ? base : 0xffffffffu;
    /* |offset| as unsigned so INT32_MIN does not overflow. */
    uint32_t count = (offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset) - 1;
    int step = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step) {
        if ((mask >> pos) & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    }
    return 0xffffffffu;
}

int ptx_int_prmt_mode_from_name(const char *s, unsigned len)
{
    static const char *const names[PTX_PRMT_MODE_COUNT] = {
        [PTX_PRMT_F4E] = "f4e", [PTX_PRMT_B4E] = "b4e",
        [PTX_PRMT_RC8] = "rc8", [PTX_PRMT_ECL] = "ecl",
        [PTX_PRMT_ECR] = "ecr", [PTX_PRMT_RC16] = "rc16",
    };
    for (int i = 1; i < PTX_PRMT_MODE_COUNT; i++) {
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    }
    return -1;
}
