/* timing/config.h — the GPU configuration of the timing model.
 *
 * Every key lives in ONE table (the GPU_CFG_<group> X-macros below): group,
 * key, kind, default, valid range, unit and a one-line meaning.  The same
 * table generates the struct fields, drives the INI parser and its range
 * checks, writes configs back out, and prints the key reference that
 * configs/README.md embeds, so the four cannot drift apart.
 *
 * Files are GKeyFile INI: `[group]` headers and `key = value` lines;
 * comments go on their own lines (`#` or `;`).  A file only lists what
 * differs from the defaults; presets live in configs/<name>.ini. */
#ifndef PTXEMU_TIMING_CONFIG_H
#define PTXEMU_TIMING_CONFIG_H

#include "frontend/phase.h"
#include "isa/latency.h"
#include "sched/sched.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GPU_CONFIG_STR_LEN 64  /* text keys hold at most 63 bytes */
#define GPU_CONFIG_LIST_MAX SCHED_MAX_FILTERS /* entries of a list key (cta.filters) */

/* ------------------------------------------------------------ choices */
/* X(ENUM, "name in the INI file").  Values are stored as int32_t so the
 * struct stays plain data; compare them with the constants below. */

/* Scheduling-policy choices are not listed here: they are the policies
 * registered in sched/policies.def (sched_names_<level>), so a new policy
 * becomes a valid choice without touching this file. */
#define GPU_WRITE_POLICIES(X)                                                \
    X(EVICT, "write-evict") X(THROUGH, "write-through") X(BACK, "write-back")
#define GPU_REPLACEMENTS(X) X(LRU, "lru") X(FIFO, "fifo")
#define GPU_DRAM_SCHEDULERS(X) X(FR_FCFS, "fr-fcfs") X(FCFS, "fcfs")
/* l1d.set_index: linear (line index modulo sets) or the Fermi L1's XOR hash
 * (Nugteren et al., "A Detailed GPU Cache Model Based on Reuse Distance
 * Theory", HPCA 2014), which GPGPU-Sim's 'H' set-index function models */
#define GPU_SET_INDEXES(X) X(LINEAR, "linear") X(FERMI_HASH, "fermi-hash")
#define GPU_ICC_MODES(X) X(OFF, "off") X(ICC, "icc") X(ICC_CC, "icc-cc")
#define GPU_CDP_MODES(X) X(CDP, "cdp") X(DTBL, "dtbl")
/* warp.its: independent thread scheduling (runtime/its.c); auto = on for
 * modules whose .target is sm_70 or newer */
#define GPU_ITS_MODES(X) X(OFF, "off") X(ON, "on") X(AUTO, "auto")
/* sample.mode: sampled simulation (timing/sample.h, docs/sampling.md) */
#define GPU_SAMPLE_MODES(X) X(OFF, "off") X(ON, "on")

#define GPU_ENUM_ITEM(prefix, e) prefix##e,
typedef enum gpu_write_policy {
#define X(e, s) GPU_ENUM_ITEM(GPU_WRITE_, e)
    GPU_WRITE_POLICIES(X)
#undef X
} gpu_write_policy;
typedef enum gpu_replacement {
#define X(e, s) GPU_ENUM_ITEM(GPU_REPL_, e)
    GPU_REPLACEMENTS(X)
#undef X
} gpu_replacement;
typedef enum gpu_dram_scheduler {
#define X(e, s) GPU_ENUM_ITEM(GPU_DRAM_, e)
    GPU_DRAM_SCHEDULERS(X)
#undef X
} gpu_dram_scheduler;
typedef enum gpu_set_index {
#define X(e, s) GPU_ENUM_ITEM(GPU_SET_INDEX_, e)
    GPU_SET_INDEXES(X)
#undef X
} gpu_set_index;
typedef enum gpu_icc_mode {
#define X(e, s) GPU_ENUM_ITEM(GPU_ICC_, e)
    GPU_ICC_MODES(X)
#undef X
} gpu_icc_mode;
typedef enum gpu_cdp_mode {
#define X(e, s) GPU_ENUM_ITEM(GPU_CDP_, e)
    GPU_CDP_MODES(X)
#undef X
} gpu_cdp_mode;
typedef enum gpu_its_mode {
#define X(e, s) GPU_ENUM_ITEM(GPU_ITS_, e)
    GPU_ITS_MODES(X)
#undef X
} gpu_its_mode;
typedef enum gpu_sample_mode {
#define X(e, s) GPU_ENUM_ITEM(GPU_SAMPLE_, e)
    GPU_SAMPLE_MODES(X)
#undef X
} gpu_sample_mode;

/* NULL-terminated name arrays, indexed by the enums above. */
extern const char *const gpu_write_policy_names[];
extern const char *const gpu_replacement_names[];
extern const char *const gpu_dram_scheduler_names[];
extern const char *const gpu_set_index_names[];
extern const char *const gpu_icc_mode_names[];
extern const char *const gpu_cdp_mode_names[];
extern const char *const gpu_its_mode_names[];
extern const char *const gpu_sample_mode_names[];

/* An ordered list of choices (cta.filters: admission filters run in the
 * order written). */
typedef struct gpu_name_list {
    uint8_t count;
    uint8_t items[GPU_CONFIG_LIST_MAX];
} gpu_name_list;

/* ------------------------------------------------------------ the table */
/* X(group, key, KIND, default, min, max, flags, unit, names, meaning)
 * KIND: U32 (uint32_t), SIZE (uint64_t bytes; INI accepts K/M/G suffixes,
 * 1K = 1024), DBL (double), BOOL, ENUM (int32_t, `names` lists the
 * choices), LIST (gpu_name_list of `names`), STR (char[64]).
 * flags: GPU_KEY_POW2 = value must be a power of two.
 * Defaults describe a generic Fermi GPU (thesis Table 3.1 class). */
#define GPU_KEY_POW2 1u

#define GPU_CFG_gpu(X)                                                       \
    X(gpu, name, STR, "generic-fermi", 0, 0, 0, "", NULL,                    \
      "Name of the modelled GPU (shown in reports)")                         \
    X(gpu, num_sms, U32, 15, 1, 1024, 0, "SMs", NULL,                        \
      "Streaming multiprocessors (cores) on the chip; a multiple of "        \
      "gpu.sms_per_cluster")                                                 \
    X(gpu, sms_per_cluster, U32, 1, 1, 64, 0, "SMs", NULL,                   \
      "SMs per cluster; a cluster shares one NoC injection port and one "    \
      "ICC unit (clusters = num_sms / sms_per_cluster)")                     \
    X(gpu, warp_size, U32, 32, 32, 32, 0, "threads", NULL,                   \
      "Threads per warp (fixed: PTX semantics assume 32)")                  \
    X(gpu, compute_capability, U32, 90, 10, 129, 0, "major*10+minor", NULL,  \
      "Compute capability the drop-in libcudart reports, and the newest "    \
      "PTX target (compute_XX) it takes from a program's fatbinary")

