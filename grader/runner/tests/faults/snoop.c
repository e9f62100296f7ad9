/*
 * snoop.c — tries to read the file named by argv[1], outside its working
 * directory. Prints "READ: <first line>" and exits 0 when it can, prints
 * "denied: <why>" and exits 1 when it cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        printf("denied: %s\n", strerror(errno));
        return 1;
    }
    char line[256] = "";
    if (!fgets(line, sizeof(line), f))
        line[0] = '\0';
    fclose(f);
    printf("READ: %s\n", line);
    return 0;
}
