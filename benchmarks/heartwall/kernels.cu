// heartwall/kernels.cu — one frame of heart-wall tracking by template
// matching.  One CTA per tracked point: the CTA stages the point's template
// (a TPL x TPL patch of the first frame around the point's starting
// position) and the search window of the current frame (the patch around
// the point's position in the previous frame, widened by RAD on each side)
// in shared memory; thread c scores displacement c of the (2 RAD + 1)^2
// candidates by the sum of squared differences; a shared-memory tree finds
// the best (lowest score, then lowest candidate index) and thread 0 moves the
// point.  Written for ptxemu from the algorithm (template matching on
// ultrasound frames), not from Rodinia's source.

#define TPL 16
#define RAD 7
#define SIDE (2 * RAD + 1)       // 15 candidates per axis
#define WIN (TPL + 2 * RAD)      // 30 x 30 search window
#define THREADS 256

extern "C" __global__ void heart_track(const unsigned char *first, const unsigned char *frame,
                                       int w, int h, const int *start, const int *prev,
                                       int *next, unsigned *score)
{
    __shared__ unsigned char tpl[TPL * TPL];
    __shared__ unsigned char win[WIN * WIN];
    __shared__ unsigned best_ssd[THREADS];
    __shared__ int best_idx[THREADS];

    int p = blockIdx.x, t = threadIdx.x;
    int sx = start[2 * p], sy = start[2 * p + 1];   // template's top-left corner
    int px = prev[2 * p], py = prev[2 * p + 1];     // window centre = last position
    int wx = px - RAD, wy = py - RAD;               // window's top-left corner

    // phase 1: stage the template and the window
    for (int i = t; i < TPL * TPL; i += THREADS)
        tpl[i] = first[(sy + i / TPL) * w + sx + i % TPL];
    for (int i = t; i < WIN * WIN; i += THREADS)
        win[i] = frame[(wy + i / WIN) * w + wx + i % WIN];
    __syncthreads();

    // phase 2: one candidate displacement per thread
    unsigned ssd = 0xffffffffu;
    if (t < SIDE * SIDE) {
        int dy = t / SIDE, dx = t % SIDE;
        ssd = 0;
        for (int y = 0; y < TPL; y++) {
            const unsigned char *wr = win + (dy + y) * WIN + dx;
            const unsigned char *tr = tpl + y * TPL;
            for (int x = 0; x < TPL; x++) {
                int d = (int)wr[x] - (int)tr[x];
                ssd += (unsigned)(d * d);
            }
        }
    }
    best_ssd[t] = ssd;
    best_idx[t] = t;
    __syncthreads();

    // phase 3: arg-min tree, ties to the lower candidate index
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) {
            unsigned o = best_ssd[t + s];
            int oi = best_idx[t + s];
            if (o < best_ssd[t] || (o == best_ssd[t] && oi < best_idx[t])) {
                best_ssd[t] = o;
                best_idx[t] = oi;
            }
        }
        __syncthreads();
    }

    // phase 4: move the point, keeping its next window inside the frame
    if (t == 0) {
        int b = best_idx[0];
        int nx = px + b % SIDE - RAD, ny = py + b / SIDE - RAD;
        nx = min(max(nx, RAD), w - TPL - RAD);
        ny = min(max(ny, RAD), h - TPL - RAD);
        next[2 * p] = nx;
        next[2 * p + 1] = ny;
        score[p] = best_ssd[0];
    }
}
