#include <stddef.h>

/* y = A x, A is (n, m), row-major. */
void matvec_cpu(const float *A, const float *x, float *y, int n, int m)
{
    /* >>> SOLUTION */
    for (int r = 0; r < n; r++) {
        float s = 0.0f;
        for (int c = 0; c < m; c++)
            s += A[(size_t)r * m + c] * x[c];
        y[r] = s;
    }
    /* === STUB */
    /* TODO: one dot product per row. */
    (void)A, (void)x, (void)y, (void)n, (void)m;
    /* <<< END */
}
// >>> SOLUTION
int matvec_solution_only = 1;
// === STUB
// <<< END