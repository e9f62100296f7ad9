/*
 * gpulab_sim/model.h — the simulator's performance model (GPULAB_SIM_MODEL),
 * as the kit's common library and tools see it. With GPULAB_SIM_MODEL=<gpu>
 * (t4, l4, v100, a100-40gb, h100-sxm, h200, ...: docs/model.md) the simulator keeps a
 * modeled device clock per stream, which kernels, copies, sets and cuBLAS
 * calls advance and CUDA events read: cudaEventElapsedTime returns the time
 * the work would take on that GPU, by the model of docs/model.md. Modeled,
 * never measured: whatever prints such a time says "modeled <GPU>".
 * Usable from C and C++, on the sim backend only.
 */
#ifndef GPULAB_SIM_MODEL_H
#define GPULAB_SIM_MODEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* The full name of the GPU being modeled ("NVIDIA T4"), or NULL when the
 * model is off (GPULAB_SIM_MODEL unset, or a name the model does not know). */
const char *gpulab_sim_model_gpu(void);

/* How the kernels' times are modeled in this run: "counted" (the program's
 * check twin counts every access), "sampled" (it counts a sample of blocks
 * and scales up), "launch configuration only" (no twin: no counts), or NULL
 * when the model is off. */
const char *gpulab_sim_model_basis(void);

/* The modeled time of the work queued on the current device so far, in
 * milliseconds, once it has all run (it synchronizes with the device); -1
 * when the model is off. */
double gpulab_sim_model_device_ms(void);

/* How many blocks of the last kernel that finished ran the check twin's plain
 * copy of its code, without the access hooks: with the model alone, the
 * blocks of a large grid that its sample leaves out (docs/model.md, "Cost").
 * 0 when every block ran instrumented: a check tool or GPULAB_SIM_STATS=1 is
 * on, the grid has at most 128 blocks, GPULAB_SIM_PLAIN_COPY=0, or the
 * program has no plain copy of the kernel. */
unsigned long long gpulab_sim_model_plain_blocks(void);

#ifdef __cplusplus
}
#endif

#endif
