/* sim_report.c — the simulator's own lines in a run's stderr (sim_report.h). */
#define _POSIX_C_SOURCE 200809L
#include "sim_report.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PREFIX "========= "

/* The simulator's line starting at p (up to end), without its prefix and its
 * key, into buf; 1 when it is one (and, with a key, carries it). */
static int sim_line(const char *p, const char *end, const char *key, char *buf, size_t len)
{
    size_t n = (size_t)(end - p), pre = strlen(PREFIX);
    if (n < pre || strncmp(p, PREFIX, pre) != 0)
        return 0;
    p += pre;
    n -= pre;
    if (key) {
        size_t k = strlen(key);
        if (n < k + 2 || p[n - k - 2] != ' ' || p[n - k - 1] != '#' ||
            strncmp(p + n - k, key, k) != 0)
            return 0;
        n -= k + 2;
    }
    while (n > 0 && p[0] == ' ')
        p++, n--;
    if (n >= len)
        n = len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return 1;
}

static void add_counts(grade_sim_launch *to, const grade_sim_launch *l)
{
    to->threads += l->threads;
    to->loads += l->loads;
    to->stores += l->stores;
    to->load_requests += l->load_requests;
    to->load_sectors += l->load_sectors;
    to->store_requests += l->store_requests;
    to->store_sectors += l->store_sectors;
}

void grade_sim_report_parse(grade_sim_report *r, const char *err, const char *key)
{
    char text[1024];
    grade_sim_launch cur;
    int in_stats = 0; /* lines of the current stats block read so far */
    memset(r, 0, sizeof(*r));
    memset(&cur, 0, sizeof(cur));
    if (key && !*key)
        key = NULL;
    for (const char *p = err ? err : ""; *p;) {
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        if (!sim_line(p, end, key, text, sizeof(text))) {
            in_stats = 0; /* a stats block is four lines in a row */
        } else if (!strncmp(text, "gpulab-sim check mode:", 22)) {
            r->check_mode = 1;
            snprintf(r->tools, sizeof(r->tools), "%.90s", text + 22);
        } else if (sscanf(text, "ERROR SUMMARY: %ld error", &r->errors) == 1) {
            r->summary = 1;
        } else if (!strncmp(text, "gpulab-sim stats: kernel ", 25)) {
            memset(&cur, 0, sizeof(cur));
            const char *name = text + 25, *at = strstr(name, " (launched at ");
            if (at) {
                snprintf(cur.kernel, sizeof(cur.kernel), "%.*s", (int)(at - name), name);
                const char *file = at + 14, *colon = strrchr(file, ':');
                if (colon) {
                    snprintf(cur.file, sizeof(cur.file), "%.*s", (int)(colon - file), file);
                    cur.line = atoi(colon + 1);
                }
                in_stats = 1;
            } else {
                in_stats = 0;
            }
        } else if (in_stats == 1 &&
                   sscanf(text, "%llu threads; global loads %llu (%*f per thread), stores %llu",
                          &cur.threads, &cur.loads, &cur.stores) == 3) {
            in_stats = 2;
        } else if (in_stats == 2 && sscanf(text, "global load requests %llu: %llu sectors",
                                           &cur.load_requests, &cur.load_sectors) == 2) {
            in_stats = 3;
        } else if (in_stats == 3 && sscanf(text, "global store requests %llu: %llu sectors",
                                           &cur.store_requests, &cur.store_sectors) == 2) {
            if (r->n_launches < GRADE_SIM_MAX_LAUNCHES)
                r->launch[r->n_launches] = cur;
            r->n_launches++;
            add_counts(&r->total, &cur);
            in_stats = 0;
        } else {
            in_stats = 0;
        }
        p = *end ? end + 1 : end;
    }
}

int grade_sim_report_kernel(const grade_sim_report *r, const char *name, grade_sim_launch *out)
{
    int n = 0,
        shown = r->n_launches < GRADE_SIM_MAX_LAUNCHES ? r->n_launches : GRADE_SIM_MAX_LAUNCHES;
    memset(out, 0, sizeof(*out));
    if (!name) {
        *out = r->total;
        return r->n_launches;
    }
    for (int i = 0; i < shown; i++) {
        if (strcmp(r->launch[i].kernel, name) != 0)
            continue;
        if (n++ == 0) {
            snprintf(out->kernel, sizeof(out->kernel), "%s", r->launch[i].kernel);
            snprintf(out->file, sizeof(out->file), "%s", r->launch[i].file);
            out->line = r->launch[i].line;
        }
        add_counts(out, &r->launch[i]);
    }
    return n;
}

int grade_sim_report_key(char *buf, size_t len)
{
    unsigned char raw[16];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || len < 2 * sizeof(raw) + 1)
        return fd >= 0 ? (close(fd), -1) : -1;
    ssize_t n = read(fd, raw, sizeof(raw));
    close(fd);
    if (n != (ssize_t)sizeof(raw))
        return -1;
    for (size_t i = 0; i < sizeof(raw); i++)
        snprintf(buf + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

void grade_sim_short_paths(char *s)
{
    static const char copy[] = "gpulab-submission/";
    char *at;
    while ((at = strstr(s, copy)) != NULL) {
        char *from = at;
        while (from > s && from[-1] != ' ' && from[-1] != '(' && from[-1] != '"')
            from--;
        memmove(from, at + sizeof(copy) - 1, strlen(at + sizeof(copy) - 1) + 1);
    }
}
