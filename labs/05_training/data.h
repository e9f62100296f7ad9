/**
 * @file data.h
 * @brief Lab 05's data: CIFAR-10 binary batches, a synthetic set in the same
 *        layout, and the iris table for the warm-up MLP.
 *
 * Every function returns 0 on success, or -1 with a one-line message in
 * @p why that names the file (or the argument) and what is wrong; on error
 * the output set is left empty (all zero, nothing to free).
 *
 * The CIFAR-10 binary format (cifar-10-batches-bin/): each file is a run of
 * 3073-byte records, one label byte (0..9) then 3072 pixel bytes: the
 * 32x32 red plane, then green, then blue, each row-major. The training set is
 * data_batch_1.bin ... data_batch_5.bin (10000 records each), the test set is
 * test_batch.bin.
 */
#ifndef L5_DATA_H
#define L5_DATA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Image side, channels and bytes per CIFAR-10 record. */
#define L5_IMG_SIDE 32
#define L5_IMG_CHANNELS 3
#define L5_IMG_PIXELS (L5_IMG_CHANNELS * L5_IMG_SIDE * L5_IMG_SIDE) /* 3072 */
#define L5_RECORD_BYTES (1 + L5_IMG_PIXELS)                         /* 3073 */
#define L5_NUM_CLASSES 10

/** The path of the shipped iris CSV (the build defines it; this is a fallback
 *  relative to the repository root). */
#ifndef L5_IRIS_CSV
#define L5_IRIS_CSV "labs/05_training/data/iris.csv"
#endif

/**
 * @brief A labelled image set in CIFAR-10's layout: n images of 3x32x32 floats
 * (channel planes R, G, B; values scaled to [0,1] then normalized with mean
 * 0.5, std 0.5 in every channel, i.e. x = (byte/255 - 0.5) / 0.5).
 */
typedef struct l5_images {
    int n;                /**< number of images */
    float *x;             /**< n * 3 * 32 * 32, malloc'd */
    unsigned char *label; /**< n, values 0..9 */
} l5_images;

/** @brief The float a pixel byte becomes: (b/255 - 0.5) / 0.5, in [-1, 1]. */
float l5_pixel_to_float(unsigned char b);
/** @brief The nearest byte to a normalized float (inverse of l5_pixel_to_float,
 *         clamped to 0..255). */
unsigned char l5_float_to_pixel(float x);

/**
 * @brief Reads the CIFAR-10 binary batches from @p dir.
 * @param[out] out  The images (free with l5_images_free()).
 * @param dir       Directory holding data_batch_1..5.bin (train=1) or
 *                  test_batch.bin (train=0).
 * @param train     1 for the training batches, 0 for the test batch.
 * @param max_n     At most this many images, in file order (0: all).
 * @return 0, or -1 with a message naming the file and what is wrong (missing,
 *         size not a multiple of 3073, label > 9) in @p why.
 */
int l5_cifar_load(l5_images *out, const char *dir, int train, int max_n, char *why, size_t why_len);

/**
 * @brief The synthetic stand-in for CIFAR-10, in the same layout.
 *
 * Deterministic from @p seed on every machine (PCG32 from lab/rng.h, integer
 * arithmetic only). Ten classes a small CNN can learn, each a coloured shape on
 * a coloured background: the class fixes the shape and its colour family,
 * while position, size, exact colours and per-pixel noise vary. Labels cycle
 * 0, 1, ..., 9 in a shuffled order, so any n has counts within one of n/10.
 * Pixels are whole bytes mapped by l5_pixel_to_float(), so the set survives a
 * round trip through l5_cifar_write() and l5_cifar_load() unchanged.
 * @param[out] out The images (free with l5_images_free()).
 * @param n        Number of images (>= 1).
 * @param seed     Seed; the same seed gives the same bytes.
 */
int l5_synthetic(l5_images *out, int n, unsigned long long seed, char *why, size_t why_len);

/**
 * @brief Writes a set as CIFAR-10 binary records (1 label byte + 3072 bytes),
 *        for the synthetic set on disk and for tests.
 *
 * Floats are turned back into bytes with l5_float_to_pixel().
 */
int l5_cifar_write(const char *path, const l5_images *set, char *why, size_t why_len);

/**
 * @brief Opens the lab's images: --data DIR, else $GPULAB_CIFAR10, else the
 *        synthetic set.
 * @param[out] out   The images.
 * @param dir_or_null The --data directory, or NULL.
 * @param train      1 for the training set, 0 for the test set.
 * @param max_n      At most this many images (0: all of CIFAR-10; for the
 *                   synthetic set 0 means 10000 for train, 2000 for test).
 * @param seed       Seed of the synthetic set (the test set uses a derived seed
 *                   so it differs from the training set).
 * @param[out] desc  One line: "CIFAR-10 from DIR" or "synthetic CIFAR-shaped
 *                   set, seed S".
 * @return 0, or -1 with why (a CIFAR directory that was named but is broken is
 *         an error, never a silent fallback to the synthetic set).
 */
int l5_images_open(l5_images *out, const char *dir_or_null, int train, int max_n,
                   unsigned long long seed, char *desc, size_t desc_len, char *why, size_t why_len);

/** @brief Frees a set's arrays and zeroes it; accepts NULL and empty sets. */
void l5_images_free(l5_images *set);

/**
 * @brief A small table of float features and labels (the iris set).
 */
typedef struct l5_table {
    int n;                /**< rows */
    int d;                /**< features per row */
    float *x;             /**< n * d, row-major, malloc'd */
    unsigned char *label; /**< n */
} l5_table;

/**
 * @brief Reads the iris data set (150 rows, 4 features, 3 classes) from a CSV.
 *
 * The file has a header line, then rows of 4 numbers and a class: a number
 * (0, 1, 2 or 0.0, 1.0, 2.0 as data/iris.csv has) or a name (setosa,
 * versicolor, virginica, with or without "Iris-"). Features as given (no
 * normalization); labels 0..2 in the order setosa, versicolor, virginica.
 * Errors name the file, line and column.
 * @param[out] out     The table (free with l5_table_free()).
 * @param csv_path     The CSV; NULL: $GPULAB_IRIS_CSV if set, else L5_IRIS_CSV.
 */
int l5_iris_load(l5_table *out, const char *csv_path, char *why, size_t why_len);

/** @brief Frees a table's arrays and zeroes it; accepts NULL. */
void l5_table_free(l5_table *t);

#ifdef __cplusplus
}
#endif

#endif /* L5_DATA_H */
