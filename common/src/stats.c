/* stats.c — the simulator's access counts behind lab/stats.h. The one place
 * outside sim that knows the simulator's own stats interface. */
#define _POSIX_C_SOURCE 200809L
#include "lab/stats.h"

#if defined(GPULAB_BACKEND_SIM)
#include "gpulab_sim/stats.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int lab_kernel_stats_last(lab_kernel_stats *out, lab_error *err)
{
#if defined(GPULAB_BACKEND_SIM)
    struct gpulab_sim_kernel_stats st;
    if (gpulab_sim_last_kernel_stats(&st) != 0)
        return lab_error_set(err, LAB_EUNSUPPORTED,
                             "no access counts: this run does not count (GPULAB_SIM_STATS=1, "
                             "or lab_kernel_stats_rerun)");
    out->threads = st.threads;
    out->global_loads = st.global_loads;
    out->global_stores = st.global_stores;
    out->shared_loads = st.shared_loads;
    out->shared_stores = st.shared_stores;
    out->load_requests = st.load_requests;
    out->load_sectors = st.load_sectors;
    out->store_requests = st.store_requests;
    out->store_sectors = st.store_sectors;
    return LAB_OK;
#else
    (void)out;
    return lab_error_set(err, LAB_EUNSUPPORTED,
                         "no access counts on the %s backend: only the simulator counts",
                         GPULAB_BACKEND_NAME);
#endif
}

double lab_kernel_stats_per_request(unsigned long long sectors, unsigned long long requests)
{
    return requests ? (double)sectors / (double)requests : 0.0;
}

#if defined(GPULAB_BACKEND_SIM)
/* In the child: counting on, model off, no report; never returns. */
static void exec_counted(int out_fd, const char *self, const char *arg)
{
    int devnull = open("/dev/null", O_WRONLY);
    if (dup2(out_fd, STDOUT_FILENO) < 0 || devnull < 0 || dup2(devnull, STDERR_FILENO) < 0)
        _exit(127);
    unsetenv("GPULAB_SIM_MODEL_REPORT");
    setenv("GPULAB_SIM_MODEL", "off", 1);
    setenv("GPULAB_SIM_STATS", "1", 1);
    char *argv[] = { (char *)self, (char *)arg, NULL };
    execv(self, argv);
    _exit(127);
}
#endif

int lab_kernel_stats_rerun(char *buf, size_t cap, const char *arg, lab_error *err)
{
    if (!buf || cap == 0 || !arg || !*arg)
        return lab_error_set(err, LAB_EINVAL, "lab_kernel_stats_rerun: no buffer or no argument");
    buf[0] = '\0';
#if defined(GPULAB_BACKEND_SIM)
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return lab_error_set(err, LAB_EIO, "cannot find this program (/proc/self/exe): %s",
                             strerror(errno));
    self[n] = '\0';
    int fds[2];
    if (pipe(fds) != 0)
        return lab_error_set(err, LAB_EIO, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return lab_error_set(err, LAB_EIO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        exec_counted(fds[1], self, arg);
    }
    close(fds[1]);
    size_t used = 0;
    char scratch[4096];
    for (;;) {
        ssize_t got = read(fds[0], scratch, sizeof(scratch));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        size_t keep = (size_t)got < cap - 1 - used ? (size_t)got : cap - 1 - used;
        memcpy(buf + used, scratch, keep);
        used += keep;
    }
    buf[used] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return lab_error_set(err, LAB_EIO, "waitpid: %s", strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return lab_error_set(err, LAB_EIO, "%s %s (counting) %s %d", self, arg,
                             WIFEXITED(status) ? "exited with status" : "was killed by signal",
                             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return LAB_OK;
#else
    return lab_error_set(err, LAB_EUNSUPPORTED,
                         "no access counts on the %s backend: only the simulator counts",
                         GPULAB_BACKEND_NAME);
#endif
}