#define GPU_CFG_clock(X)                                                     \
    X(clock, core, U32, 1300, 1, 10000, 0, "MHz", NULL,                      \
      "SM (shader) clock")                                                   \
    X(clock, icnt, U32, 1300, 1, 10000, 0, "MHz", NULL,                      \
      "Interconnect (NoC) clock")                                            \
    X(clock, l2, U32, 1300, 1, 10000, 0, "MHz", NULL, "L2 cache clock")      \
    X(clock, dram, U32, 1850, 1, 10000, 0, "MHz", NULL,                      \
      "DRAM clock as the papers quote it; data moves dram.data_rate times "  \
      "per clock")

#define GPU_CFG_core(X)                                                      \
    X(core, max_threads, U32, 1536, 32, 4096, 0, "threads", NULL,            \
      "Resident threads per SM; max warps = max_threads / warp_size")        \
    X(core, max_ctas, U32, 8, 1, 64, 0, "CTAs", NULL,                        \
      "Resident CTAs (thread blocks) per SM")                                \
    X(core, registers, U32, 32768, 1024, 1048576, 0, "registers", NULL,      \
      "32-bit registers per SM")                                             \
    X(core, regs_per_thread, U32, 0, 0, 255, 0, "registers", NULL,           \
      "Registers per thread for occupancy, every kernel; 0 = estimated from " \
      "each kernel's PTX (--regs-per-thread overrides both)")                \
    X(core, shared_mem, SIZE, 48 * 1024, 0, 1024 * 1024, 0, "bytes", NULL,   \
      "Shared memory per SM")                                                \
    X(core, shared_banks, U32, 32, 1, 64, GPU_KEY_POW2, "banks", NULL,       \
      "Shared-memory banks, 4 bytes wide; lanes hitting one bank serialise") \
    X(core, shared_latency, U32, 24, 1, 1000, 0, "core cycles", NULL,        \
      "Shared-memory access latency without bank conflicts")                 \
    X(core, warp_schedulers, U32, 2, 1, 8, 0, "schedulers", NULL,            \
      "Warp schedulers per SM; warps are split among them")                  \
    X(core, issue_width, U32, 1, 1, 4, 0, "instructions", NULL,              \
      "Warp instructions one scheduler may issue per issue slot (2 = dual "  \
      "issue)")                                                              \
    X(core, dispatch_interval, U32, 1, 1, 16, 0, "core cycles", NULL,        \
      "Cycles between two issue slots of one scheduler")                     \
    X(core, ibuffer_entries, U32, 2, 1, 16, 0, "instructions", NULL,         \
      "Decoded instructions buffered per warp by the fetch stage")

#define GPU_CFG_units(X)                                                     \
    X(units, sp, U32, 32, 1, 1024, 0, "lanes", NULL,                         \
      "Single-precision float and integer ALU lanes per SM, split among "    \
      "the schedulers")                                                      \
    X(units, sfu, U32, 4, 1, 1024, 0, "lanes", NULL,                         \
      "Special-function lanes per SM (sqrt, rcp, sin, ex2...)")              \
    X(units, dp, U32, 16, 1, 1024, 0, "lanes", NULL,                         \
      "Double-precision lanes per SM")                                       \
    X(units, dp_on_sfu, BOOL, false, 0, 0, 0, "", NULL,                      \
      "Double-precision instructions run on the SFU slice (its lanes and "   \
      "busy time) instead of DP lanes of their own: Fermi GeForce parts, "   \
      "GPGPU-Sim's -gpgpu_num_dp_units 0")                                   \
    X(units, ldst, U32, 16, 1, 1024, 0, "lanes", NULL,                       \
      "Load/store lanes per SM (address generation for memory ops)")          \
    X(units, tensor, U32, 1024, 1, 1048576, 0, "f16 FMA/cycle", NULL,        \
      "Tensor-core .f16 multiply-adds per cycle per SM, split among the "   \
      "schedulers (A100: 4 x 256); other input types by A100's ratios: "    \
      ".tf32 1/2, .f64 1/16, 8-bit 2x, 4-bit 4x, .b1 16x")

/* [latency] and [initiation] have one key per isa/latency.h class (the
 * PTX_LATENCY_CLASSES names); their rows are generated from that list. */

#define GPU_CFG_l1d(X)                                                       \
    X(l1d, enabled, BOOL, true, 0, 0, 0, "", NULL,                           \
      "Cache global loads in L1 (false: every global access goes to L2)")    \
    X(l1d, size, SIZE, 16 * 1024, 1024, 1024 * 1024, 0, "bytes", NULL,       \
      "L1 data cache capacity per SM")                                       \
    X(l1d, assoc, U32, 4, 1, 64, 0, "ways", NULL, "L1 associativity")        \
    X(l1d, line, U32, 128, 32, 1024, GPU_KEY_POW2, "bytes", NULL,            \
      "L1 line size")                                                        \
    X(l1d, mshrs, U32, 32, 1, 1024, 0, "entries", NULL,                      \
      "Miss-status holding registers (distinct lines outstanding)")          \
    X(l1d, mshr_merge, U32, 8, 1, 64, 0, "requests", NULL,                   \
      "Requests one MSHR entry can merge")                                   \
    X(l1d, miss_queue, U32, 0, 0, 1024, 0, "requests", NULL,                 \
      "Requests the SM's miss queue (L1 to NoC) holds; 0 = as many as "      \
      "l1d.mshrs")                                                           \
    X(l1d, hit_latency, U32, 20, 1, 1000, 0, "core cycles", NULL,            \
      "L1 hit latency")                                                      \
    X(l1d, latency_queue, BOOL, false, 0, 0, 0, "", NULL,                    \
      "Every access through the L1 data cache (load hit or miss, store) is " \
      "looked up l1d.hit_latency cycles after issue, so a miss or a "       \
      "store's write leaves for the L2 then (GPGPU-Sim's l1_latency_queue);" \
      " false: misses and writes leave the cycle after issue")              \
    X(l1d, fence_invalidate, BOOL, false, 0, 0, 0, "", NULL,                 \
      "A memory fence (membar/fence), once the warp's loads are back, "     \
      "invalidates the SM's whole L1 data cache (GPGPU-Sim's "              \
      "-gpgpu_flush_l1_cache at a membar); false: fences leave the L1 "    \
      "alone")                                                               \
    X(l1d, volatile_cached, BOOL, false, 0, 0, 0, "", NULL,                  \
      "ld.volatile of global memory is looked up in the L1 like a plain "  \
      "ld (GPGPU-Sim reads .volatile as no cache operator, i.e. .ca); "    \
      "false: it reads the L2 and does not fill the L1")                   \
    X(l1d, set_index, ENUM, GPU_SET_INDEX_LINEAR, 0, 0, 0, "",               \
      gpu_set_index_names,                                                   \
      "Set-index function: linear (line index modulo sets) or fermi-hash "  \
      "(the Fermi L1's XOR of address bits 7-11 with bits 13, 14, 15, 17, " \
      "19, Nugteren et al. HPCA 2014; needs 32 or 64 sets)")                \
    X(l1d, write_policy, ENUM, GPU_WRITE_EVICT, 0, 0, 0, "",                 \
      gpu_write_policy_names,                                                \
      "What a global store does to L1 (write-evict: invalidate the line "    \
      "and write to L2)")                                                    \
    X(l1d, write_allocate, BOOL, false, 0, 0, 0, "", NULL,                   \
      "A store miss allocates a line")                                       \
    X(l1d, replacement, ENUM, GPU_REPL_LRU, 0, 0, 0, "",                     \
      gpu_replacement_names, "Replacement policy")                           \
    X(l1d, policy, ENUM, 0, 0, 0, 0, "", sched_names_l1,                     \
      "Which refused L1 request retries first")

