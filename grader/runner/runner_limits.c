/*
 * runner_limits.c — the rlimits a graded program runs under (see runner.h).
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <math.h>
#include <sys/resource.h>

static int set_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit cur;
    if (getrlimit(resource, &cur) != 0)
        return -1;
    if (cur.rlim_max != RLIM_INFINITY && (hard == RLIM_INFINITY || hard > cur.rlim_max))
        hard = cur.rlim_max; /* not root: we may only lower it */
    if (soft > hard)
        soft = hard;
    struct rlimit want = { soft, hard };
    return setrlimit(resource, &want);
}

int grade_apply_limits(const struct plan *p)
{
    const grade_limits *l = p->lim;
    int rc = set_limit(RLIMIT_CORE, 0, 0);
    if (l->cpu_seconds > 0) {
        rlim_t s = (rlim_t)ceil(l->cpu_seconds);
        rc |= set_limit(RLIMIT_CPU, s, s + 1); /* SIGXCPU at s, SIGKILL at s + 1 */
    }
    if (l->address_space > 0)
        rc |= set_limit(RLIMIT_AS, l->address_space, l->address_space);
    if (l->file_size > 0)
        rc |= set_limit(RLIMIT_FSIZE, l->file_size, l->file_size);
    if (l->max_files > 0)
        rc |= set_limit(RLIMIT_NOFILE, (rlim_t)l->max_files, (rlim_t)l->max_files);
    if (p->nproc != RLIM_INFINITY)
        rc |= set_limit(RLIMIT_NPROC, p->nproc, p->nproc);
    return rc;
}
