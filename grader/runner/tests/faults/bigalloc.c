/*
 * bigalloc.c — allocates 64 GiB and fills it; checks malloc like a careful
 * student and aborts with a message when it fails.
 * Safety net if no limit stops it: fills at most 256 MiB, then exits 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    size_t bytes = (size_t)64 << 30;
    char *volatile p = malloc(bytes); /* volatile: clang would drop the unused allocation */
    if (!p) {
        fprintf(stderr, "bigalloc: malloc(64 GiB) failed: out of memory\n");
        abort();
    }
    memset(p, 1, (size_t)256 << 20);
    fprintf(stderr, "bigalloc: the address-space limit was not enforced\n");
    free(p);
    return 3;
}