/* The instruction cache is off by default: fetch then fills a warp's
 * instruction buffer every cycle without a memory access. */
#define GPU_CFG_l1i(X)                                                       \
    X(l1i, enabled, BOOL, false, 0, 0, 0, "", NULL,                          \
      "Model an instruction cache per SM: a fetch looks up the line of the " \
      "warp's next instruction; a miss waits for the line from the L2 "     \
      "(false: fetches always hit and make no memory traffic)")             \
    X(l1i, size, SIZE, 2 * 1024, 64, 1024 * 1024, 0, "bytes", NULL,          \
      "Instruction cache capacity per SM")                                   \
    X(l1i, assoc, U32, 4, 1, 64, 0, "ways", NULL,                            \
      "Instruction cache associativity")                                     \
    X(l1i, line, U32, 128, 16, 1024, GPU_KEY_POW2, "bytes", NULL,            \
      "Instruction cache line size")                                         \
    X(l1i, mshrs, U32, 2, 1, 64, 0, "entries", NULL,                         \
      "Instruction cache MSHR entries (lines being fetched at once)")        \
    X(l1i, mshr_merge, U32, 32, 1, 64, 0, "requests", NULL,                  \
      "Warps one instruction-cache MSHR entry can hold")                     \
    X(l1i, instr_bytes, U32, 8, 1, 64, 0, "bytes", NULL,                     \
      "Code bytes per PTX instruction: the functions of a module lie one "  \
      "after another in PTX order from a fixed code base, each instruction " \
      "this many bytes (GPGPU-Sim: 8)")

#define GPU_CFG_l2(X)                                                        \
    X(l2, partition_size, SIZE, 128 * 1024, 1024, 64 * 1024 * 1024, 0,       \
      "bytes", NULL,                                                         \
      "L2 capacity per memory partition, split evenly among its slices")     \
    X(l2, slices_per_partition, U32, 1, 1, 8, 0, "slices", NULL,             \
      "L2 slices (banks with their own port) per memory partition")          \
    X(l2, assoc, U32, 16, 1, 64, 0, "ways", NULL, "L2 associativity")        \
    X(l2, line, U32, 128, 32, 1024, GPU_KEY_POW2, "bytes", NULL,             \
      "L2 line size")                                                        \
    X(l2, mshrs, U32, 32, 1, 1024, 0, "entries", NULL,                       \
      "MSHR entries per slice")                                              \
    X(l2, mshr_merge, U32, 8, 1, 64, 0, "requests", NULL,                    \
      "Requests one MSHR entry can merge")                                   \
    X(l2, hit_latency, U32, 100, 1, 10000, 0, "L2 cycles", NULL,             \
      "L2 hit latency")                                                      \
    X(l2, write_policy, ENUM, GPU_WRITE_BACK, 0, 0, 0, "",                   \
      gpu_write_policy_names, "L2 write policy")                             \
    X(l2, write_allocate, BOOL, true, 0, 0, 0, "", NULL,                     \
      "A store miss allocates a line")                                       \
    X(l2, replacement, ENUM, GPU_REPL_LRU, 0, 0, 0, "",                      \
      gpu_replacement_names, "Replacement policy")                           \
    X(l2, memcpy_fill, BOOL, false, 0, 0, 0, "", NULL,                       \
      "Host copies to and from the device (not symbol copies) install "     \
      "their lines in the owning L2 slice, clean, in copy order, a dirty "  \
      "victim dropped and a present line made clean (GPGPU-Sim's "          \
      "-gpgpu_perf_sim_memcpy); false: copies leave the L2 as it is")       \
    X(l2, atomic_serialize, BOOL, true, 0, 0, 0, "", NULL,                   \
      "Lanes of one atomic instruction that touch the same bytes travel as " \
      "separate transactions and are performed one after another at L2 "     \
      "(GPGPU-Sim's atomic coalescing); false: one transaction per line")    \
    X(l2, write_ack, BOOL, false, 0, 0, 0, "", NULL,                         \
      "The L2 acknowledges each store's write packets (one 1-flit reply "   \
      "per 32-byte sector) and a CTA finishes only when its warps' stores " \
      "are acknowledged; fences still wait only for loads (GPGPU-Sim: "     \
      "WRITE_ACK, shd_warp_t::stores_done); false: a store is done once "   \
      "the L1 has taken it")

