// extra.cpp — the nvcc driver test: a C++ file in the same program.
#include "util.h"

#include <vector>

int cxx_twice(int x)
{
    std::vector<int> v(2, x);
    return v[0] + v[1];
}
