/* timing/coresident.c — how many CTAs of a kernel a GPU config holds at
 * once: the bound a cooperative launch (grid-wide sync) must respect, since
 * a grid barrier deadlocks when some CTAs wait for others that cannot be
 * placed.  The same occupancy rules as a timing launch (timing/sm_cta.c). */
#include "timing/gpu.h"
#include "timing/sm.h"

uint32_t tm_coresident_ctas(const gpu_config *c, const ex_func *kernel, uint32_t threads,
                            uint32_t shared, uint32_t regs_per_thread, const char **why)
{
    tm_cta_req req;
    req.threads = threads;
    req.warps = (threads + c->gpu.warp_size - 1) / c->gpu.warp_size;
    req.shared = shared;
    uint32_t regs = regs_per_thread ? regs_per_thread : c->core.regs_per_thread;
    if (!regs) { /* estimated from the PTX as a timing launch does */
        tm_func *f = tm_func_build(c, kernel);
        regs = (f->regs32 + 1) & ~1u;
        tm_func_free(f);
        if (regs < 4)
            regs = 4;
        if (regs > 255)
            regs = 255;
        uint32_t cap = c->core.registers / (req.warps * c->gpu.warp_size);
        if (regs > cap)
            regs = cap & ~1u;
    }
    req.regs = regs * req.warps * c->gpu.warp_size;
    return tm_sm_fit_empty(c, &req, why) * c->gpu.num_sms;
}
