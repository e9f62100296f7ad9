/* Host allocation that exits on failure: see lab/alloc.h. */
#include "lab/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The exit status of a failed run (LAB_EXIT_FAIL in lab/protocol.h). */
#define ALLOC_EXIT_FAIL 1

static void out_of_memory(size_t count, size_t size)
{
    fflush(stdout);
    if (count == 1)
        fprintf(stderr, "out of memory: could not allocate %zu bytes (%.1f MiB)\n", size,
                (double)size / (1024.0 * 1024.0));
    else if (size && count > SIZE_MAX / size)
        fprintf(stderr,
                "out of memory: %zu elements of %zu bytes is more than the address space holds\n",
                count, size);
    else
        fprintf(stderr, "out of memory: could not allocate %zu elements of %zu bytes (%.1f MiB)\n",
                count, size, (double)count * (double)size / (1024.0 * 1024.0));
    exit(ALLOC_EXIT_FAIL);
}

void *lab_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        out_of_memory(1, bytes);
    return p;
}

void *lab_xcalloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        out_of_memory(count, size);
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count, size);
    return p;
}
