// clang-format off
// EXPECT-OUTPUT: kernel count_lines: its printf output did not fit the device.s printf buffer \(cudaLimitPrintfFifoSize, 4096 bytes\): the oldest [0-9]+ bytes, from [0-9]+ calls, were overwritten.*PASS printf_fifo
// clang-format on
// printf_fifo — simulator only: a kernel's printf output goes to the device's
// printf buffer (cudaLimitPrintfFifoSize, set here to 4 KiB) and appears when
// the kernel ends; what does not fit overwrites the oldest output, and the
// simulator says so on stderr. The program catches its own stdout in a file
// and checks that the newest lines, and only they, came out, in order.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LINES 1000
#define LINE_BYTES 17 // "fifo line 000123\n"

__global__ void count_lines(int n)
{
    for (int i = 0; i < n; i++)
        printf("fifo line %06d\n", i);
}

int main(void)
{
    if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096) != cudaSuccess) {
        printf("FAIL printf_fifo: cudaDeviceSetLimit\n");
        return 1;
    }
    char path[] = "/tmp/printf_fifo.XXXXXX";
    int fd = mkstemp(path);
    fflush(stdout);
    FILE *saved = fdopen(dup(fileno(stdout)), "w");
    if (fd < 0 || !saved || dup2(fd, fileno(stdout)) < 0) {
        printf("FAIL printf_fifo: cannot catch stdout\n");
        return 1;
    }
    count_lines<<<1, 1>>>(LINES);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    dup2(fileno(saved), fileno(stdout));

    FILE *f = fopen(path, "r");
    char line[64];
    int first = -1, last = -1, lines = 0, ordered = 1;
    while (f && fgets(line, sizeof(line), f)) {
        int k;
        if (sscanf(line, "fifo line %d", &k) != 1)
            continue;
        if (first < 0)
            first = k;
        else if (k != last + 1)
            ordered = 0;
        last = k;
        lines++;
    }
    if (f)
        fclose(f);
    remove(path);
    int bytes = lines * LINE_BYTES;
    printf("kept lines %d to %d (%d lines, %d bytes), %s\n", first, last, lines, bytes,
           cudaGetErrorName(e));
    int ok = e == cudaSuccess && last == LINES - 1 && first > 0 && ordered && bytes <= 4096 &&
             bytes > 4096 - 2 * LINE_BYTES;
    printf("%s printf_fifo\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
