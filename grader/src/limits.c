/*
 * The limits of a graded run (address space from the machine's memory shared
 * by the runs at once, time, processes, descriptors, output, the run
 * directory) and of a submission's build (time, CPU, memory, its own user).
 */
#define _XOPEN_SOURCE 700
#include "limits.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The machine's memory, in bytes (0 when unknown). */
static size_t machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

/* The value of NAME in a case's environment ("NAME=value"), or NULL. */
static const char *case_env(const grade_case *c, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < c->n_env; i++)
        if (!strncmp(c->env[i], name, n) && c->env[i][n] == '=')
            return c->env[i] + n + 1;
    return NULL;
}

/* The limits of one run. Its address space is the machine's memory shared by the runs that
 * share the machine (--share: --batch passes its slots). On sim the simulator reserves
 * 2 x GPULAB_SIM_MEMORY_MB of address space per simulated device (device and managed halves):
 * where the check does not choose the size, it is set here so that the devices' arenas take at
 * most half of the run's share (at most the simulator's own default, 8 GiB); where the check
 * chooses it (lab 01's per-device sizes), the share grows to hold those arenas and their
 * check-mode shadow, which the program touches little of. *sim_mb is what to put in
 * GPULAB_SIM_MEMORY_MB (0: the check's). */
grade_limits grade_run_limits_for(const options *o, const grade_check *check, const grade_case *c,
                                  const char *backend, unsigned long long *sim_mb)
{
    grade_limits l;
    memset(&l, 0, sizeof(l));
    l.wall_seconds = o->time_limit > 0 ? o->time_limit : check->time_limit;
    l.cpu_seconds = 4 * l.wall_seconds;
    size_t share = machine_memory() / (size_t)(o->share > 0 ? o->share : 1);
    if (share < ((size_t)4 << 30))
        share = (size_t)4 << 30; /* a small machine: the simulator needs this much to start */
    *sim_mb = 0;
    if (strcmp(backend, "cuda") == 0) {
        share = 0; /* the CUDA runtime reserves tens of GiB of address space */
    } else if (c && !strcmp(backend, "sim")) {
        const char *d = case_env(c, "GPULAB_SIM_DEVICES"), *m = case_env(c, "GPULAB_SIM_MEMORY_MB");
        unsigned long long devices = d ? strtoull(d, NULL, 10) : 1;
        devices = devices ? devices : 1;
        if (m) {
            size_t arenas = (size_t)(2 * devices * strtoull(m, NULL, 10)) << 20;
            /* + a quarter: the check tools' shadow of the arenas (about 14%) */
            if (arenas + arenas / 4 + GRADE_HOST_SHARE > share)
                share = arenas + arenas / 4 + GRADE_HOST_SHARE;
        } else {
            unsigned long long mb = (share >> 20) / 2 / (2 * devices);
            *sim_mb = mb > 8192 ? 8192 : mb;
        }
    }
    l.address_space = share;
    l.file_size = (size_t)256 << 20;
    l.max_processes = 256;
    l.max_files = GRADE_MAX_FILES;
    l.output_bytes = GRADE_OUTPUT_KEPT;
    l.dir_entries = GRADE_DIR_ENTRIES;
    l.dir_bytes = GRADE_DIR_BYTES;
    l.hide = o->hide;
    return l;
}

/* The limits of a submission's build: the options, else the defaults (grade.h); as root, the
 * build runs as a uid of its own. */
grade_build_limits grade_build_limits_for(const options *o, const char *build_dir)
{
    grade_build_limits l;
    memset(&l, 0, sizeof(l));
    l.cpu_seconds = o->build_cpu > 0 ? o->build_cpu : GRADE_BUILD_CPU_DEFAULT;
    l.wall_seconds = o->build_time > 0 ? o->build_time : GRADE_BUILD_TIME_DEFAULT;
    double mib = o->build_memory_mib;
    if (!(mib > 0)) {
        int jobs = o->jobs > 0 ? o->jobs : 1;
        mib = (double)machine_memory() / 1048576.0 / jobs;
        mib = mib < GRADE_BUILD_MEMORY_MIN_MIB   ? GRADE_BUILD_MEMORY_MIN_MIB
              : mib > GRADE_BUILD_MEMORY_MAX_MIB ? GRADE_BUILD_MEMORY_MAX_MIB
                                                 : mib;
    }
    l.memory_bytes = (size_t)mib << 20;
    if (geteuid() == 0) {
        l.drop = 1;
        l.uid = (uid_t)(GRADE_BUILD_UID_BASE + (unsigned long)getpid());
        l.gid = (gid_t)l.uid;
    }
    l.home = build_dir;
    return l;
}
