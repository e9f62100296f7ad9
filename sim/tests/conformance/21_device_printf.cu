// clang-format off
// EXPECT-OUTPUT: conf-printf 0: block=1 thread=37 int=-3 float=0\.000 str=abc char=a hex=ff ll=1099511627776.*conf-printf 1: block=1 thread=37 int=-2 float=1\.250 str=abc char=b hex=100 ll=2199023255552.*conf-printf 2: block=1 thread=37 int=1 float=2\.500 str=abc char=c hex=101 ll=4398046511104.*conf-printf 3: block=1 thread=37 int=6 float=3\.750 str=abc char=d hex=102 ll=8796093022208.*PASS 21_device_printf
// clang-format on
// 21_device_printf — device printf: one thread (block 1, thread 37) prints four
// lines in order, with %d %f %s %c %x %lld conversions; the output appears by
// the next synchronisation. The test matches stdout against the regex above,
// which ends with this program's PASS line (a FAIL line cannot match).
#include "conformance.h"

__global__ void say(int *done)
{
    if (blockIdx.x == 1 && threadIdx.x == 37) {
        for (int k = 0; k < 4; k++)
            printf("conf-printf %d: block=%d thread=%d int=%d float=%.3f str=%s char=%c hex=%x "
                   "ll=%lld\n",
                   k, (int)blockIdx.x, (int)threadIdx.x, k * k - 3, k * 1.25f, "abc", 'a' + k,
                   255 + k, 1LL << (40 + k));
        *done = 1;
    }
}

int main(void)
{
    conf_require_device();

    int *d_done, done = 0;
    CHECK_CUDA(cudaMalloc(&d_done, sizeof(int)));
    CHECK_CUDA(cudaMemset(d_done, 0, sizeof(int)));
    fflush(stdout);
    say<<<2, 64>>>(d_done);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    fflush(stdout);
    CHECK_CUDA(cudaMemcpy(&done, d_done, sizeof(int), cudaMemcpyDeviceToHost));
    conf_check(done == 1, "the printing thread did not run");

    CHECK_CUDA(cudaFree(d_done));
    return conf_finish();
}
