/* tests/cuda/check.h — what the CUDA test programs share: CHECK fails the
 * program with the call, its location and the error's name; EXPECT_ERR
 * checks that a call returns one documented error code. */
#ifndef PTXEMU_TESTS_CUDA_CHECK_H
#define PTXEMU_TESTS_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            std::fprintf(stderr, "FAIL %s:%d: %s -> %s (%d)\n", __FILE__, __LINE__, \
                         #call, cudaGetErrorName(e_), (int)e_);                  \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

#define EXPECT_ERR(call, want)                                                   \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != (want)) {                                                      \
            std::fprintf(stderr, "FAIL %s:%d: %s -> %s (%d), expected %s (%d)\n", \
                         __FILE__, __LINE__, #call, cudaGetErrorName(e_), (int)e_, \
                         #want, (int)(want));                                    \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

#define REQUIRE(cond)                                                            \
    do {                                                                         \
        if (!(cond)) {                                                           \
            std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);  \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

#endif