#define GPU_CFG_const_cache(X)                                               \
    X(const_cache, size, SIZE, 8 * 1024, 64, 1024 * 1024, 0, "bytes", NULL,  \
      "Constant cache capacity per SM")                                      \
    X(const_cache, assoc, U32, 2, 1, 64, 0, "ways", NULL,                    \
      "Constant cache associativity")                                        \
    X(const_cache, line, U32, 64, 16, 1024, GPU_KEY_POW2, "bytes", NULL,     \
      "Constant cache line size")                                            \
    X(const_cache, hit_latency, U32, 4, 1, 1000, 0, "core cycles", NULL,     \
      "Constant cache hit latency (a broadcast to all lanes reading one "    \
      "address)")                                                            \
    X(const_cache, mshrs, U32, 0, 0, 1024, 0, "entries", NULL,               \
      "Constant cache MSHR entries (distinct lines outstanding); 0 = as "   \
      "many as l1d.mshrs")                                                   \
    X(const_cache, mshr_merge, U32, 0, 0, 64, 0, "requests", NULL,           \
      "Requests one constant-cache MSHR entry can merge; 0 = as many as "   \
      "l1d.mshr_merge")                                                      \
    X(const_cache, kernel_params, BOOL, false, 0, 0, 0, "", NULL,            \
      "Kernel-parameter loads (ld.param of an entry's parameters) read "    \
      "through the constant cache, a miss going to the L2 like a constant " \
      "load (GPGPU-Sim's param_space_kernel is a CONST_ACC_R); false: "     \
      "they take const_cache.hit_latency and no memory traffic")

#define GPU_CFG_tex_cache(X)                                                 \
    X(tex_cache, size, SIZE, 12 * 1024, 64, 1024 * 1024, 0, "bytes", NULL,   \
      "Texture cache capacity per SM")                                       \
    X(tex_cache, assoc, U32, 24, 1, 64, 0, "ways", NULL,                     \
      "Texture cache associativity")                                         \
    X(tex_cache, line, U32, 128, 16, 1024, GPU_KEY_POW2, "bytes", NULL,      \
      "Texture cache line size")                                             \
    X(tex_cache, hit_latency, U32, 20, 1, 1000, 0, "core cycles", NULL,      \
      "Texture cache hit latency")

#define GPU_CFG_noc(X)                                                       \
    X(noc, channel_width, U32, 32, 4, 1024, 0, "bytes", NULL,                \
      "Flit size: bytes one crossbar channel moves per NoC cycle")           \
    X(noc, queue_depth, U32, 8, 1, 1024, 0, "flits", NULL,                   \
      "Buffer depth of each injection and ejection port")                    \
    X(noc, latency, U32, 4, 1, 1000, 0, "NoC cycles", NULL,                  \
      "Cycles a flit takes through the crossbar without contention")        \
    X(noc, header, U32, 0, 0, 1024, 0, "bytes", NULL,                        \
      "Control bytes a data-carrying packet (read reply, write request) "   \
      "adds to its data when it is cut into flits (GPGPU-Sim: 8); 0: the "  \
      "header travels as sideband control")                                  \
    X(noc, slice_ports, BOOL, false, 0, 0, 0, "", NULL,                      \
      "Each L2 slice has its own crossbar port on both crossbars "          \
      "(GPGPU-Sim: one node per memory sub-partition); false: one port "    \
      "per memory partition, shared by its slices")

#define GPU_CFG_dram(X)                                                      \
    X(dram, partitions, U32, 6, 1, 64, 0, "partitions", NULL,                \
      "Memory partitions (controllers); each owns one L2 partition and one " \
      "DRAM channel")                                                        \
    X(dram, bus_width, U32, 64, 8, 1024, 0, "bits", NULL,                    \
      "DRAM data bus width of one partition")                                \
    X(dram, data_rate, U32, 2, 1, 16, 0, "transfers/clock", NULL,            \
      "Data transfers per DRAM clock per pin (2 = double data rate at "      \
      "clock.dram)")                                                         \
    X(dram, banks, U32, 16, 1, 64, 0, "banks", NULL,                         \
      "DRAM banks per partition")                                            \
    X(dram, burst_length, U32, 8, 1, 64, 0, "transfers", NULL,               \
      "Transfers of one column access")                                      \
    X(dram, row_buffer, SIZE, 2048, 256, 64 * 1024, GPU_KEY_POW2, "bytes",   \
      NULL, "Row-buffer (page) size per bank")                               \
    X(dram, queue_size, U32, 16, 1, 1024, 0, "requests", NULL,               \
      "Request queue of the memory scheduler, per partition")                \
    X(dram, scheduler, ENUM, GPU_DRAM_FR_FCFS, 0, 0, 0, "",                  \
      gpu_dram_scheduler_names,                                              \
      "Memory scheduler (fr-fcfs: row hits first, then oldest)")             \
    X(dram, latency, U32, 0, 0, 10000, 0, "L2 cycles", NULL,                 \
      "Fixed delay from an L2 slice sending a request (miss or write-back) " \
      "until the DRAM scheduler sees it (GPGPU-Sim's -dram_latency)")        \
    X(dram, interleave, SIZE, 256, 32, 1024 * 1024, GPU_KEY_POW2, "bytes",   \
      NULL, "Address interleaving granularity across partitions")            \
    X(dram, tCL, U32, 12, 1, 1000, 0, "DRAM cycles", NULL,                   \
      "CAS latency: column command to data")                                 \
    X(dram, tRP, U32, 12, 1, 1000, 0, "DRAM cycles", NULL,                   \
      "Precharge to activate, same bank")                                    \
    X(dram, tRC, U32, 40, 1, 1000, 0, "DRAM cycles", NULL,                   \
      "Activate to activate, same bank (at least tRAS)")                     \
    X(dram, tRAS, U32, 28, 1, 1000, 0, "DRAM cycles", NULL,                  \
      "Activate to precharge, same bank")                                    \
    X(dram, tRCD, U32, 12, 1, 1000, 0, "DRAM cycles", NULL,                  \
      "Activate to column command, same bank")                               \
    X(dram, tRRD, U32, 6, 1, 1000, 0, "DRAM cycles", NULL,                   \
      "Activate to activate, different banks")                               \
    X(dram, tCCD, U32, 2, 1, 1000, 0, "DRAM cycles", NULL,                   \
      "Column command to column command")                                    \
    X(dram, tWR, U32, 12, 1, 1000, 0, "DRAM cycles", NULL,                   \
      "Write recovery: end of write data to precharge")

#define GPU_CFG_icc(X)                                                       \
    X(icc, mode, ENUM, GPU_ICC_OFF, 0, 0, 0, "", gpu_icc_mode_names,         \
      "Intra-cluster coalescing: off, icc (merge table), icc-cc (merge "     \
      "table + coalesced cache)")                                            \
    X(icc, merge_table, U32, 48, 1, 1024, 0, "entries", NULL,                \
      "Merge-table entries per cluster (fully associative)")                 \
    X(icc, coalesced_cache, U32, 24, 1, 1024, 0, "lines", NULL,              \
      "Coalesced-cache lines per cluster (fully associative, L2 line size)") \
    X(icc, latency, U32, 1, 0, 100, 0, "core cycles", NULL,                  \
      "Access latency of the merge table and the coalesced cache")

