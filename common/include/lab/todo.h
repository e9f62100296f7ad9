/**
 * @file todo.h
 * @brief LAB_TODO_UNUSED: what a starter's unfinished function says about its parameters.
 *
 * A function whose body is still a TODO does not use its parameters, and the
 * compiler warns about each. The starter files name them once instead:
 * @code
 * __global__ void relu_forward_kernel(float *y, const float *x, size_t n)
 * {
 *     // TODO 1: ...
 *     LAB_TODO_UNUSED(y, x, n); // delete this line when you write the body
 * }
 * @endcode
 * It works in C, C++ and CUDA device code, for one to twelve names, and
 * compiles to nothing.
 */
#ifndef LAB_TODO_H
#define LAB_TODO_H

/** @cond internal */
#define LAB_TODO_U1_(a) ((void)(a))
#define LAB_TODO_U2_(a, b) (LAB_TODO_U1_(a), LAB_TODO_U1_(b))
#define LAB_TODO_U3_(a, b, c) (LAB_TODO_U2_(a, b), LAB_TODO_U1_(c))
#define LAB_TODO_U4_(a, b, c, d) (LAB_TODO_U3_(a, b, c), LAB_TODO_U1_(d))
#define LAB_TODO_U5_(a, b, c, d, e) (LAB_TODO_U4_(a, b, c, d), LAB_TODO_U1_(e))
#define LAB_TODO_U6_(a, b, c, d, e, f) (LAB_TODO_U5_(a, b, c, d, e), LAB_TODO_U1_(f))
#define LAB_TODO_U7_(a, b, c, d, e, f, g) (LAB_TODO_U6_(a, b, c, d, e, f), LAB_TODO_U1_(g))
#define LAB_TODO_U8_(a, b, c, d, e, f, g, h) (LAB_TODO_U7_(a, b, c, d, e, f, g), LAB_TODO_U1_(h))
#define LAB_TODO_U9_(a, b, c, d, e, f, g, h, i)                                                    \
    (LAB_TODO_U8_(a, b, c, d, e, f, g, h), LAB_TODO_U1_(i))
#define LAB_TODO_U10_(a, b, c, d, e, f, g, h, i, j)                                                \
    (LAB_TODO_U9_(a, b, c, d, e, f, g, h, i), LAB_TODO_U1_(j))
#define LAB_TODO_U11_(a, b, c, d, e, f, g, h, i, j, k)                                             \
    (LAB_TODO_U10_(a, b, c, d, e, f, g, h, i, j), LAB_TODO_U1_(k))
#define LAB_TODO_U12_(a, b, c, d, e, f, g, h, i, j, k, l)                                          \
    (LAB_TODO_U11_(a, b, c, d, e, f, g, h, i, j, k), LAB_TODO_U1_(l))
#define LAB_TODO_PICK_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, name, ...) name
/** @endcond */

/**
 * @brief Marks the parameters (or variables) an unfinished TODO does not use yet, so
 *        that the starter compiles without a warning; delete it with the TODO.
 * @param ... One to twelve names.
 */
#define LAB_TODO_UNUSED(...)                                                                       \
    LAB_TODO_PICK_(__VA_ARGS__, LAB_TODO_U12_, LAB_TODO_U11_, LAB_TODO_U10_, LAB_TODO_U9_,         \
                   LAB_TODO_U8_, LAB_TODO_U7_, LAB_TODO_U6_, LAB_TODO_U5_, LAB_TODO_U4_,           \
                   LAB_TODO_U3_, LAB_TODO_U2_, LAB_TODO_U1_, unused)                               \
    (__VA_ARGS__)

#endif /* LAB_TODO_H */
