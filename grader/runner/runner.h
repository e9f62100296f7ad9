/**
 * @file runner.h
 * @brief Runs one lab program in a fresh directory under limits, and says how it ended.
 *
 * The grader calls grade_run_program() once per check. The runner:
 *
 * - makes a fresh directory (mkdtemp under $TMPDIR or /tmp) and copies the
 *   caller's setup directory into it (regular files and directories only;
 *   symbolic links and devices are skipped);
 * - starts the program there in its own session and process group, with
 *   stdin from /dev/null, stdout and stderr on pipes, no other descriptors,
 *   and rlimits on CPU time, address space, file size, process count and open
 *   descriptors (and no core files);
 * - when the grader runs as root, starts it in a PID namespace of its own (the
 *   runner's child unshares it and forks its init, which forks the program: the
 *   program sees and can signal only its own processes, never another run's,
 *   whatever user both run as, and whatever it leaves is killed when it
 *   ends), gives it an empty network namespace (no network) and runs it as an
 *   unprivileged uid of its own
 *   (GRADE_RUN_UID_BASE + the grader's pid: no passwd entry, no other run
 *   shares it, so runs cannot signal each other or share a process count),
 *   with no way back to privileges (PR_SET_NO_NEW_PRIVS), in a mount
 *   namespace of its own: a /proc mounted hidepid=invisible (it sees only its
 *   own processes: not the grader's command line, not another run), empty
 *   private /tmp, /var/tmp and /dev/shm (64 MiB and 256 files each, gone with
 *   the run), and each folder of grade_limits::hide covered by an empty one
 *   (the program is opened before and executed by descriptor, so it may live
 *   under one); the words in grade_run::isolation say which of these were in
 *   force;
 * - reads both pipes concurrently (a chatty program never blocks; output past
 *   grade_limits::output_bytes is read and dropped), kills the whole process
 *   group with SIGKILL at the wall-time limit, and after the program ends
 *   kills whatever it left behind: its process group, its session, and any
 *   orphan re-parented to the grader (the runner makes the calling process a
 *   child subreaper, see below);
 * - classifies the end (exited, signal, wall timeout, CPU timeout, could not
 *   start) and writes one line a student can read ("crashed with SIGSEGV
 *   (segmentation fault)").
 *
 * What the caller must know:
 *
 * - One run at a time per process: the runner is not thread-safe, and the
 *   clean-up kills processes re-parented to the calling process that are not
 *   in its own session (a caller's own background children normally are).
 * - The first call marks the calling process a child subreaper
 *   (PR_SET_CHILD_SUBREAPER), so that a program's orphans come back to it to
 *   be killed and reaped instead of escaping to init.
 * - A process that both leaves the program's session (setsid) and keeps a
 *   live parent inside the program's tree is found once that parent is killed
 *   (it is then re-parented to the caller); the sweep repeats until nothing is
 *   left. As root the PID namespace closes the rest: when the program ends,
 *   its init kills every process of the namespace, and dies with the caller.
 *   Without root a program that makes itself a subreaper as well and
 *   double-forks can in principle hide a process until its own subreaper dies.
 * - In a PID namespace grade_run::pid is the runner's child (the keeper that
 *   waits for the init; the program's process group and session as the caller
 *   sees them); the wait status is the program's, relayed by the init. The
 *   namespace is entered by unshare() and fork(), never a raw clone(), so the
 *   caller may have other threads (glibc's fork resets their locks).
 * - RLIMIT_NPROC counts every process (thread) of the real user. As root it is
 *   not enforced at all, which is one reason the runner drops privileges; the
 *   uid of the run's own means concurrent runs (other jobs of --batch, other
 *   graders) never eat into each other's count.
 *   When the caller is not root, the runner sets the limit to the user's
 *   current number of threads plus grade_limits::max_processes, so another
 *   job of the same user starting processes at the same time shrinks the
 *   program's share. The wall-time kill of the process group is the backstop.
 * - RLIMIT_AS counts virtual address space. The CUDA runtime reserves tens of
 *   GiB of address space when it starts, so set grade_limits::address_space to
 *   0 (no limit) for programs that use a GPU.
 * - As root with grade_limits::dir_entries set, the first call moves the calling
 *   process into a mount namespace of its own (a slave of the machine's: it
 *   still sees new mounts), where each run directory is a tmpfs of its own;
 *   they go when the process ends, whatever way it ends.
 * - Files the program wrote into grade_run::workdir belong to it: read them
 *   without following symbolic links (O_NOFOLLOW), it may have planted some.
 */
#ifndef GRADE_RUNNER_H
#define GRADE_RUNNER_H

#include <stddef.h>
#include <sys/types.h>

#include "lab/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief First uid of the range the runner gives runs as root (uid = this + the grader's pid).
 *  Far above the uids distributions hand out (Debian: up to 60000; nobody is 65534). */
#define GRADE_RUN_UID_BASE 1500000000UL

