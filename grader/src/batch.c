/* batch.c — --batch DIR: every submission folder in DIR graded, several at a
 * time, one row each in OUT/grades.csv. Each submission is graded by a child
 * gpulab-grade --submission, in a build directory of its own job slot (reused
 * from one submission to the next, so the kit is compiled once per slot): under
 * --build-dir, kept for the next batch, else in a temporary folder removed after. */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"
#include "labs.h"
#include "runner.h"
#include "submit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SLOTS 64

typedef struct submission {
    char name[256];
    char path[4400]; /* the labs/ copy */
} submission;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const submission *)a)->name, ((const submission *)b)->name);
}

/* The submission folders of dir, sorted: each a labs/ copy or a folder holding one. */
static submission *list_submissions(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    submission *subs = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    if (!d)
        return NULL;
    while ((e = readdir(d))) {
        char path[4300];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            submission *v = realloc(subs, sizeof(*v) * (size_t)cap);
            if (!v)
                break;
            subs = v;
        }
        snprintf(subs[n].name, sizeof(subs[n].name), "%s", e->d_name);
        snprintf(subs[n].path, sizeof(subs[n].path), "%s/labs", path);
        if (stat(subs[n].path, &st) != 0 || !S_ISDIR(st.st_mode))
            snprintf(subs[n].path, sizeof(subs[n].path), "%s", path);
        n++;
    }
    closedir(d);
    if (n)
        qsort(subs, (size_t)n, sizeof(*subs), by_name);
    *count = n;
    return subs ? subs : calloc(1, sizeof(*subs));
}

/* Starts the child that grades s in slot's build directory, building with
 * build_jobs compilers. */
