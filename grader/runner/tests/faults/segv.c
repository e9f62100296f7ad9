/* segv.c — prints a line, then writes through a null pointer: SIGSEGV. */
#include <stdio.h>

int main(void)
{
    printf("before the crash\n");
    fflush(stdout);
    volatile int *p = NULL;
    *p = 42;
    return 0;
}