/** @brief The limits a program runs under. A zero field means "no limit". */
typedef struct grade_limits {
    double wall_seconds;  /**< Whole process group killed (SIGKILL) after this many seconds. */
    double cpu_seconds;   /**< RLIMIT_CPU, rounded up to whole seconds (SIGXCPU, then SIGKILL). */
    size_t address_space; /**< RLIMIT_AS in bytes. Use 0 for programs that use CUDA. */
    size_t file_size;     /**< RLIMIT_FSIZE in bytes: a bigger write raises SIGXFSZ. */
    int max_processes;    /**< Processes the program may add (RLIMIT_NPROC; see the file notes). */
    int max_files;        /**< Descriptors it may hold open at once (RLIMIT_NOFILE). */
    size_t output_bytes;  /**< Bytes kept of stdout and of stderr, each; the rest is dropped. */
    /** Files and folders the run directory may hold, setup copy included: as root it is a tmpfs
     *  of that many inodes (and dir_bytes bytes; 0: 1 GiB), in the caller's own mount
     *  namespace (see the file notes). 0: no cap. */
    int dir_entries;
    size_t dir_bytes;
    const char *user; /**< Whom to run as when the caller is root; NULL: a uid of the run's own. */
    /** Folders the program must not see (NULL-terminated; may be NULL): as root each is covered,
     *  in the run's own mount namespace, by an empty read-only folder no one may enter. */
    const char *const *hide;
} grade_limits;

/** @brief How a run ended. */
typedef enum grade_end {
    GRADE_EXITED,       /**< The program called exit; see grade_run::exit_status. */
    GRADE_SIGNALED,     /**< A signal ended it; see grade_run::signal and signal_name. */
    GRADE_WALL_TIMEOUT, /**< The runner killed it at the wall-time limit. */
    GRADE_CPU_TIMEOUT,  /**< It used up its CPU time limit (SIGXCPU or the hard limit's SIGKILL). */
    GRADE_START_FAILED  /**< It never ran: no such program, not executable, or the runner failed. */
} grade_end;

/** @brief Everything known about one run. Free with grade_run_free(). */
typedef struct grade_run {
    grade_end end;        /**< How it ended. */
    int exit_status;      /**< Exit status when end is GRADE_EXITED, else -1. */
    int signal;           /**< Terminating signal number, else 0. */
    char signal_name[32]; /**< "SIGSEGV"; empty when no signal ended it. */
    pid_t pid;            /**< Process id of the program, also its process group and session. */
    double wall_seconds;  /**< Wall time from start to end (CPU wall clock, monotonic). */
    double cpu_seconds;   /**< User + system CPU time of the program and its reaped children. */
    char *out;            /**< Kept stdout, NUL-terminated, malloc'd (NULL if the runner failed). */
    size_t out_len;       /**< Bytes in out, NUL excluded. */
    int out_truncated;    /**< 1 when stdout was longer than grade_limits::output_bytes. */
    char *err;            /**< Kept stderr, as out. */
    size_t err_len;       /**< Bytes in err, NUL excluded. */
    int err_truncated;    /**< 1 when stderr was longer than grade_limits::output_bytes. */
    char workdir[4096];   /**< The fresh directory it ran in; removed by grade_run_free(). */
    int dir_capped;       /**< 1: workdir was a tmpfs capped by dir_entries and dir_bytes. */
    int dir_full;         /**< 1: it ended with no file (2: no byte) left in that tmpfs. */
    char isolation[384];  /**< What was in force, in words ("process group, rlimits, ..."). */
    char reason[512];     /**< One line for a student saying how it ended. */
} grade_run;

/**
 * @brief Runs @p argv[0] in a fresh directory under @p limits and waits for its end.
 *
 * The program gets the caller's environment plus @p envp_extra ("NAME=value"
 * entries replace variables of the same name). Its output, timings and end
 * are written into @p out, which is always initialised, so grade_run_free()
 * is safe on it whatever this function returns.
 *
 * @param[out] out        The run's record.
 * @param[out] err        Error record for a failure of the runner itself; may be NULL.
 * @param argv            NULL-terminated argument vector; argv[0] is a path to the program
 *                        (relative paths are resolved against the caller's directory).
 * @param envp_extra      NULL-terminated extra environment entries; may be NULL.
 * @param limits          Limits; NULL means no limit at all (not advised).
 * @param setup_dir       Directory whose contents are copied into the fresh directory before
 *                        the run; may be NULL.
 * @return LAB_OK when the program was started or failed to start for a reason of its own
 *         (out->end says which; a missing or non-executable program is GRADE_START_FAILED
 *         with LAB_OK). A negative lab_status when the runner could not do its job (bad
 *         arguments, no temporary directory, fork failed); then out->end is
 *         GRADE_START_FAILED and out->reason and @p err say why.
 */
int grade_run_program(grade_run *out, lab_error *err, const char *const argv[],
                      const char *const envp_extra[], const grade_limits *limits,
                      const char *setup_dir);

/**
 * @brief Removes a file or a directory and everything in it, never following a symbolic
 *        link (a link is removed, not what it points to); the grader's one remover.
 * @param path What to remove; nothing there is success.
 * @return 0 when @p path is gone, -1 when it is not (errno says why).
 */
int grade_tree_remove(const char *path);

/**
 * @brief Frees the run's buffers and removes its working directory (without following links).
 * @param r Run to free; may be NULL. Safe to call twice.
 */
void grade_run_free(grade_run *r);

/**
 * @brief Name of a signal, independent of the locale ("SIGSEGV").
 * @return A static string; "SIG?" for a number it does not know.
 */
const char *grade_signal_name(int sig);

/**
 * @brief A short description of a signal for students ("segmentation fault").
 * @return A static string; "unknown signal" for a number it does not know.
 */
const char *grade_signal_description(int sig);

/**
 * @brief Name of an end ("exited", "signaled", "wall timeout", "cpu timeout", "start failed").
 */
const char *grade_end_name(grade_end end);

#ifdef __cplusplus
}
#endif

#endif /* GRADE_RUNNER_H */
