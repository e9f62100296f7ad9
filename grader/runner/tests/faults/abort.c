/* abort.c — a failed check that calls abort(): SIGABRT. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    fprintf(stderr, "abort.c:8: check failed: n > 0\n");
    abort();
}
