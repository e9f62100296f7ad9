// bad.cu: malformed launches; gpulab-sim-rewrite must report each and exit 1.
__global__ void k(int *p) {}
void run(int *p)
{
    k<<<1>>>(p);
    k<<<1, 2>>>(p);
    k<<<1, 2, 3, 4, 5>>>(p);
}