/* Energy: per-event defaults derived from published per-operation
 * energies (docs/energy.md gives each derivation and source: [H] Horowitz,
 * ISSCC 2014, 45 nm; [K] Keckler's figures from the DARPA exascale study);
 * the static powers come from GPUWattch's GTX 480 (40 nm) model [G];
 * dram_activate has no source.  What matters for ONAC and ICC is relative
 * energy. */
#define GPU_CFG_energy(X)                                                    \
    X(energy, static_core, DBL, 1.59, 0, 1000, 0, "W", NULL,                 \
      "Power of one powered (not gated) SM regardless of activity: "         \
      "GPUWattch's idle-SM power for the GTX 480 at 40 nm, "                 \
      "idle_core_power = 1.59 W [G]")                                        \
    X(energy, static_uncore, DBL, 11.0, 0, 10000, 0, "W", NULL,              \
      "Activity-independent power outside the SMs (never gated): "           \
      "GPUWattch's fitted constant power for the GTX 480, CONST = 11 W [G]") \
    X(energy, alu_inst, DBL, 0.8, 0, 1e6, 0, "nJ", NULL,                     \
      "Per warp instruction on the SP/INT ALUs: 32 x (FP32 add+mul 4.6 pJ "  \
      "+ 4 register accesses x 5 pJ) [H]")                                   \
    X(energy, sfu_inst, DBL, 1.6, 0, 1e6, 0, "nJ", NULL,                     \
      "Per warp instruction on the SFUs: 2 x alu_inst (derived, no "         \
      "published value)")                                                    \
    X(energy, dp_inst, DBL, 1.9, 0, 1e6, 0, "nJ", NULL,                      \
      "Per warp instruction on the DP units: 32 x (FP64 FMA ~20 pJ scaled "  \
      "from FP32 + 4 x 64-bit register accesses x 10 pJ) [H], derived")      \
    X(energy, mem_inst, DBL, 0.32, 0, 1e6, 0, "nJ", NULL,                    \
      "Per warp memory instruction: 32 x (INT32 add 0.1 pJ + 2 register "    \
      "accesses x 5 pJ) [H]")                                                \
    X(energy, l1_access, DBL, 0.16, 0, 1e6, 0, "nJ", NULL,                   \
      "Per L1 data cache access: a 128-byte line = 16 x 64-bit 8 KB SRAM "   \
      "reads of 10 pJ [H]")                                                  \
    X(energy, shared_access, DBL, 0.16, 0, 1e6, 0, "nJ", NULL,               \
      "Per shared-memory access (each serialised bank pass): 32 banks x "    \
      "32 bits = 16 x 10 pJ [H]")                                            \
    X(energy, const_access, DBL, 0.01, 0, 1e6, 0, "nJ", NULL,                \
      "Per constant cache access: one 64-bit 8 KB SRAM read [H]")            \
    X(energy, l2_access, DBL, 0.32, 0, 1e6, 0, "nJ", NULL,                   \
      "Per L2 access: 2 x l1_access (derived: larger arrays, no published "  \
      "per-access value)")                                                   \
    X(energy, noc_flit, DBL, 0.28, 0, 1e6, 0, "nJ", NULL,                    \
      "Per flit crossing the NoC: 32 bytes = 4 x 64 bits x 7 pJ/mm x 10 mm " \
      "[K] (distance assumed)")                                              \
    X(energy, dram_access, DBL, 15.4, 0, 1e6, 0, "nJ", NULL,                 \
      "Per DRAM column access (one 64-byte burst): 512 bits x 30 pJ/bit "    \
      "off-chip [K]")                                                        \
    X(energy, dram_activate, DBL, 3.0, 0, 1e6, 0, "nJ", NULL,                \
      "Per DRAM row activation (placeholder: no published GDDR5 or "         \
      "40 nm GPU value found)")                                              \
    X(energy, icc_access, DBL, 0.05, 0, 1e6, 0, "nJ", NULL,                  \
      "Per merge-table or coalesced-cache lookup: 5 x 64-bit 8 KB SRAM "     \
      "reads [H] (derived)")

/* Policy choices.  A policy's own keys live in the section named after it
 * ([throttle] burst = 4), generated from sched/policies.def. */
#define GPU_CFG_warp(X)                                                      \
    X(warp, policy, ENUM, 0, 0, 0, 0, "", sched_names_warp,                  \
      "Warp scheduling (ordering) policy")                                   \
    X(warp, its, ENUM, GPU_ITS_AUTO, 0, 0, 0, "", gpu_its_mode_names,        \
      "Independent thread scheduling: each lane keeps its own PC (on), the " \
      "SIMT reconvergence stack (off), or on for modules whose .target is "  \
      "sm_70 or newer (auto); the presets of pre-Volta GPUs set off")

/* The phase pass's reading of the thesis (frontend/phase.h,
 * docs/experiments/phases-table33.md): what the phase-aware policies see. */
#define GPU_CFG_phase(X)                                                     \
    X(phase, blocks, ENUM, PTX_PHASE_BLOCKS_SPLIT, 0, 0, 0, "",               \
      ptx_phase_blocks_names,                                                \
      "split: every basic block starts a phase (thesis 3.4.2.1 text); "      \
      "linear: only a read of a long-op register does, across blocks "       \
      "(what Tables 3.2/3.3's counts imply)")                                \
    X(phase, loads, ENUM, PTX_PHASE_LOADS_OFFCHIP, 0, 0, 0, "",               \
      ptx_phase_loads_names,                                                 \
      "Loads that are long-latency for phases: offchip (global, local, "     \
      "texture, generic) or all (param, shared and const too)")

#define GPU_CFG_spin(X)                                                      \
    X(spin, policy, ENUM, 0, 0, 0, 0, "", sched_names_backoff,               \
      "Spin detection and warp backoff policy")

#define GPU_CFG_fetch(X)                                                     \
    X(fetch, policy, ENUM, 0, 0, 0, 0, "", sched_names_fetch,                \
      "Which warp the fetch stage refills next")

