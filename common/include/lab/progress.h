/**
 * @file progress.h
 * @brief Progress display for long work (training epochs, big benchmarks, grading).
 *
 * A progress object prints how far a piece of work has got, in one of three
 * styles chosen for where the output goes:
 *
 * - **TTY** (a terminal): one line redrawn in place with a bar, the percentage,
 *   done/total, the elapsed time and an estimate of the time left,
 *   `train [#########...........] 45% (450/1000) elapsed 9.0 s, eta 11.0 s`.
 *   Redrawn at most about 10 times a second, so updating after every item
 *   costs little; the first and the final state are always drawn.
 * - **LINES** (a log file, a pipe, CI): plain lines
 *   `train: 30% (300/1000) elapsed 6.0 s, eta 14.0 s`. A line is printed when
 *   the work crosses a new multiple of 10% *and* at least 2 s have passed
 *   since the previous line (or since the start), so a whole run prints at
 *   most 9 such lines plus the final one, and a run shorter than 2 s prints
 *   only the final line.
 * - **QUIET**: nothing at all.
 *
 * The final line, printed by lab_progress_finish(), gives the total elapsed
 * time: `train: 100% (1000/1000) done in 20.0 s` (or `stopped at 45% ...` when
 * the work ended early). All times are CPU wall-clock seconds.
 *
 * Before it draws, the display flushes stdout (when it is not drawing on
 * stdout itself), so that with both streams in one pipe or file
 * (`2>&1 | tee log`) each progress line comes after what the program printed
 * before it.
 *
 * A total of 0 means "unknown": the count and the rate are shown instead of a
 * percentage (`scan: 3000 done, 1500.0/s, elapsed 2.0 s`; finally
 * `scan: 3000 done in 2.0 s (1500.0/s)`), and in LINES mode a
 * line is printed when the elapsed time has doubled since the previous one
 * (at 2 s, 4 s, 8 s, ...), which keeps even an hour-long run to about 11 lines.
 *
 * @code
 * lab_progress *p = lab_progress_create(stderr, "epoch 1", n_batches, LAB_PROGRESS_AUTO);
 * for (uint64_t b = 0; b < n_batches; b++) {
 *     train_batch(b);
 *     lab_progress_update(p, b + 1);
 * }
 * lab_progress_destroy(p); // prints the final line
 * @endcode
 */
#ifndef LAB_PROGRESS_H
#define LAB_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How a progress object displays itself. */
enum lab_progress_mode {
    /** TTY when the stream is a terminal and TERM is not "dumb", LINES otherwise;
     *  QUIET when the environment variable GPULAB_PROGRESS is "0". */
    LAB_PROGRESS_AUTO,
    LAB_PROGRESS_TTY,   /**< One line redrawn in place ('\\r' and clear to end of line). */
    LAB_PROGRESS_LINES, /**< Plain lines at 10% steps, at least 2 s apart, for logs. */
    LAB_PROGRESS_QUIET  /**< Print nothing. */
};

/** @brief A progress display (opaque; create with lab_progress_create()). */
typedef struct lab_progress lab_progress;

/**
 * @brief Starts a progress display; in TTY mode it draws the 0% state at once.
 * @param out   Stream to print to (usually stderr); NULL prints nothing.
 * @param label Name of the work, first on every line (copied); NULL gives "progress".
 * @param total Number of items of the whole work; 0 when unknown.
 * @param mode  A lab_progress_mode value; an unknown value counts as AUTO.
 * @return The new object; never NULL (out of memory, it prints a message and
 *         exits 1, as lab_xmalloc() does: a display is for programs).
 */
lab_progress *lab_progress_create(FILE *out, const char *label, uint64_t total, int mode);

/**
 * @brief Reports that @p done items are finished; prints if the display is due.
 *
 * Cheap enough to call after every item. Does nothing after lab_progress_finish().
 * @param p    Progress display.
 * @param done Items finished so far (not an increment); values above the total
 *             show as 100%.
 */
void lab_progress_update(lab_progress *p, uint64_t done);

/**
 * @brief Prints the final line with the total elapsed time; later calls do nothing.
 * @param p Progress display.
 */
void lab_progress_finish(lab_progress *p);

/**
 * @brief Frees a progress display, first finishing it if that was not done.
 * @param p Progress display; NULL does nothing.
 */
void lab_progress_destroy(lab_progress *p);

/**
 * @brief Replaces the clock (for tests and replays) and restarts the elapsed time.
 *
 * The default clock is lab_wall_seconds() of lab/timer.h. A test can pass a
 * function that returns scripted times, so that the printed lines do not
 * depend on how fast the machine is.
 * @param p   Progress display.
 * @param now Function returning seconds from any fixed origin; NULL restores
 *            the default clock.
 */
void lab_progress_set_clock(lab_progress *p, double (*now)(void));

#ifdef __cplusplus
}
#endif

#endif /* LAB_PROGRESS_H */