static pid_t start_one(const options *o, const submission *s, const char *slot_dir, int build_jobs,
                       int slots)
{
    char json[4400], summary[4400], log[4400], seed[32], limit[32], jobs[16];
    snprintf(jobs, sizeof(jobs), "%d", build_jobs);
    snprintf(json, sizeof(json), "%s/%s.json", o->out, s->name);
    snprintf(summary, sizeof(summary), "%s/%s.summary", o->out, s->name);
    snprintf(log, sizeof(log), "%s/%s.log", o->out, s->name);
    snprintf(seed, sizeof(seed), "%llu", o->seed);
    snprintf(limit, sizeof(limit), "%g", o->time_limit);
    unlink(summary);
    const char *argv[40];
    int n = 0;
    argv[n++] = o->self;
    argv[n++] = "--submission";
    argv[n++] = s->path;
    argv[n++] = "--build-dir";
    argv[n++] = slot_dir;
    argv[n++] = "--source";
    argv[n++] = o->source;
    argv[n++] = "--backend";
    argv[n++] = o->backend;
    argv[n++] = "--seed";
    argv[n++] = seed;
    argv[n++] = "--json";
    argv[n++] = json;
    argv[n++] = "--summary";
    argv[n++] = summary;
    argv[n++] = "--jobs";
    argv[n++] = jobs;
    argv[n++] = "--quiet";
    if (o->lab) {
        argv[n++] = "--lab";
        argv[n++] = o->lab;
    }
    if (o->check) {
        argv[n++] = "--check";
        argv[n++] = o->check;
    }
    if (o->time_limit > 0) {
        argv[n++] = "--time-limit";
        argv[n++] = limit;
    }
    char share[16];
    snprintf(share, sizeof(share), "%d", slots);
    argv[n++] = "--share";
    argv[n++] = share;
    char build[3][32];
    const char *build_opt[3] = { "--build-cpu-limit", "--build-memory-limit",
                                 "--build-time-limit" };
    const double build_val[3] = { o->build_cpu, o->build_memory_mib, o->build_time };
    for (int i = 0; i < 3; i++)
        if (build_val[i] > 0) {
            snprintf(build[i], sizeof(build[i]), "%g", build_val[i]);
            argv[n++] = build_opt[i];
            argv[n++] = build[i];
        }
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        execv(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

/* Reads "<lab> <score> <max>" lines; fills per-lab and total scores. */
static int read_summary(const char *path, const grade_lab *labs, int n_labs, double *score,
                        double *max, double *total, double *total_max)
{
    FILE *f = fopen(path, "r");
    char lab[64];
    double s, m;
    if (!f)
        return -1;
    while (fscanf(f, "%63s %lf %lf", lab, &s, &m) == 3) {
        if (!strcmp(lab, "total")) {
            *total = s;
            *total_max = m;
        }
        for (int i = 0; i < n_labs; i++)
            if (!strcmp(lab, labs[i].name)) {
                score[i] = s;
                max[i] = m;
            }
    }
    fclose(f);
    return 0;
}

/* The last non-empty line of a file, for a row that could not be graded. */
static void last_line_of(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    buf[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(buf, len, "%.*s", (int)(len - 1), line);
    }
    fclose(f);
}

/* One quoted CSV field, valid UTF-8 whatever s holds (a student's compile
 * error can carry Latin-1 bytes): invalid bytes become U+FFFD, newlines spaces. */
static void csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    while (*s) {
        unsigned cp;
        int n = grade_utf8_decode(s, &cp);
        if (n == 0) {
            fputs("\xEF\xBF\xBD", f);
            s++;
            continue;
        }
        if (*s == '"')
            fputc('"', f);
        if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fwrite(s, 1, (size_t)n, f);
        s += n;
    }
    fputc('"', f);
}

static int write_rows(const options *o, const submission *subs, int n)
{
    int n_labs;
    const grade_lab *labs = grade_labs(&n_labs);
    char path[4400];
    snprintf(path, sizeof(path), "%s/grades.csv", o->out);
    FILE *csv = fopen(path, "w");
    if (!csv) {
        fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    fprintf(csv, "submission,score,max_score,percent");
    printf("%-24s %12s", "submission", "score");
    for (int i = 0; i < n_labs; i++)
        if (grade_wanted(o, &labs[i])) {
            fprintf(csv, ",%s", labs[i].name);
            printf(" %9s", labs[i].name);
        }
    fprintf(csv, ",status\n");
    printf("  status\n");
    for (int k = 0; k < n; k++) {
        double score[64] = { 0 }, max[64] = { 0 }, total = 0, total_max = 0;
        char status[600] = "graded";
        snprintf(path, sizeof(path), "%s/%s.summary", o->out, subs[k].name);
        if (read_summary(path, labs, n_labs < 64 ? n_labs : 64, score, max, &total, &total_max) !=
            0) {
            char why[512];
            snprintf(path, sizeof(path), "%s/%s.log", o->out, subs[k].name);
            last_line_of(path, why, sizeof(why));
            snprintf(status, sizeof(status), "not graded: %s", why);
        }
        csv_field(csv, subs[k].name);
        fprintf(csv, ",%g,%g,%.1f", total, total_max,
                total_max > 0 ? 100.0 * total / total_max : 0.0);
        printf("%-24.24s %5g/%-6g", subs[k].name, total, total_max);
        for (int i = 0; i < n_labs && i < 64; i++)
            if (grade_wanted(o, &labs[i])) {
                fprintf(csv, ",%g", score[i]);
                printf(" %4g/%-4g", score[i], max[i]);
            }
        fputc(',', csv);
        csv_field(csv, status);
        fputc('\n', csv);
        printf("  %s\n", status);
    }
    if (fclose(csv) != 0)
        return 2;
    printf("grades: %s/grades.csv; beside it each submission's report (.json), what the\n"
           "grader printed (.log) and its build log (.build.log)\n",
           o->out);
    return 0;
}

/* Copies the slot's build log to OUT/<name>.build.log before the slot is reused. */
static void keep_build_log(const options *o, const submission *s, const char *slot_dir)
{
    char from[4400], to[4400], buf[65536];
    snprintf(from, sizeof(from), "%.4300s/submission-build.log", slot_dir);
    snprintf(to, sizeof(to), "%s/%s.build.log", o->out, s->name);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    size_t n;
    while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
        fwrite(buf, 1, n, out);
    if (out)
        fclose(out);
    if (in)
        fclose(in);
}

int grade_batch(const options *o)
{
    int n = 0, status = 2;
    submission *subs = list_submissions(o->batch, &n);
    if (!subs) {
        fprintf(stderr, "gpulab-grade: --batch %s: %s\n", o->batch, strerror(errno));
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "gpulab-grade: --batch %s: no submission folders in it\n", o->batch);
        free(subs);
        return 2;
    }
    if (mkdir(o->out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpulab-grade: --out %s: %s\n", o->out, strerror(errno));
        free(subs);
        return 2;
    }
    int slots = o->jobs < 1 ? 1 : o->jobs > MAX_SLOTS ? MAX_SLOTS : o->jobs;
    slots = slots > n ? n : slots;
    /* --jobs N is N processes in all: the slots' builds share them. */
    int build_jobs = o->jobs / slots > 1 ? o->jobs / slots : 1;
    char tmp_root[] = "/tmp/gpulab-batch-XXXXXX", slot_dir[MAX_SLOTS][4400];
    const char *root = o->build_dir ? o->build_dir : tmp_root;
    if (strlen(root) > 4000) {
        fprintf(stderr, "gpulab-grade: --build-dir %.60s...: a path of over 4000 bytes\n", root);
        free(subs);
        return 2;
    }
    pid_t running[MAX_SLOTS] = { 0 };
    int which[MAX_SLOTS], next = 0, done = 0;
    /* 0755: the programs built in it run as an unprivileged user under root. */
    if ((o->build_dir ? mkdir(root, 0755) != 0 && errno != EEXIST : !mkdtemp(tmp_root)) ||
        chmod(root, 0755) != 0) {
        fprintf(stderr, "gpulab-grade: cannot make a build directory: %s\n", strerror(errno));
        free(subs);
        return 2;
    }
    for (int k = 0; k < slots; k++)
        snprintf(slot_dir[k], sizeof(slot_dir[k]), "%s/slot%d", root, k);
    fprintf(stderr,
            "gpulab-grade: %d submission(s) in %s, %d at a time, each built with %d job%s\n", n,
            o->batch, slots, build_jobs, build_jobs > 1 ? "s" : "");
    while (done < n) {
        for (int k = 0; k < slots && next < n; k++)
            if (!running[k]) {
                which[k] = next;
                running[k] = start_one(o, &subs[next++], slot_dir[k], build_jobs, slots);
                if (running[k] < 0) {
                    running[k] = 0;
                    done++;
                }
            }
        int st;
        pid_t pid = wait(&st);
        if (pid < 0 && errno != EINTR)
            break;
        for (int k = 0; k < slots; k++)
            if (running[k] == pid) {
                running[k] = 0;
                keep_build_log(o, &subs[which[k]], slot_dir[k]);
                fprintf(stderr, "gpulab-grade: [%d/%d] %s %s\n", ++done, n, subs[which[k]].name,
                        WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "graded"
                                                              : "NOT graded (see its log)");
            }
    }
    status = write_rows(o, subs, n);
    if (!o->build_dir) {
        if (grade_tree_remove(root) != 0)
            fprintf(stderr, "gpulab-grade: could not remove %s: %s\n", root, strerror(errno));
    }
    free(subs);
    return status;
}