#define GPU_CFG_cta(X)                                                       \
    X(cta, policy, ENUM, 0, 0, 0, 0, "", sched_names_cta,                    \
      "CTA placement policy")                                                \
    X(cta, filters, LIST, 0, 0, 0, 0, "", sched_names_filter,                \
      "Admission filters; every filter sees every request, in this order "   \
      "(comma list; empty or none = no filter)")

#define GPU_CFG_kernel(X)                                                    \
    X(kernel, policy, ENUM, 0, 0, 0, 0, "", sched_names_kernel,              \
      "Concurrent-kernel scheduling policy")                                 \
    X(kernel, hw_queues, U32, 32, 1, 64, 0, "kernels", NULL,                 \
      "Kernel dispatch unit entries: kernels resident at once; ready "       \
      "kernels beyond them wait in the KMU, first come first served")        \
    X(kernel, caps, STR, "", 0, 0, 0, "", NULL,                              \
      "kernel.policy=interleaved only: comma list of NAME-PREFIX:N; a "      \
      "kernel whose name starts with PREFIX holds at most N CTAs per core "  \
      "while it shares the cores (thesis 5.5.2: each kernel's optimum from " \
      "the Fig. 5.1 sweep) instead of the even split; empty = even split")

#define GPU_CFG_stats(X)                                                     \
    X(stats, interval, U32, 1000, 1, 1000000000, 0, "core cycles", NULL,     \
      "Sampling period of the time-series statistics")                       \
    X(stats, locality_window, U32, 2000, 1, 100000000, 0, "core cycles",     \
      NULL, "Window in which a repeated line request counts as redundant")

/* Bounds on a run, honoured by functional runs too (api/ptxemu.h options
 * override them): a hung kernel stops with its location instead of running
 * for ever. */
#define GPU_CFG_limits(X)                                                    \
    X(limits, device_memory, SIZE, 4ull << 30, 1024, 1ull << 40, 0, "bytes", \
      NULL, "Device (global) memory: allocations and module variables "     \
      "beyond it fail")                                                      \
    X(limits, max_warp_instructions, SIZE, 100000000, 1, 999999999999999,  \
      0, "warp instructions", NULL,                                          \
      "Warp instructions one launch may execute before it is stopped")       \
    X(limits, max_cycles, SIZE, 20000000, 1, 999999999999999, 0,            \
      "core cycles", NULL,                                                   \
      "Core cycles a launch (or a batch of launches) may take on the "      \
      "timing model before it is stopped") \
    X(limits, max_seconds, U32, 0, 0, 1000000000, 0, "seconds", NULL,       \
      "Wall-clock seconds a launch (or a batch of launches) may run before "\
      "it is stopped, functionally or on the timing model; 0 = no limit")   \
    X(limits, progress_seconds, U32, 0, 0, 1000000, 0, "seconds", NULL,     \
      "A progress line on stderr every this many wall-clock seconds of a "  \
      "launch (ptxemu run/bench --progress sets 10); 0 = none")             \
    X(limits, malloc_heap, SIZE, 8ull << 20, 16, 1ull << 40, 0, "bytes",    \
      NULL, "Device heap of malloc/free called in kernels (CUDA's "          \
      "cudaLimitMallocHeapSize); malloc returns NULL beyond it")

/* Dynamic parallelism (docs/cdp.md): the device runtime's limits (CUDA's
 * defaults; functional runs honour them too) and how device launches reach
 * the GPU in the timing model. */
#define GPU_CFG_cdp(X)                                                       \
    X(cdp, max_depth, U32, 24, 1, 64, 0, "levels", NULL,                     \
      "Deepest nesting of device launches (host launches are depth 0); "    \
      "CUDA: 24, the hardware limit (cudaErrorLaunchMaxDepthExceeded)")      \
    X(cdp, pending_launches, U32, 2048, 1, 1048576, 0, "launches", NULL,     \
      "Device launches made and not yet started, at most (CUDA's "          \
      "cudaLimitDevRuntimePendingLaunchCount default: 2048)")                \
    X(cdp, mode, ENUM, 0, 0, 0, 0, "", gpu_cdp_mode_names,                   \
      "cdp: a device launch is a kernel of its own (SM -> KMU -> KDU); "    \
      "dtbl: its CTAs are appended to the launching kernel's pool after "   \
      "its native CTAs (Wang et al., ISCA 2015)")                            \
    X(cdp, launch_latency, U32, 20000, 0, 100000000, 0, "core cycles", NULL, \
      "cdp mode: core cycles from a warp instruction's device launch until " \
      "the child kernel reaches the KMU, per launching warp instruction, "  \
      "plus launch_latency_per_lane per launch in it. 20000 = "              \
      "cudaGetParameterBufferV2 8000 + cudaLaunchDeviceV2 12000 per warp: "  \
      "the CDP launch-latency method of the DTBL paper (Wang et al., ISCA "  \
      "2015), which LaPerm (Wang et al. 2016, sec. V) adopts, with the "     \
      "values of GPGPU-Sim's -cdp_latency default 7200,8000,100,12000,1600 " \
      "(the CDP model contributed by that paper's first author; the paper's " \
      "own table was not available). 8000+100+12000+1600 = 21700 cycles "   \
      "for one launch, 30.7 us at K20c's 706 MHz. Not modelled: the "        \
      "parent warp's stall during the calls, cudaStreamCreateWithFlags "     \
      "(7200)")                                                              \
    X(cdp, launch_latency_per_lane, U32, 1700, 0, 100000000, 0, "core cycles", \
      NULL,                                                                  \
      "cdp mode: added per device launch of a warp instruction (its k-th "  \
      "launching lane reaches the KMU launch_latency + k x this after the "  \
      "instruction). 1700 = cudaGetParameterBufferV2 100 + "                 \
      "cudaLaunchDeviceV2 1600 per launch, from the same source as "         \
      "launch_latency")                                                      \
    X(cdp, dtbl_latency, U32, 200, 0, 100000000, 0, "core cycles", NULL,     \
      "dtbl mode: cycles from the launching instruction until the TB "      \
      "group joins the kernel's pool. Unsourced placeholder: LaPerm (sec. " \
      "V) says DTBL's TB-group launch latency is modelled directly in the " \
      "simulator and gives no figure; no published value was found")      \
    X(cdp, kmu_search_latency, U32, 0, 0, 1000000, 0, "core cycles", NULL, \
      "cdp mode under a LaPerm TB policy (laperm-*): cycles per priority "  \
      "level the KMU searches to dispatch a device kernel from the "        \
      "priority queues; the worst case, all L levels (laperm.levels), is "  \
      "added to the launch path. LaPerm sec. IV-E: 'may incur maximum "     \
      "extra L cycles ... one cycle for each' (k20c: 1). 0: not modelled") \
    X(cdp, dtbl_insert_latency, U32, 0, 0, 1000000, 0, "core cycles",     \
      NULL,                                                                  \
      "dtbl mode under a LaPerm TB policy (laperm-*): cycles to search the " \
      "SMX's 128-entry on-chip priority queue for a TB group's insert "     \
      "position, charged at its worst case and overlapped with the TB "     \
      "group's setup (dtbl_latency): the group joins max(dtbl_latency, "    \
      "this) after the launch. LaPerm sec. IV-E: 'can be 128 cycles in "    \
      "the worst case ... can be hidden by the setting up process' (k20c: " \
      "128). 0: not modelled")                                              \
    X(cdp, dtbl_overflow_latency, U32, 0, 0, 1000000, 0, "core cycles",   \
      NULL,                                                                  \
      "dtbl mode under a LaPerm TB policy (laperm-*): a TB group whose "    \
      "launching SMX already queues laperm-*.queue_entries TB groups not "  \
      "yet fully dispatched goes to the overflow queue in global memory: "  \
      "this write starts when the insert search ends and overlaps the "     \
      "setup, so the group joins max(dtbl_latency, dtbl_insert_latency + "  \
      "this) after the launch. LaPerm sec. IV-E: 'the overhead would be "   \
      "the global memory access latency which can also partly be hidden "   \
      "by the TB group setting up process'. 0: not modelled")

