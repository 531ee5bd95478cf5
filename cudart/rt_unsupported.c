/* cudart/rt_unsupported.c — the rest of libcudart.so.13's interface.
 * A program linked against the real library references these names, so
 * they must exist for it to load; calling one returns
 * cudaErrorNotSupported and names it on stderr once. */
#include "cudart/rt.h"

#define CUDART_EXPORT __attribute__((visibility("default")))

/* Declared without parameters: the caller's arguments are ignored, which
 * the x86-64 calling convention makes safe for any argument list. */
#define CUDART_UNSUPPORTED(name)                                          \
    CUDART_EXPORT cudaError_t name(void);                                 \
    cudaError_t name(void)                                                \
    {                                                                     \
        cudart *rt = rt_enter();                                          \
        return rt_leave(rt, rt_unsupported(rt, #name));                   \
    }
#include "cudart/unsupported.def"
#undef CUDART_UNSUPPORTED

/* struct cudaChannelFormatDesc: returned by value, so it cannot be a stub. */
struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f;
};

CUDART_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    return (struct cudaChannelFormatDesc){x, y, z, w, f};
}
