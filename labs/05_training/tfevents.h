/**
 * @file tfevents.h
 * @brief TensorBoard event files with scalars, written without TensorFlow.
 *
 * An event file is runs/<name>/events.out.tfevents.<time>.<host>.<pid>.<k>
 * (TensorBoard finds any file with "tfevents" in its name). It is a series of
 * records, framed as TFRecord:
 *
 *     uint64 length (little-endian)
 *     uint32 masked CRC-32C of those 8 length bytes
 *     length bytes of data
 *     uint32 masked CRC-32C of the data
 *
 * where masked(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8. Each record's
 * data is an Event protocol buffer: wall_time (double, field 1), step (int64,
 * field 2), and either file_version (string, field 3; the first record,
 * "brain.Event:2") or summary (field 5), a Summary whose repeated field 1 holds
 * one Value: tag (string, field 1) and simple_value (float, field 2).
 *
 * Typical use:
 * @code
 * l5_tfevents *w = l5_tfevents_open("runs/cpu", why, sizeof(why));
 * l5_tfevents_scalar(w, "loss/train", loss, step);
 * l5_tfevents_close(w);
 * @endcode
 */
#ifndef L5_TFEVENTS_H
#define L5_TFEVENTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An open event file (opaque). */
typedef struct l5_tfevents l5_tfevents;

/**
 * @brief Creates @p logdir (and its parents) and opens a new event file in it.
 *
 * Writes the file_version record at once.
 * @return The writer, or NULL with a message in @p why on failure.
 */
l5_tfevents *l5_tfevents_open(const char *logdir, char *why, size_t why_len);

/**
 * @brief Appends one scalar event (wall time now, @p step, @p tag = @p value).
 * @return 0, or -1 when the write failed (errno tells why) or @p tag is NULL.
 */
int l5_tfevents_scalar(l5_tfevents *w, const char *tag, float value, long long step);

/** @brief Flushes what was written to the file, so TensorBoard sees it now.
 *  @return 0 or -1 (errno tells why). */
int l5_tfevents_flush(l5_tfevents *w);

/** @brief Flushes and closes the file and frees the writer; accepts NULL. */
void l5_tfevents_close(l5_tfevents *w);

/** @brief The path of the event file, for messages. */
const char *l5_tfevents_path(const l5_tfevents *w);

/**
 * @brief CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of @p n bytes.
 *
 * "123456789" gives 0xE3069283.
 */
uint32_t l5_crc32c(const void *data, size_t n);

/** @brief The masked CRC TFRecord stores: ((crc >> 15) | (crc << 17)) + 0xa282ead8. */
uint32_t l5_crc32c_masked(const void *data, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* L5_TFEVENTS_H */