/* Sampled simulation (timing/sample.h, docs/sampling.md): each launch runs
 * in detail until its IPC is stable, the CTAs not yet placed then run
 * functionally and its remaining cycles are projected. */
#define GPU_CFG_sample(X)                                                    \
    X(sample, mode, ENUM, GPU_SAMPLE_OFF, 0, 0, 0, "", gpu_sample_mode_names, \
      "on: detailed timing until a launch's IPC is stable, then the CTAs "  \
      "not yet placed run functionally (memory stays that of the "          \
      "functional run) and the launch's remaining cycles are projected "    \
      "(ptxemu run/bench run/exec --sample); off: every cycle simulated")   \
    X(sample, window, U32, 1000, 10, 100000000, 0, "core cycles", NULL,     \
      "Shortest IPC measurement window; once the first CTA wave has "      \
      "retired, a window lasts at least that wave's time / K (K windows "   \
      "then span a CTA's lifetime), and after 2K windows without a "        \
      "verdict windows double, up to 64 times this")                        \
    X(sample, windows, U32, 8, 2, 1000, 0, "windows", NULL,                 \
      "K: the last K windows must each be within sample.threshold of their " \
      "mean IPC, and that mean within sample.threshold of the mean of the " \
      "K windows before, for the launch to count as stable")                \
    X(sample, threshold, DBL, 0.05, 0.001, 1, 0, "fraction", NULL,          \
      "epsilon: a window's IPC may differ from the mean of the last K by "  \
      "at most this fraction of it")                                         \
    X(sample, min_fraction, DBL, 0.05, 0, 1, 0, "fraction", NULL,           \
      "CTAs that must have been placed in detail before the launch may "    \
      "stop placing (besides one CTA wave retired on every SM used)")       \
    X(sample, reuse, BOOL, true, 0, 0, 0, "", NULL,                         \
      "A later launch of the same kernel with the same grid, block and "    \
      "dynamic shared memory may take the stable IPC an earlier one "       \
      "measured once its own first CTA wave agrees with it")

/* How the simulator itself runs; results never depend on these. */
#define GPU_CFG_sim(X)                                                       \
    X(sim, step_every_cycle, BOOL, false, 0, 0, 0, "", NULL,                 \
      "Visit every SM every cycle instead of jumping over cycles in which "  \
      "nothing can happen (slower; the statistics must be identical, which " \
      "the stepping test checks)")                                        \
    X(sim, host_threads, U32, 1, 1, 256, 0, "threads", NULL,                 \
      "Host threads that run the CTAs of a functional launch (ptxemu -j N); " \
      "a kernel whose CTAs may observe each other (global atomics other "   \
      "than integer red, %clock, volatile loads, printf, ...) runs on one. " \
      "Under the timing model: the SMs of each cycle on that many threads "  \
      "(timing/gpu_par.c).  Memory, counts and statistics are those of one " \
      "thread")

/* Checks of the program that a functional run can make; off by default. */
#define GPU_CFG_check(X)                                                     \
    X(check, races, BOOL, false, 0, 0, 0, "", NULL,                          \
      "Functional runs (ptxemu run/bench run/exec --race-check): report "   \
      "the first pair of conflicting plain global accesses of a launch "    \
      "(write/write or write/read of the same bytes by two warps, with no " \
      "CTA barrier between them in one CTA and no fence anywhere between "  \
      "them; atomics and volatile/strong accesses are not checked): both "  \
      "instructions with kernel, CTA, warp, thread, pc, file:line:col and " \
      "PTX text, on stderr (runtime/race.h). Launches run on one host "    \
      "thread and take several times longer. Ignored under the timing "    \
      "model")

/* Groups in file and documentation order; [latency] and [initiation]
 * (generated from isa/latency.h) come between the two lists. */
#define GPU_CONFIG_GROUPS_A(G) G(gpu) G(clock) G(core) G(units)
#define GPU_CONFIG_GROUPS_B(G)                                               \
    G(l1d) G(l1i) G(l2) G(const_cache) G(tex_cache) G(noc) G(dram) G(icc)           \
    G(energy) G(warp) G(phase) G(spin) G(fetch) G(cta) G(kernel) G(stats) G(limits)  \
    G(cdp) G(check) G(sample) G(sim)

/* ------------------------------------------------------------ the struct */
#define GPU_FIELD_U32(n) uint32_t n;
#define GPU_FIELD_SIZE(n) uint64_t n;
#define GPU_FIELD_DBL(n) double n;
#define GPU_FIELD_BOOL(n) bool n;
#define GPU_FIELD_ENUM(n) int32_t n;
#define GPU_FIELD_LIST(n) gpu_name_list n;
#define GPU_FIELD_STR(n) char n[GPU_CONFIG_STR_LEN];
#define GPU_CFG_FIELD(g, n, KIND, d, lo, hi, fl, unit, names, doc)           \
    GPU_FIELD_##KIND(n)
#define GPU_CFG_GROUP_STRUCT(g) struct gpu_config_##g { GPU_CFG_##g(GPU_CFG_FIELD) } g;

