/*
 * runner_words.c — what the runner says: signal names and descriptions, sizes
 * in words, and the one line that tells a student how a run ended.
 */
#define _GNU_SOURCE

#include "runner_internal.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* ---------------------------------------------------------------------------------------------
 * Names and words
 */

struct sig_word {
    int sig;
    const char *name;
    const char *what;
};

static const struct sig_word sig_words[] = {
    { SIGHUP, "SIGHUP", "hangup" },
    { SIGINT, "SIGINT", "interrupted" },
    { SIGQUIT, "SIGQUIT", "quit" },
    { SIGILL, "SIGILL", "illegal instruction" },
    { SIGTRAP, "SIGTRAP", "trace or breakpoint trap" },
    { SIGABRT, "SIGABRT", "aborted: abort() or a failed assert" },
    { SIGBUS, "SIGBUS", "bus error: bad memory access" },
    { SIGFPE, "SIGFPE", "arithmetic error, such as an integer division by zero" },
    { SIGKILL, "SIGKILL", "killed" },
    { SIGUSR1, "SIGUSR1", "user signal 1" },
    { SIGSEGV, "SIGSEGV", "segmentation fault: invalid memory access" },
    { SIGUSR2, "SIGUSR2", "user signal 2" },
    { SIGPIPE, "SIGPIPE", "broken pipe" },
    { SIGALRM, "SIGALRM", "alarm clock" },
    { SIGTERM, "SIGTERM", "terminated" },
    { SIGSTKFLT, "SIGSTKFLT", "stack fault" },
    { SIGCHLD, "SIGCHLD", "child status changed" },
    { SIGCONT, "SIGCONT", "continued" },
    { SIGSTOP, "SIGSTOP", "stopped" },
    { SIGTSTP, "SIGTSTP", "stopped from the terminal" },
    { SIGTTIN, "SIGTTIN", "terminal input while in the background" },
    { SIGTTOU, "SIGTTOU", "terminal output while in the background" },
    { SIGURG, "SIGURG", "urgent socket data" },
    { SIGXCPU, "SIGXCPU", "CPU time limit exceeded" },
    { SIGXFSZ, "SIGXFSZ", "file size limit exceeded" },
    { SIGVTALRM, "SIGVTALRM", "virtual timer expired" },
    { SIGPROF, "SIGPROF", "profiling timer expired" },
    { SIGWINCH, "SIGWINCH", "window size changed" },
    { SIGIO, "SIGIO", "I/O possible" },
    { SIGPWR, "SIGPWR", "power failure" },
    { SIGSYS, "SIGSYS", "bad system call" },
};

static const struct sig_word *sig_find(int sig)
{
    for (size_t i = 0; i < sizeof(sig_words) / sizeof(sig_words[0]); i++)
        if (sig_words[i].sig == sig)
            return &sig_words[i];
    return NULL;
}

const char *grade_signal_name(int sig)
{
    const struct sig_word *w = sig_find(sig);
    return w ? w->name : "SIG?";
}

const char *grade_signal_description(int sig)
{
    const struct sig_word *w = sig_find(sig);
    return w ? w->what : "unknown signal";
}

const char *grade_end_name(grade_end end)
{
    switch (end) {
    case GRADE_EXITED:
        return "exited";
    case GRADE_SIGNALED:
        return "signaled";
    case GRADE_WALL_TIMEOUT:
        return "wall timeout";
    case GRADE_CPU_TIMEOUT:
        return "cpu timeout";
    case GRADE_START_FAILED:
        return "start failed";
    }
    return "?";
}

/* "64 MiB", "1 GiB", "1.5 GiB", "512 KiB", "100 bytes". */
void grade_fmt_bytes(char *buf, size_t cap, size_t n)
{
    static const char *units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)n;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (u == 0 || v == floor(v))
        snprintf(buf, cap, "%.0f %s", v, units[u]);
    else
        snprintf(buf, cap, "%.1f %s", v, units[u]);
}

void grade_append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* Writes a line into a fixed buffer, truncating quietly (reasons, isolation words). */
void grade_say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* Case-insensitive substring search over a buffer that is NUL-terminated. */
int grade_mentions(const char *hay, const char *needle)
{
    return hay && strcasestr(hay, needle) != NULL;
}

/* ---------------------------------------------------------------------------------------------
 * How it ended, in words
 */

static int stderr_says_oom(const grade_run *r)
{
    return grade_mentions(r->err, "out of memory") ||
           grade_mentions(r->err, "cannot allocate memory") ||
           grade_mentions(r->err, "bad_alloc") || grade_mentions(r->err, "allocation failed") ||
           grade_mentions(r->err, "malloc failed");
}

void grade_classify(grade_run *r, int wstatus, int timed_out, int unkillable, const grade_limits *l,
                    double cpu_main)
{
    char oom[128] = "";
    if (l->address_space > 0 && stderr_says_oom(r)) {
        char as[32];
        grade_fmt_bytes(as, sizeof(as), l->address_space);
        grade_say(oom, sizeof(oom), "ran out of memory (address space limit %s)", as);
    }
    int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
    if (sig) {
        r->signal = sig;
        snprintf(r->signal_name, sizeof(r->signal_name), "%s", grade_signal_name(sig));
    }
    /* SIGXCPU at the soft limit; SIGKILL at the hard one (or ours) once the CPU time is spent. */
    int cpu_spent = l->cpu_seconds > 0 && cpu_main >= ceil(l->cpu_seconds);
    if (l->cpu_seconds > 0 && (sig == SIGXCPU || (cpu_spent && (sig == SIGKILL || timed_out)))) {
        r->end = GRADE_CPU_TIMEOUT;
        grade_say(r->reason, sizeof(r->reason),
                  "exceeded the CPU time limit of %.0f s (an endless loop, or far too slow?)",
                  ceil(l->cpu_seconds));
    } else if (timed_out) {
        r->end = GRADE_WALL_TIMEOUT;
        grade_say(r->reason, sizeof(r->reason),
                  "killed after %.1f s of wall time (hang? waiting for input, a deadlock, or far "
                  "too slow)",
                  l->wall_seconds);
        if (unkillable)
            grade_append(r->reason, sizeof(r->reason),
                         "; it could not be killed and was left running");
    } else if (sig) {
        r->end = GRADE_SIGNALED;
        char fs[32];
        grade_fmt_bytes(fs, sizeof(fs), l->file_size);
        if (sig == SIGXFSZ && l->file_size > 0)
            grade_say(r->reason, sizeof(r->reason),
                      "tried to write a file bigger than the limit of %s (killed by SIGXFSZ)", fs);
        else if (oom[0])
            grade_say(r->reason, sizeof(r->reason), "%s and then crashed with %s (%s)", oom,
                      r->signal_name, grade_signal_description(sig));
        else if (sig == SIGKILL)
            grade_say(r->reason, sizeof(r->reason),
                      "was killed with SIGKILL by someone else (the system, out of memory?)");
        else
            grade_say(r->reason, sizeof(r->reason), "crashed with %s (%s)", r->signal_name,
                      grade_signal_description(sig));
    } else {
        r->end = GRADE_EXITED;
        r->exit_status = WEXITSTATUS(wstatus);
        if (oom[0] && r->exit_status != 0)
            grade_say(r->reason, sizeof(r->reason), "%s and exited with status %d", oom,
                      r->exit_status);
        else
            grade_say(r->reason, sizeof(r->reason), "exited with status %d", r->exit_status);
    }
}
