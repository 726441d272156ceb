/*
 * tigris_config.h - build-time configuration of the TiGrIS runtime.
 *
 * Every translation unit of one build must see the same values: the executor
 * workspace layout and the loader's limit checks are derived from them.
 * Override any of them with -D on the compiler command line (CMake exposes
 * them as cache variables).
 */
#ifndef TIGRIS_CONFIG_H
#define TIGRIS_CONFIG_H

/* ---- Plan limits (the loader returns TIGRIS_ERR_PLAN_LIMITS beyond them) ---- */

#ifndef TIGRIS_MAX_TENSORS
#define TIGRIS_MAX_TENSORS 512
#endif
#ifndef TIGRIS_MAX_STAGE_INPUTS
#define TIGRIS_MAX_STAGE_INPUTS 16
#endif
#ifndef TIGRIS_MAX_STAGE_OUTPUTS
#define TIGRIS_MAX_STAGE_OUTPUTS 16
#endif
#ifndef TIGRIS_MAX_CHAIN_STAGES
#define TIGRIS_MAX_CHAIN_STAGES 16
#endif
#ifndef TIGRIS_MAX_SPATIAL_OPS_PER_STAGE
#define TIGRIS_MAX_SPATIAL_OPS_PER_STAGE 8
#endif
#ifndef TIGRIS_MAX_SUBGRAPHS
#define TIGRIS_MAX_SUBGRAPHS 16
#endif
#ifndef TIGRIS_MAX_SUBGRAPH_DEPTH
#define TIGRIS_MAX_SUBGRAPH_DEPTH 4
#endif

#if TIGRIS_MAX_TENSORS < 1 || TIGRIS_MAX_TENSORS > 65535
#error "TIGRIS_MAX_TENSORS must be in 1..65535"
#endif
#if TIGRIS_MAX_STAGE_INPUTS < 1 || TIGRIS_MAX_STAGE_INPUTS > 65535
#error "TIGRIS_MAX_STAGE_INPUTS must be in 1..65535"
#endif
#if TIGRIS_MAX_STAGE_OUTPUTS < 1 || TIGRIS_MAX_STAGE_OUTPUTS > 65535
#error "TIGRIS_MAX_STAGE_OUTPUTS must be in 1..65535"
#endif
#if TIGRIS_MAX_CHAIN_STAGES < 2 || TIGRIS_MAX_CHAIN_STAGES > 65535
#error "TIGRIS_MAX_CHAIN_STAGES must be in 2..65535"
#endif
#if TIGRIS_MAX_SPATIAL_OPS_PER_STAGE < 1
#error "TIGRIS_MAX_SPATIAL_OPS_PER_STAGE must be 1 or greater"
#endif
#if TIGRIS_MAX_SUBGRAPHS < 1 || TIGRIS_MAX_SUBGRAPHS > 65535
#error "TIGRIS_MAX_SUBGRAPHS must be in 1..65535"
#endif
#if TIGRIS_MAX_SUBGRAPH_DEPTH < 1 || TIGRIS_MAX_SUBGRAPH_DEPTH > 65535
#error "TIGRIS_MAX_SUBGRAPH_DEPTH must be in 1..65535"
#endif

/* ---- Compatibility workspace behind tigris_run() ---- */

#ifndef TIGRIS_ENABLE_DEFAULT_EXECUTOR_WORKSPACE
#define TIGRIS_ENABLE_DEFAULT_EXECUTOR_WORKSPACE 1
#endif

/* ---- Kernel families (0 = left out; a plan using one gets
 *      TIGRIS_ERR_KERNEL_DISABLED at load) ---- */

#ifndef TIGRIS_ENABLE_F32
#define TIGRIS_ENABLE_F32 1
#endif
#ifndef TIGRIS_ENABLE_S8
#define TIGRIS_ENABLE_S8 1
#endif

/* ---- Minimum tensor alignment ----
 * Chosen from the target unless the build sets it. Compiled plans size their
 * allocations for an alignment of at most 32 bytes, so an automatic choice
 * above 32 (SVE) stops the build: such targets must set 32 explicitly. */
#ifndef TIGRIS_TENSOR_ALIGN
#  if defined(__ARM_FEATURE_SVE)
#    define TIGRIS_TENSOR_ALIGN 64
#    define TIGRIS_TENSOR_ALIGN_AUTO 1
#  elif defined(__aarch64__)
#    define TIGRIS_TENSOR_ALIGN 16
#  elif defined(__x86_64__)
#    define TIGRIS_TENSOR_ALIGN 32
#  elif defined(__riscv_vector)
#    define TIGRIS_TENSOR_ALIGN 16
#  elif defined(__XTENSA__)
#    define TIGRIS_TENSOR_ALIGN 16
#  elif defined(__ARM_NEON)
#    define TIGRIS_TENSOR_ALIGN 16
#  elif defined(__ARM_FEATURE_DSP)
#    define TIGRIS_TENSOR_ALIGN 16
#  else
#    define TIGRIS_TENSOR_ALIGN 4
#  endif
#endif

#if (TIGRIS_TENSOR_ALIGN) <= 0 || ((TIGRIS_TENSOR_ALIGN) & ((TIGRIS_TENSOR_ALIGN) - 1)) != 0
#error "TIGRIS_TENSOR_ALIGN must be a power of two"
#endif
#if defined(TIGRIS_TENSOR_ALIGN_AUTO) && (TIGRIS_TENSOR_ALIGN) > 32
#error "auto-detected TIGRIS_TENSOR_ALIGN above 32 (SVE): compiled plans assume at most 32; define -DTIGRIS_TENSOR_ALIGN=32"
#endif

#endif /* TIGRIS_CONFIG_H */
