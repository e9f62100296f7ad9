/*
 * ok.c — a well-behaved program: reads the setup file input.txt from its
 * working directory, writes out/result.txt, prints to stdout and stderr, and
 * exits with the status given as argv[1] (default 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char line[256] = "";
    FILE *in = fopen("input.txt", "r");
    if (in) {
        if (!fgets(line, sizeof(line), in))
            line[0] = '\0';
        fclose(in);
    }
    line[strcspn(line, "\n")] = '\0';
    FILE *out = fopen("out/result.txt", "w");
    if (out) {
        fprintf(out, "result of %s\n", line);
        fclose(out);
    }
    const char *var = getenv("GPULAB_RUNNER_TEST");
    printf("hello stdout; input=%s; var=%s\n", line, var ? var : "(unset)");
    fprintf(stderr, "hello stderr\n");
    return argc > 1 ? atoi(argv[1]) : 0;
}
