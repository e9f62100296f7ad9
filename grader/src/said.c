/*
 * What a run said, turned into the words of a reason: nothing a program
 * prints may read as the grader's own words (said.h).
 */
#define _XOPEN_SOURCE 700
#include "said.h"

#include "sim_report.h"

#include <stdio.h>
#include <string.h>
/* The program's own words for a reason, marked as its output: program said: "..." (quotes,
 * backslashes and control bytes escaped), so that nothing a program prints reads as the
 * grader's words. */
void grade_program_said(char *buf, size_t len, const char *line)
{
    if (!line[0]) {
        snprintf(buf, len, "it printed nothing to stderr");
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "program said: \"");
    const unsigned char *p = (const unsigned char *)line;
    for (; *p && n + 8 < len; p++) {
        if (*p == '"' || *p == '\\')
            n += (size_t)snprintf(buf + n, len - n, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            n += (size_t)snprintf(buf + n, len - n, "\\x%02x", *p);
        else
            buf[n++] = (char)*p;
    }
    snprintf(buf + n, len - n, "%s\"", *p ? "..." : "");
}

/* The last non-empty line of s, for a reason; the simulator's check-mode
 * lines ("========= ERROR SUMMARY: 0 errors") are passed over. */
void grade_last_line(char *buf, size_t len, const char *s)
{
    const char *end = s + strlen(s);
    buf[0] = '\0';
    while (end > s) {
        while (end > s && (end[-1] == '\n' || end[-1] == ' '))
            end--;
        const char *start = end;
        while (start > s && start[-1] != '\n')
            start--;
        if (start < end && strncmp(start, "=========", 9) != 0) {
            snprintf(buf, len, "%.*s", (int)(end - start), start);
            return;
        }
        end = start;
    }
}

/* The simulator's memcheck report in the run's stderr, as one line:
 * "Invalid __global__ write of size 4 bytes at k in f.cu:12 by thread (..)".
 * Its banner and the counts of GPULAB_SIM_STATS=1 (a header and three
 * indented lines per kernel) are not reports; a line's report key (" #<key>",
 * sim_report.h) is left out. */
int grade_memcheck_report(char *buf, size_t len, const char *err, const char *key)
{
    const char *p = err ? strstr(err, "========= ") : NULL;
    size_t n = 0, key_len = key ? strlen(key) : 0;
    int in_stats = 0; /* within a stats block: its header and indented lines */
    buf[0] = '\0';
    for (int lines = 0; p && lines < 3; lines++) {
        p += strlen("========= ");
        int indented = *p == ' ';
        while (*p == ' ')
            p++;
        const char *end = strchr(p, '\n');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        if (key_len && k > key_len + 2 && !strncmp(p + k - key_len, key, key_len) &&
            !strncmp(p + k - key_len - 2, " #", 2))
            k -= key_len + 2;
        if (strncmp(p, "ERROR SUMMARY", 13) == 0 || strncmp(p, "COMPUTE-SANITIZER", 17) == 0)
            break;
        int skip = 1; /* not a report: a stats block, or the banner */
        if (strncmp(p, "gpulab-sim stats:", 17) == 0)
            in_stats = 1;
        else if (!(in_stats && indented))
            skip = (in_stats = 0, strncmp(p, "gpulab-sim check mode", 21) == 0);
        if (skip) {
            p = end ? strstr(end, "========= ") : NULL;
            lines--;
            continue;
        }
        n +=
            (size_t)snprintf(buf + n, len > n ? len - n : 0, "%s%.*s", lines ? " " : "", (int)k, p);
        if (n >= len || !end)
            break;
        p = strstr(end, "========= ");
    }
    return buf[0] != '\0';
}

/* The last line of err the simulator printed about the program ("gpulab-sim: host code read
 * 4 bytes of device memory at kernels.cu:195 (in relu_forward): ..."), its first sentence, into
 * buf: what explains a crash (the host line that touched device memory, the kernel's fault).
 * It is the program's own stderr, so the reason quotes it as such. 1 when there is one. */
int grade_sim_said(char *buf, size_t len, const char *err)
{
    const char *hit = NULL;
    for (const char *p = err ? strstr(err, "gpulab-sim: ") : NULL; p;
         p = strstr(p + 1, "gpulab-sim: "))
        if (p == err || p[-1] == '\n')
            hit = p;
    if (!hit)
        return 0;
    hit += strlen("gpulab-sim: ");
    size_t n = strcspn(hit, "\n"), k = 0;
    char line[1024];
    /* Paths into a submission's build copy are named from the lab folder:
     * "/tmp/x/gpulab-submission/05_training/kernels.cu" -> "05_training/kernels.cu". */
    for (size_t i = 0; i < n && k + 1 < sizeof(line); i++) {
        static const char copy[] = "gpulab-submission/";
        if (!strncmp(hit + i, copy, sizeof(copy) - 1)) {
            while (k > 0 && line[k - 1] != ' ')
                k--;
            i += sizeof(copy) - 2;
            continue;
        }
        line[k++] = hit[i];
    }
    line[k] = '\0';
    hit = line;
    n = k;
    const char *stop = strstr(hit, ". ");
    if (stop && (size_t)(stop - hit) < n)
        n = (size_t)(stop - hit);
    if (n >= len)
        n = len - 1;
    for (size_t i = 0; i < n; i++) /* printable ASCII only: it is the program's output */
        buf[i] = hit[i] >= 0x20 && hit[i] < 0x7f && hit[i] != '"' ? hit[i] : '?';
    buf[n] = '\0';
    return 1;
}

/* Whether the simulator's memcheck ran the whole run: its banner and its
 * error summary, both from the simulator itself (with the run's key when it
 * has one). A program that turns the check off (unsetenv before the
 * simulator reads it) or ends without the summary fails, saying which. */
int grade_memcheck_ran(char *why, size_t len, const char *err, const char *key)
{
    grade_sim_report r;
    grade_sim_report_parse(&r, err, key);
    if (!r.check_mode || !strstr(r.tools, "memcheck"))
        snprintf(why, len,
                 "memcheck did not run: the simulator's banner (\"gpulab-sim check mode: "
                 "memcheck\") is missing from the run's stderr; the run had "
                 "GPULAB_SIM_CHECK=memcheck, so the program changed its environment before the "
                 "simulator read it, or replaced the check build: refused");
    else if (!r.summary)
        snprintf(why, len,
                 "memcheck did not finish: the simulator's \"ERROR SUMMARY\" is missing from the "
                 "run's stderr (the program ended without returning from main or calling exit: "
                 "_exit, a signal, exec?)");
    else
        return 1;
    return 0;
}
