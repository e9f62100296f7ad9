/* submit.c — see submit.h. */
#define _XOPEN_SOURCE 700
#include "submit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void grade_child_stdio(const char *const argv[], const char *log_path)
{
    if (log_path) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0)
            _exit(127);
        dprintf(fd, "$");
        for (int i = 0; argv[i]; i++)
            dprintf(fd, " %s", argv[i]);
        dprintf(fd, "\n");
        if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
            _exit(127);
    }
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0)
        _exit(127);
}

int grade_run_logged(const char *const argv[], const char *log_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        grade_child_stdio(argv, log_path);
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Removes build_dir/bin/<lab>-*-student{,.check} for each lab. */
static void remove_student_programs(const grade_build *b)
{
    const char *backends[] = { "sim", "cuda" };
    const char *suffixes[] = { "", ".check" };
    char path[4400];
    for (int i = 0; i < b->n_labs; i++)
        for (int k = 0; k < 2; k++)
            for (int s = 0; s < 2; s++) {
                snprintf(path, sizeof(path), "%s/bin/%s-%s-student%s", b->build_dir, b->labs[i],
                         backends[k], suffixes[s]);
                unlink(path);
            }
}

/* The message of the first "CMake Error" in a log, on one line. */
static void first_cmake_error(const char *log_path, char *buf, size_t len)
{
    FILE *f = fopen(log_path, "r");
    char line[1024];
    int in_error = 0;
    size_t n = 0;
    if (!f)
        return;
    while (fgets(line, sizeof(line), f) && n + 1 < len) {
        line[strcspn(line, "\n")] = '\0';
        if (!in_error) {
            in_error = strncmp(line, "CMake Error", 11) == 0;
            continue;
        }
        if (!line[0]) {
            if (n)
                break;
            continue;
        }
        const char *t = line;
        while (*t == ' ')
            t++;
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", t);
    }
    fclose(f);
}

int grade_build_submission(const grade_build *b, char *why, size_t len)
{
    char sub[4200], jobs[16], src[4200];
    if (!realpath(b->submission_dir, sub)) {
        snprintf(why, len, "submission %s: %s", b->submission_dir, strerror(errno));
        return -1;
    }
    if (!realpath(b->source_dir, src)) {
        snprintf(why, len, "the kit's sources %s: %s", b->source_dir, strerror(errno));
        return -1;
    }
    /* Built from a copy: regular files only, read once, owned by the build's user. */
    const grade_build_limits *l = &b->limits;
    uid_t uid = l->drop ? l->uid : (uid_t)-1;
    gid_t gid = l->drop ? l->gid : (gid_t)-1;
    char copy[4400], mem[32] = "no limit";
    snprintf(copy, sizeof(copy), "%s/submission-copy", b->build_dir);
    if (l->memory_bytes > 0)
        snprintf(mem, sizeof(mem), "%zu MiB", l->memory_bytes >> 20);
    FILE *log = fopen(b->log_path, "a");
    if (log) {
        fprintf(log,
                "gpulab-grade: build limits: %.0f s of CPU time and %s of memory per process, "
                "%.0f s of wall time; as %s\n",
                l->cpu_seconds, mem, l->wall_seconds,
                l->drop ? "an unprivileged uid" : "the grader's user");
        fclose(log);
    }
    if (grade_copy_submission(sub, copy, uid, gid, b->log_path) != 0) {
        snprintf(why, len, "could not copy the submission into %s: %s", copy, strerror(errno));
        return -1;
    }
    if (l->drop && grade_build_owner(b->build_dir, uid, gid) != 0) {
        snprintf(why, len, "could not give the build folder %s to the build's user: %s",
                 b->build_dir, strerror(errno));
        return -1;
    }
    char def_sub[4500], def_cuda[64];
    snprintf(def_sub, sizeof(def_sub), "-DGPULAB_SUBMISSION_DIR=%s", copy);
    snprintf(def_cuda, sizeof(def_cuda), "-DGPULAB_CUDA=%s",
             strcmp(b->backend, "cuda") == 0 ? "ON" : "OFF");
    /* Without tests: they need every program, and a submission may lack some. */
    const char *configure[] = { "cmake",
                                "-S",
                                src,
                                "-B",
                                b->build_dir,
                                def_sub,
                                def_cuda,
                                "-DGPULAB_DOCS=OFF",
                                b->with_tests ? "-DBUILD_TESTING=ON" : "-DBUILD_TESTING=OFF",
                                NULL };
    int rc = grade_run_build(configure, b->log_path, l);
    if (rc == GRADE_BUILD_TIMED_OUT) {
        snprintf(why, len,
                 "the build could not be configured: it was stopped at its time limit of %g s "
                 "of wall time (see %s)",
                 l->wall_seconds, b->log_path);
        return -1;
    }
    if (rc != 0) {
        char first[512] = "";
        first_cmake_error(b->log_path, first, sizeof(first));
        snprintf(why, len, "the build could not be configured (cmake exited %d%s%s; see %s)", rc,
                 first[0] ? ": " : "", first, b->log_path);
        return -1;
    }
    remove_student_programs(b);
    snprintf(jobs, sizeof(jobs), "%d", b->jobs > 0 ? b->jobs : 1);
    /* cmake --build DIR -j N --target <lab>-grading... -- -k: the student
     * programs and what each lab's checks need (gpulab_add_lab). */
    const char *argv[8 + 16 + 3];
    char names[16][96];
    int n = 0;
    argv[n++] = "cmake";
    argv[n++] = "--build";
    argv[n++] = b->build_dir;
    argv[n++] = "-j";
    argv[n++] = jobs;
    argv[n++] = "--target";
    for (int i = 0; i < b->n_labs && i < 16; i++) {
        snprintf(names[i], sizeof(names[i]), "%s-grading", b->labs[i]);
        argv[n++] = names[i];
    }
    argv[n++] = "--";
    argv[n++] = "-k";
    argv[n] = NULL;
    grade_run_build(argv, b->log_path, l); /* a lab that does not compile costs its points */
    return 0;
}

/* How the lab's folder shows in paths: "/03_kernels/", or from "lab03", "/03_". */
static void folder_mark(char *buf, size_t len, const char *lab, const char *dir)
{
    const char *d = lab;
    if (dir) {
        snprintf(buf, len, "/%s/", dir);
        return;
    }
    while (*d && (*d < '0' || *d > '9'))
        d++;
    snprintf(buf, len, "/%s_", d);
}

/* Whether path (in the submission) is the lab's folder ("03_kernels/", or "03_" from a name) or
 * in it. */
static int in_folder(const char *path, const char *folder)
{
    size_t n = strlen(folder);
    if (n && folder[n - 1] == '/')
        return !strncmp(path, folder, n - 1) && (path[n - 1] == '/' || path[n - 1] == ' ');
    return !strncmp(path, folder, n);
}

/* Whether a build log line says a compiler hit the build's CPU time (1) or memory (2) limit. */
static int limit_hit(const char *line)
{
    if (strstr(line, "CPU time limit exceeded"))
        return 1;
    if (strstr(line, "out of memory") || strstr(line, "memory exhausted") ||
        strstr(line, "Cannot allocate memory") || strstr(line, "bad_alloc"))
        return 2;
    return 0;
}

/* The source a make failure line names: ".../fixture-sim-student/scale.cu.cpp.o] Error 1" ->
 * "scale.cu". 0 when the line is no failure of one of lab's objects. */
static int failed_object(const char *line, const char *lab, char *name, size_t len)
{
    char target[128];
    snprintf(target, sizeof(target), "/%s-", lab);
    const char *end = strstr(line, ".o] ");
    if (!strstr(line, "*** [") || !strstr(line, target) || !end)
        return 0;
    const char *start = end;
    while (start > line && start[-1] != '/')
        start--;
    size_t n = (size_t)(end - start);
    if (n > 7 && !strncmp(end - 7, ".cu.cpp", 7))
        n -= 4; /* the rewritten copy of a .cu */
    snprintf(name, len, "%.*s", (int)n, start);
    return 1;
}

int grade_build_failure(const char *log_path, const char *lab, const char *dir, char *buf,
                        size_t len)
{
    FILE *f = fopen(log_path, "r");
    char line[2048], mark[32], lacks[128], limits[256] = "";
    int found = 0, hit = 0;
    if (!f)
        return 0;
    folder_mark(mark, sizeof(mark), lab, dir);
    /* "... has no 01_devices/devices.c", "...'s 01_devices/devices.c includes ...: refused" */
    snprintf(lacks, sizeof(lacks), "gpulab_add_lab(%s): the submission", lab);
    while (!found && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *l = strstr(line, lacks);
        char object[256];
        if (!strncmp(line, "gpulab-grade: build limits: ", 28)) {
            snprintf(limits, sizeof(limits), "%.250s", line + 28);
            limits[strcspn(limits, ";")] = '\0';
        } else if (!strncmp(line, "gpulab-grade: the submission's ", 31) &&
                   in_folder(line + 31, mark + 1)) {
            snprintf(buf, len, "%s", line + 14); /* refused by the copy */
            found = 1;
        } else if (!strncmp(line, "gpulab-grade: the build was stopped", 35)) {
            snprintf(buf, len, "%s", line + 14);
            found = 1;
        } else if ((hit = limit_hit(line) ? limit_hit(line) : hit) &&
                   failed_object(line, lab, object, sizeof(object))) {
            snprintf(buf, len,
                     "compiling %s%s was stopped: it %s (%s): a file must compile within the "
                     "build's limits",
                     mark + 1, object,
                     hit == 1 ? "used up the build's CPU time limit"
                              : "ran out of memory at the build's limit",
                     limits[0] ? limits : "see the build log");
            found = 1;
        } else if (l) {
            size_t n =
                (size_t)snprintf(buf, len, "%s", l + strlen("gpulab_add_lab(): ") + strlen(lab));
            /* CMake wraps a warning's words onto indented lines, up to an empty one or its call
             * stack. */
            while (n + 1 < len && fgets(line, sizeof(line), f)) {
                line[strcspn(line, "\n")] = '\0';
                const char *t = line;
                while (*t == ' ')
                    t++;
                if (!*t || strncmp(t, "Call Stack", 10) == 0)
                    break;
                n += (size_t)snprintf(buf + n, len - n, " %s", t);
            }
            found = 1;
        } else if (strstr(line, mark) && strstr(line, "error") && !strstr(line, "make")) {
            /* Keep it short: from the folder on ("03_kernels/vadd.cu:12:5: error: ..."). */
            const char *p = strstr(line, mark) + 1;
            snprintf(buf, len, "does not compile: %s", p);
            found = 1;
        }
    }
    fclose(f);
    return found;
}