/* cfg->l1d.size, cfg->dram.tCL, cfg->latency.cycles[PTX_LAT_FP_ADD]... */
typedef struct gpu_config {
    GPU_CONFIG_GROUPS_A(GPU_CFG_GROUP_STRUCT)
    ptx_latency_table latency;    /* issue-to-result cycles per class */
    ptx_latency_table initiation; /* cycles before a unit takes the next one */
    GPU_CONFIG_GROUPS_B(GPU_CFG_GROUP_STRUCT)
    sched_keys policy;            /* every policy's own keys */
} gpu_config;

/* ------------------------------------------------------------ key table */
typedef enum gpu_key_kind {
    GPU_KIND_U32, GPU_KIND_SIZE, GPU_KIND_DBL, GPU_KIND_BOOL, GPU_KIND_ENUM,
    GPU_KIND_LIST, GPU_KIND_STR
} gpu_key_kind;

typedef struct gpu_config_key {
    const char *group;
    const char *name;
    gpu_key_kind kind;
    size_t offset;             /* of the field in gpu_config */
    double def;                /* default (numbers, bools, enum index) */
    const char *sdef;          /* default of STR keys */
    double min, max;           /* valid range of U32, SIZE and DBL keys */
    unsigned flags;            /* GPU_KEY_POW2 */
    const char *unit;
    const char *const *names;  /* choices of ENUM and LIST keys */
    const char *doc;
} gpu_config_key;

/* Every key, in documentation order. */
const gpu_config_key *gpu_config_keys(size_t *count);
/* The key "group.name", or NULL. */
const gpu_config_key *gpu_config_find_key(const char *group, const char *name);

/* ------------------------------------------------------------ errors */
#define GPU_CONFIG_ERROR (gpu_config_error_quark())
GQuark gpu_config_error_quark(void);
typedef enum gpu_config_error {
    GPU_CONFIG_ERROR_FILE,          /* cannot read, or not INI syntax */
    GPU_CONFIG_ERROR_NO_PRESET,     /* no such preset */
    GPU_CONFIG_ERROR_SYNTAX,        /* --set text not group.key=value */
    GPU_CONFIG_ERROR_UNKNOWN_GROUP,
    GPU_CONFIG_ERROR_UNKNOWN_KEY,
    GPU_CONFIG_ERROR_BAD_VALUE,     /* not a number / size / bool / choice */
    GPU_CONFIG_ERROR_OUT_OF_RANGE,  /* a number outside [min, max] */
    GPU_CONFIG_ERROR_INCONSISTENT   /* keys valid alone but not together */
} gpu_config_error;

/* ------------------------------------------------------------ loading */
/* Every error is one message naming the source (file or "--set"), the
 * key and the value; on failure *cfg is left unchanged. */

/* Fills *cfg with the defaults of the table (all padding zeroed, so two
 * configs built the same way compare equal with memcmp too). */
void gpu_config_defaults(gpu_config *cfg);
/* Defaults, then the file's keys, then gpu_config_validate. */
bool gpu_config_load_file(const char *path, gpu_config *cfg, GError **error);
/* Same, from INI text; `source` names it in messages. */
bool gpu_config_load_data(const char *data, gsize len, const char *source,
                          gpu_config *cfg, GError **error);
/* Applies the file's keys on top of *cfg, then validates. */
bool gpu_config_merge_file(const char *path, gpu_config *cfg, GError **error);
/* A preset: configs/<name>.ini from $PTXEMU_SOURCE_DIR/configs, else the
 * source tree's configs/ fixed at build time.  A name containing '/' or
 * ending in ".ini" is loaded as a path instead. */
bool gpu_config_load_preset(const char *name, gpu_config *cfg, GError **error);
/* Directory searched for presets (free with g_free). */
char *gpu_config_preset_dir(void);
/* Sorted preset names found there (free with g_strfreev); NULL and an
 * error when the directory cannot be read. */
char **gpu_config_list_presets(GError **error);

/* One "group.key=value" override, range-checked alone (cross-key rules
 * are checked by gpu_config_validate once every override is in). */
bool gpu_config_set(gpu_config *cfg, const char *assignment, GError **error);
/* Every override in order (NULL-terminated), then gpu_config_validate;
 * all or nothing. */
bool gpu_config_apply_overrides(gpu_config *cfg, const char *const *assignments,
                                GError **error);
/* Cross-key rules (num_sms a multiple of sms_per_cluster, cache geometry,
 * ...).  `source` prefixes the message (NULL: "config"). */
bool gpu_config_validate(const gpu_config *cfg, const char *source,
                         GError **error);

/* ------------------------------------------------------------ writing */
/* Every key with its current value; with `comments` each key carries its
 * meaning, unit and range.  Loading the result gives an equal config. */
GKeyFile *gpu_config_to_keyfile(const gpu_config *cfg, bool comments);
char *gpu_config_to_data(const gpu_config *cfg, bool comments, gsize *len);
/* Value of "group.key" as the INI would spell it, or NULL (g_free). */
char *gpu_config_get_string(const gpu_config *cfg, const char *group_key);
/* Every key holds the same value. */
bool gpu_config_equal(const gpu_config *a, const gpu_config *b);

/* The key reference (Markdown: one table per group with key, unit,
 * default, valid values and meaning); configs/README.md embeds it. */
char *gpu_config_docs_markdown(void);
void gpu_config_print_docs(FILE *out);

/* ------------------------------------------------------------ derived */
static inline uint32_t gpu_config_num_clusters(const gpu_config *c)
{
    return c->gpu.num_sms / c->gpu.sms_per_cluster;
}
static inline uint32_t gpu_config_max_warps(const gpu_config *c)
{
    return c->core.max_threads / c->gpu.warp_size;
}
static inline uint64_t gpu_config_l2_total(const gpu_config *c)
{
    return c->l2.partition_size * c->dram.partitions;
}
/* Peak DRAM bandwidth over all partitions, in GB/s (1e9 bytes). */
static inline double gpu_config_dram_gbps(const gpu_config *c)
{
    return (double)c->dram.partitions * c->dram.bus_width / 8.0 *
           c->dram.data_rate * c->clock.dram / 1000.0;
}
/* The chosen policies (sched/registry.c lists) of a config. */
void gpu_config_policies(const gpu_config *c, sched_selection *out);
/* Name of choice v in a NULL-terminated names array ("?" when outside). */
const char *gpu_config_choice_name(const char *const *names, int32_t v);

#endif
