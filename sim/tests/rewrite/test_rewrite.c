/* Unit tests of the sim backend's launch rewriter (sim/rewrite). */
#include "rewrite.h"
#include "lab_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "#line 1 \"t.cu\"\n"

/* Rewrites src as file "t.cu"; returns the status, the result in *res. */
static int rewrite(const char *src, unsigned flags, gpulab_rw_result *res)
{
    return gpulab_rw_rewrite(src, strlen(src), "t.cu", flags, res);
}

/* Checks that src rewrites without errors to HEADER + want. */
#define CHECK_REWRITE(src, want)                                                                   \
    do {                                                                                           \
        gpulab_rw_result res_;                                                                     \
        CHECK_EQ_INT(rewrite((src), 0, &res_), 0);                                                 \
        CHECK_STREQ(res_.text, HEADER want);                                                       \
        CHECK_STREQ(res_.errors, "");                                                              \
        gpulab_rw_result_free(&res_);                                                              \
    } while (0)

/* Checks that src is left as it is. */
#define CHECK_UNTOUCHED(src) CHECK_REWRITE(src, src)

/* Checks that src fails with exactly one error, the message @p msg. */
#define CHECK_ERROR(src, msg)                                                                      \
    do {                                                                                           \
        gpulab_rw_result res_;                                                                     \
        CHECK_EQ_INT(rewrite((src), 0, &res_), 1);                                                 \
        CHECK_EQ_INT(res_.error_count, 1);                                                         \
        CHECK_STREQ(res_.errors, msg "\n");                                                        \
        gpulab_rw_result_free(&res_);                                                              \
    } while (0)

static int count_newlines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_two_three_four_config_args(void)
{
    /* Only the configuration arguments written appear: no 0 fillers. */
    CHECK_REWRITE("k<<<g, b>>>(x);", "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x\")(g, b)(x);");
    CHECK_REWRITE("k<<<g, b, s>>>(x);", "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x\")(g, b, s)(x);");
    CHECK_REWRITE("k<<<g, b, s, st>>>(x, y);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x, y\")(g, b, s, st)(x, y);");
    CHECK_REWRITE("k <<< g,b >>> (x);", "GPULAB_SIM_LAUNCH((k ), \"k\", 1, \"x\")( g,b ) (x);");
}

static void test_empty_kernel_arguments(void)
{
    CHECK_REWRITE("k<<<1,1>>>();", "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"\")(1,1)();");
}

/* The fourth argument of GPULAB_SIM_LAUNCH: the kernel's arguments as one line of text. */
static void test_args_literal(void)
{
    /* A space between two words and after each comma, none elsewhere. */
    CHECK_REWRITE("k<<<1, 2>>>(a ,b,  (unsigned int) c + 1);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"a, b, (unsigned int)c+1\")(1, 2)"
                  "(a ,b,  (unsigned int) c + 1);");
    CHECK_REWRITE("k<<<1, 2>>>(f(a, g(b, c)), d[i]);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"f(a, g(b, c)), d[i]\")(1, 2)"
                  "(f(a, g(b, c)), d[i]);");
    /* String and character literals are shown as ..., whatever they hold. */
    CHECK_REWRITE("k<<<1, 2>>>(x, \"a\\\"), (b\", '\\'', u8\"w\", R\"(\\)\");",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x, ..., ..., ..., ...\")(1, 2)"
                  "(x, \"a\\\"), (b\", '\\'', u8\"w\", R\"(\\)\");");
    /* Anything else that a C string cannot hold as it is gets escaped. */
    CHECK_REWRITE("k<<<1, 2>>>(caf\\u00e9);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"caf\\\\u00e9\")(1, 2)(caf\\u00e9);");
    /* No arguments, or only a comment, give "". */
    CHECK_REWRITE("k<<<1, 2>>>();", "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"\")(1, 2)();");
    CHECK_REWRITE("k<<<1, 2>>>( /* none */\n);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"\")(1, 2)( /* none */\n);");
}

static void test_args_literal_multiline(void)
{
    /* The literal is on one line; the arguments keep their newlines and comments. */
    const char *src = "k<<<1, 2>>>(a, // first\n  b /* second */,\n  c\n);\nint z;\n";
    gpulab_rw_result res;
    CHECK_EQ_INT(rewrite(src, 0, &res), 0);
    CHECK_STREQ(res.text, HEADER "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"a, b, c\")(1, 2)"
                                 "(a, // first\n  b /* second */,\n  c\n);\nint z;\n");
    CHECK_EQ_INT(count_newlines(res.text), count_newlines(src) + 1);
    gpulab_rw_result_free(&res);
    /* Line splices in a #define body are whitespace to the literal. */
    CHECK_REWRITE("#define L(p, n) k<<<1, 2>>>(p, \\\n    n)\nint y;\n",
                  "#define L(p, n) GPULAB_SIM_LAUNCH((k), \"k\", 1, \"p, n\")(1, 2)(p, \\\n"
                  "    n)\nint y;\n");
}

/* `extern __shared__ T name[];` becomes the simulator's per-worker dynamic shared buffer. */
static void test_extern_shared(void)
{
    CHECK_REWRITE("extern __shared__ float s[];\n",
                  "extern __thread float s[] GPULAB_SIM_DYNAMIC_SHARED;\n");
    CHECK_REWRITE("__global__ void k(float *x)\n{\n    extern __shared__ float s[];\n"
                  "    s[0] = x[0];\n}\n",
                  "__global__ void k(float *x)\n{\n"
                  "    GPULAB_SIM_DYNAMIC_SHARED_REF(s, float);\n    s[0] = x[0];\n}\n");
    /* In a function body (where GCC would drop the assembler name in a
     * template): a reference, alignment dropped, newlines after it. */
    CHECK_REWRITE("void f()\n{\n    extern __shared__ __align__(16) volatile unsigned int\n"
                  "        raw[];\n    extern double __shared__ d[];\n}\n",
                  "void f()\n{\n    GPULAB_SIM_DYNAMIC_SHARED_REF(raw, volatile unsigned int)\n"
                  ";\n    GPULAB_SIM_DYNAMIC_SHARED_REF(d, double);\n}\n");
    CHECK_REWRITE("extern __shared__ __align__(16) float s[];",
                  "extern __thread __align__(16) float s[] GPULAB_SIM_DYNAMIC_SHARED;");
    CHECK_REWRITE("extern /* c */ __shared__\n  int s[ ] ;",
                  "extern /* c */ __thread\n  int s[ ]  GPULAB_SIM_DYNAMIC_SHARED;");
    CHECK_REWRITE("#define SMEM extern __shared__ float s[];\n",
                  "#define SMEM extern __thread float s[] GPULAB_SIM_DYNAMIC_SHARED;\n");
    /* __shared__ after the type (cuda-samples write it so) */
    CHECK_REWRITE("extern double __shared__ sdata[];\n",
                  "extern __thread double  sdata[] GPULAB_SIM_DYNAMIC_SHARED;\n");
    CHECK_REWRITE("    extern unsigned int __shared__ s[];",
                  "    extern __thread unsigned int  s[] GPULAB_SIM_DYNAMIC_SHARED;");
    CHECK_REWRITE("extern ns::T __shared__\n  s[];",
                  "extern __thread ns::T \n  s[] GPULAB_SIM_DYNAMIC_SHARED;");
}

/* A `__shared__` declaration in a function body becomes a type per name and a
 * reference to the block's copy in the simulator's shared window, on the
 * line of its ';'. */
static void test_static_shared(void)
{
    CHECK_REWRITE("__global__ void k(float *x)\n{\n    __shared__ float t[32];\n"
                  "    t[0] = x[0];\n}\n",
                  "__global__ void k(float *x)\n{\n    typedef float gpulab_sim_shared_t[32]; "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_t, t, 3);\n"
                  "    t[0] = x[0];\n}\n");
    /* Several names, pointers and scalars; static, __align__ and 2-D arrays. */
    CHECK_REWRITE("__device__ void f() { __shared__ int a[4], *b, c; }",
                  "__device__ void f() { typedef int gpulab_sim_shared_a[4], *gpulab_sim_shared_b, "
                  "gpulab_sim_shared_c; GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_a, a, 1); "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_b, b, 1); "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_c, c, 1); }");
    CHECK_REWRITE("__global__ void k() { static __shared__ __align__(16) float t[2][3]; }",
                  "__global__ void k() { typedef  __align__(16) float gpulab_sim_shared_t[2][3]; "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_t, t, 1); }");
    CHECK_REWRITE("template <int N> __global__ void k() {\n  if (N) {\n"
                  "    volatile __shared__ Pair<int, N> p[N];\n  }\n}",
                  "template <int N> __global__ void k() {\n  if (N) {\n"
                  "    typedef volatile  Pair<int, N> gpulab_sim_shared_p[N]; "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_p, p, 3);\n  }\n}");
    CHECK_REWRITE("__global__ void k() { __shared__ struct { int a; } s; }",
                  "__global__ void k() { typedef struct { int a; } gpulab_sim_shared_s; "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_s, s, 1); }");
    /* Newlines stay where they were; the line is the name's. */
    CHECK_REWRITE("void f() {\n  __shared__ float\n    t[4]\n  ;\n}",
                  "void f() {\n  typedef float\n    gpulab_sim_shared_t[4]\n  ; "
                  "GPULAB_SIM_STATIC_SHARED(gpulab_sim_shared_t, t, 3);\n}");
}

/* A `__constant__` variable at file or namespace scope is registered on the
 * line of its ';', initializers and all; what it cannot read stays as it is. */
static void test_constant_registered(void)
{
    CHECK_REWRITE("__constant__ float c[16];\nint x;\n",
                  "__constant__ float c[16]; GPULAB_SIM_CONSTANT(c);\nint x;\n");
    CHECK_REWRITE("static __constant__ int a[3] = {1, 2, 3}, b = f(1, 2),\n  *p;",
                  "static __constant__ int a[3] = {1, 2, 3}, b = f(1, 2),\n  *p; "
                  "GPULAB_SIM_CONSTANT(a); GPULAB_SIM_CONSTANT(b); GPULAB_SIM_CONSTANT(p);");
    CHECK_REWRITE("namespace n {\n__constant__ float4 v = make_float4(1, 2, 3, 4);\n}",
                  "namespace n {\n__constant__ float4 v = make_float4(1, 2, 3, 4); "
                  "GPULAB_SIM_CONSTANT(v);\n}");
    CHECK_REWRITE("extern \"C\" {\n__constant__ Pair<int, 2> q;\n}",
                  "extern \"C\" {\n__constant__ Pair<int, 2> q; GPULAB_SIM_CONSTANT(q);\n}");
    /* extern, templates, function and class scope, directives, brace-only
     * initializers, a function declared __constant__ by mistake. */
    CHECK_UNTOUCHED("extern __constant__ float c[];\ntemplate <class T> __constant__ T t[4];\n");
    CHECK_UNTOUCHED("void f() { __constant__ int x; }\nstruct S { __constant__ int y; };\n");
    CHECK_UNTOUCHED("#define C __constant__ float c[4];\n__constant__ P p{1, 2};\n");
    CHECK_UNTOUCHED("__constant__ int g(int);\n");
}

static void test_other_shared_and_extern_untouched(void)
{
    /* File, namespace and class scope; directives; what is no plain declaration. */
    CHECK_UNTOUCHED("static __shared__ float t[32];\n__shared__ extern float u[];\n");
    CHECK_UNTOUCHED("namespace a {\n__shared__ float t[4];\n}\nstruct S { __shared__ int x; };\n"
                    "extern \"C\" { __shared__ int y; }\n");
    CHECK_UNTOUCHED("void f() {\n#define S __shared__ float t[4];\n}\n");
    CHECK_UNTOUCHED("void f() { __shared__ int x = 0; __shared__ Foo g(3); __shared__ int; }");
    CHECK_UNTOUCHED("void f() { __shared__ float (*p)[4]; __shared__ alignas(16) int z[4]; }");
    CHECK_UNTOUCHED("extern \"C\" void f(void);\nextern \"C\" {\nint g;\n}\n");
    CHECK_UNTOUCHED("extern int x;\nextern float s[];\nextern int __shared_count;\n");
    CHECK_UNTOUCHED(
        "// extern __shared__ float s[];\nconst char *d = \"extern __shared__ a[];\";\n");
    /* A directive without its ';' is left alone and does not bind the next declaration. */
    CHECK_UNTOUCHED("#define SMEM extern __shared__ float s[]\nint a;\n");
    CHECK_UNTOUCHED("extern __shared__ float s[]\n#define X 1\nint a;\n");
}

static void test_launch_after_extern_shared(void)
{
    CHECK_REWRITE("extern __shared__ int s[]; k<<<1, 2>>>(s);",
                  "extern __thread int s[] GPULAB_SIM_DYNAMIC_SHARED; "
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"s\")(1, 2)(s);");
    const char *src =
        "extern __shared__ float s[];\n__global__ void k(float *x)\n{\n"
        "    extern __shared__\n        int t[];\n    t[0] = 1;\n}\n"
        "void run(float *x)\n{\n    k<<<1, 32,\n        32 * sizeof(float)>>>(x);\n}\n";
    gpulab_rw_result res;
    CHECK_EQ_INT(rewrite(src, 0, &res), 0);
    CHECK_STREQ(res.text,
                HEADER "extern __thread float s[] GPULAB_SIM_DYNAMIC_SHARED;\n"
                       "__global__ void k(float *x)\n{\n"
                       "    GPULAB_SIM_DYNAMIC_SHARED_REF(t, int)\n;\n    t[0] = 1;\n}\n"
                       "void run(float *x)\n{\n    GPULAB_SIM_LAUNCH((k), \"k\", 10, \"x\")"
                       "(1, 32,\n        32 * sizeof(float))(x);\n}\n");
    CHECK_EQ_INT(count_newlines(res.text), count_newlines(src) + 1);
    gpulab_rw_result_free(&res);
}

static void test_multiline_nested_parentheses(void)
{
    CHECK_REWRITE("\n\n  k<<<dim3(n, m),\n     dim3{8, 8} /* b */>>>(a,\n  f(a, g(b, c)));\n",
                  "\n\n  GPULAB_SIM_LAUNCH((k), \"k\", 3, \"a, f(a, g(b, c))\")(dim3(n, m),\n"
                  "     dim3{8, 8} /* b */)(a,\n  f(a, g(b, c)));\n");
    CHECK_REWRITE("k<<<a[i, j], (b, c)>>>(x);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x\")(a[i, j], (b, c))(x);");
}

static void test_template_and_qualified_callee(void)
{
    /* The callee is parenthesized, so the commas of its template arguments stay in one macro
     * argument. */
    CHECK_REWRITE("k<float><<<1, 2>>>(x);",
                  "GPULAB_SIM_LAUNCH((k<float>), \"k<float>\", 1, \"x\")(1, 2)(x);");
    CHECK_REWRITE("k<float, 4><<<1, 2>>>(x);",
                  "GPULAB_SIM_LAUNCH((k<float, 4>), \"k<float,4>\", 1, \"x\")(1, 2)(x);");
    CHECK_REWRITE("ns::k<<<1, 2>>>(x);",
                  "GPULAB_SIM_LAUNCH((ns::k), \"ns::k\", 1, \"x\")(1, 2)(x);");
    CHECK_REWRITE("y = ::a :: k < unsigned int, v<2>> <<<1, 2>>>(x);",
                  "y = GPULAB_SIM_LAUNCH((::a :: k < unsigned int, v<2>> ), "
                  "\"::a::k<unsigned int,v<2>>\", 1, \"x\")(1, 2)(x);");
}

static void test_line_numbers_preserved(void)
{
    const char *src = "// 1\n/* 2\n 3 */\n\"4\";\n#define X \\\n  6\n  k<<<1,\n2>>>(x\n);\n";
    gpulab_rw_result res;
    CHECK_EQ_INT(rewrite(src, 0, &res), 0);
    CHECK_CONTAINS(res.text, "\n  GPULAB_SIM_LAUNCH((k), \"k\", 7, \"x\")(1,\n2)(x\n);\n");
    CHECK_EQ_INT(count_newlines(res.text), count_newlines(src) + 1);
    gpulab_rw_result_free(&res);
}

static void test_launch_in_macro_argument(void)
{
    CHECK_REWRITE("CHECK(k<<<1, 2>>>(x));",
                  "CHECK(GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x\")(1, 2)(x));");
}

static void test_launch_in_define_body(void)
{
    CHECK_REWRITE("#define LAUNCH(x) \\\n    k<<<1, \\\n        2>>>(x)\nint y = a << 2;\n",
                  "#define LAUNCH(x) \\\n    GPULAB_SIM_LAUNCH((k), \"k\", 2, \"x\")(1, \\\n"
                  "        2)(x)\nint y = a << 2;\n");
}

static void test_comments_strings_chars_untouched(void)
{
    CHECK_UNTOUCHED("// k<<<1, 2>>>(x);\n/* k<<<1, 2>>>(x); */\n");
    CHECK_UNTOUCHED("const char *s = \"a<<<b>>>\";\n");
    CHECK_UNTOUCHED("s = \"q\\\"k<<<1,2>>>(x)\\\"\"; t = L\"<<<\";\n");
    CHECK_UNTOUCHED("char c = '<', d = '\\'', e = '>'; int m = '<<<', n = '>>>(';\n");
    CHECK_UNTOUCHED("s = R\"d(k<<<1, 2>>>(x) \")\" )d\"; t = u8R\"(<<<)\";\n");
    CHECK_UNTOUCHED("// a comment with a splice \\\n k<<<1, 2>>>(x);\n");
}

static void test_shifts_are_not_launches(void)
{
    CHECK_UNTOUCHED("y = a << b; x<<3>>1; a <<= 2; a >>= 1; z = x<<y;\n");
    CHECK_REWRITE("k<<<n >> 5, 1 << k>>>(x);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x\")(n >> 5, 1 << k)(x);");
    CHECK_REWRITE("k<<<x>>1, 2>>>(y);", "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"y\")(x>>1, 2)(y);");
    CHECK_REWRITE("k<<<2, x>>1>>>(y);", "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"y\")(2, x>>1)(y);");
}

static void test_includes_untouched(void)
{
    CHECK_UNTOUCHED("#include <stdio.h>\n#include <vector>\n#include \"a<<<b>>>.h\"\n");
}

static void test_errors_name_file_and_line(void)
{
    CHECK_ERROR("\nk<<<1>>>(x);",
                "t.cu:2: kernel launch needs 2 to 4 arguments between <<< and >>>, found 1");
    CHECK_ERROR("\n\nk<<<1, 2, 3, 4, 5>>>(x);",
                "t.cu:3: kernel launch needs 2 to 4 arguments between <<< and >>>, found 5");
    CHECK_ERROR("k<<<1, 2 (x);\nint y;",
                "t.cu:1: kernel launch: '<<<' without a matching '>>>' (write "
                "k<<<grid, block>>>(args))");
    CHECK_ERROR("k<<<1, 2>>>\n;", "t.cu:1: kernel launch: '>>>' must be followed by the "
                                  "kernel's arguments in ( )");
    CHECK_ERROR("k<<<1, >>>(x);",
                "t.cu:1: kernel launch has an empty argument between <<< and >>>");
    CHECK_ERROR("(*p)<<<1, 2>>>(x);", "t.cu:1: kernel launch: no kernel name before '<<<' (write "
                                      "name<<<grid, block>>>)");
}

static void test_all_errors_reported_and_text_kept(void)
{
    const char *src = "a<<<1>>>(x);\nb<<<1, 2>>>(x);\nc<<<>>>(x);\nd<<<1, 2";
    gpulab_rw_result res;
    CHECK_EQ_INT(rewrite(src, 0, &res), 3);
    CHECK_EQ_INT(res.error_count, 3);
    CHECK_CONTAINS(res.errors, "t.cu:1: kernel launch needs 2 to 4 arguments");
    CHECK_CONTAINS(res.errors, "t.cu:3: kernel launch needs 2 to 4 arguments between <<< and >>>, "
                               "found 0");
    CHECK_CONTAINS(res.errors, "t.cu:4: kernel launch: '<<<' without a matching '>>>'");
    CHECK_STREQ(res.text, HEADER "a<<<1>>>(x);\nGPULAB_SIM_LAUNCH((b), \"b\", 2, \"x\")(1, 2)(x);\n"
                                 "c<<<>>>(x);\nd<<<1, 2");
    gpulab_rw_result_free(&res);
}

static void test_filename_escaped(void)
{
    gpulab_rw_result res;
    CHECK_EQ_INT(gpulab_rw_rewrite("x", 1, "dir\\a\"b.cu", 0, &res), 0);
    CHECK_STREQ(res.text, "#line 1 \"dir\\\\a\\\"b.cu\"\nx");
    gpulab_rw_result_free(&res);
}

/* The sync flag of kernel @p name in src, -1 when not found, -2 when listed twice. */
static int kernel_sync(const char *src, const char *name)
{
    gpulab_rw_result res;
    int found = -1;
    if (rewrite(src, 0, &res) < 0)
        return -3;
    for (size_t i = 0; i < res.kernel_count; i++)
        if (strcmp(res.kernels[i].name, name) == 0)
            found = found == -1 ? res.kernels[i].sync : -2;
    gpulab_rw_result_free(&res);
    return found;
}

static void test_traits_direct_and_through_helpers(void)
{
    CHECK_EQ_INT(kernel_sync("__global__ void k(float *x) { __syncthreads(); }", "k"), 1);
    CHECK_EQ_INT(kernel_sync("__device__ float warp_sum(float v) {\n"
                             "  return v + __shfl_down_sync(0xffffffffu, v, 1); }\n"
                             "__global__ void k(float *x) { x[0] = warp_sum(x[0]); }",
                             "k"),
                 1);
    CHECK_EQ_INT(kernel_sync("__global__ void k(float *x, int n) { if (n) x[0] = 1; }", "k"), 0);
    CHECK_EQ_INT(kernel_sync("static __host__ __device__ inline int *h(int *p) { __syncwarp(); "
                             "return p; }\n__global__ void k(int *p) { h(p); }",
                             "k"),
                 1);
    CHECK_EQ_INT(kernel_sync("__device__ int a(int);\n__global__ void k(int *p) { *p = a(3); }\n"
                             "__device__ int b(int n) { return n ? a(n - 1) : __activemask(); }\n"
                             "__device__ int a(int n) { return b(n); }",
                             "k"),
                 1);
    CHECK_EQ_INT(kernel_sync("__device__ float old(float v) { return __shfl_down(v, 1); }\n"
                             "__global__ void k(float *x) { x[0] = old(x[0]); }",
                             "k"),
                 1);
}

static void test_traits_recursion_terminates(void)
{
    const char *src =
        "__device__ int b(int);\n__device__ int a(int n) { return n ? b(n - 1) : 0; }\n"
        "__device__ int b(int n) { return a(n); }\n"
        "__global__ void k(int *p) { *p = a(3); }\n"
        "__device__ int c(int n) { return n ? c(n - 1) : 0; }\n"
        "__global__ void r(int *p) { *p = c(3); }";
    CHECK_EQ_INT(kernel_sync(src, "k"), 0);
    CHECK_EQ_INT(kernel_sync(src, "r"), 0);
}

static void test_traits_declarations(void)
{
    CHECK_EQ_INT(kernel_sync("__global__ void __launch_bounds__(256, 2) lb(float *x) { "
                             "__syncthreads(); }",
                             "lb"),
                 1);
    CHECK_EQ_INT(kernel_sync("extern \"C\" __global__ void ec(int *p) { *p = 1; }", "ec"), 0);
    CHECK_EQ_INT(
        kernel_sync("extern \"C\" {\n__global__ void eb(int *p) { __syncthreads(); }\n}", "eb"), 1);
    CHECK_EQ_INT(kernel_sync("__global__ void pk(int *p);\nint main(void) { return 0; }\n"
                             "__global__ void pk(int *p) { __syncthreads(); }",
                             "pk"),
                 1);
    CHECK_EQ_INT(kernel_sync("__global__ void only_declared(int *p);", "only_declared"), -1);
    CHECK_EQ_INT(kernel_sync("void host(int *p) { __syncthreads(); }", "host"), -1);
    CHECK_EQ_INT(
        kernel_sync("namespace ns { __global__ void q(int *p) { __syncthreads(); } }", "ns::q"), 1);
    CHECK_EQ_INT(kernel_sync("#ifdef A\n__global__ void twice(int *p) { *p = 1; }\n#else\n"
                             "__global__ void twice(int *p) { __syncthreads(); }\n#endif\n",
                             "twice"),
                 1);
    CHECK_EQ_INT(kernel_sync("__global__ void sm(float *x) { extern __shared__ float s[]; "
                             "s[0] = x[0]; __syncthreads(); }",
                             "sm"),
                 1);
    CHECK_EQ_INT(kernel_sync("__device__ int table[2] = { 1, 2 };\n__global__ void k2(int *p) { "
                             "*p = table[0]; }",
                             "k2"),
                 0);
}

static void test_traits_exact_identifiers(void)
{
    CHECK_EQ_INT(kernel_sync("__global__ void k(int *p) { int __syncthreads_helper_x = 0; "
                             "*p = __syncthreads_helper_x; }",
                             "k"),
                 0);
    CHECK_EQ_INT(kernel_sync("__global__ void k(int *p) {\n  // __syncthreads();\n"
                             "  /* __syncthreads() */ *p = sizeof(\"__syncthreads()\"); }",
                             "k"),
                 0);
}

static void test_traits_output(void)
{
    const char *src = "template <typename T, int N = sizeof(T)>\n__global__ void t(T *x) { "
                      "__syncthreads(); }\n__global__ void a(int *p) { __syncthreads(); }\n"
                      "__global__ void b(int *p) { *p = 0; }";
    gpulab_rw_result res;
    CHECK_EQ_INT(rewrite(src, GPULAB_RW_TRAITS, &res), 0);
    CHECK_EQ_INT(res.kernel_count, 3);
    CHECK(res.kernel_count == 3 && res.kernels[0].is_template && !res.kernels[1].is_template);
    CHECK(res.kernel_count == 3 && res.kernels[1].line == 3);
    const char *tail = "b(int *p) { *p = 0; }\n#line 5 \"t.cu\"\n"
                       "/* gpulab: template kernel t: traits decided at run time */\n"
                       "GPULAB_SIM_KERNEL_TRAITS(a, 1);\nGPULAB_SIM_KERNEL_TRAITS(b, 0);\n";
    CHECK(res.len >= strlen(tail) && strcmp(res.text + res.len - strlen(tail), tail) == 0);
    gpulab_rw_result_free(&res);
    CHECK_EQ_INT(rewrite("__global__ void a(int *p) {}\n", GPULAB_RW_TRAITS, &res), 0);
    CHECK_STREQ(res.text, HEADER "__global__ void a(int *p) {}\n#line 2 \"t.cu\"\n"
                                 "GPULAB_SIM_KERNEL_TRAITS(a, 0);\n");
    gpulab_rw_result_free(&res);
    CHECK_EQ_INT(rewrite("namespace ns {\n__global__ void q(int *p) { __syncwarp(); }\n}\n",
                         GPULAB_RW_TRAITS, &res),
                 0);
    CHECK_CONTAINS(res.text, "}\n#line 4 \"t.cu\"\nGPULAB_SIM_KERNEL_TRAITS(ns::q, 1);\n");
    gpulab_rw_result_free(&res);
    CHECK_EQ_INT(rewrite("__global__ void a(int *p) {}", 0, &res), 0);
    CHECK_STREQ(res.text, HEADER "__global__ void a(int *p) {}");
    gpulab_rw_result_free(&res);
}

static void test_byte_order_mark_dropped(void)
{
    CHECK_REWRITE("\xef\xbb\xbfk<<<1, 2>>>(x);",
                  "GPULAB_SIM_LAUNCH((k), \"k\", 1, \"x\")(1, 2)(x);");
}

/* Random bytes drawn from the characters that matter to the lexer never crash it,
 * and every newline of the input is kept. */
static void test_garbage_never_crashes(void)
{
    static const char alphabet[] = "<<<>>>()[]{},;\"'/*\\\n #Rk:=_gx\0\xff";
    uint32_t state = 12345;
    char src[512];
    for (int round = 0; round < 2000; round++) {
        size_t len = round % sizeof(src);
        for (size_t i = 0; i < len; i++) {
            state = state * 1664525u + 1013904223u;
            src[i] = alphabet[(state >> 16) % (sizeof(alphabet) - 1)];
        }
        gpulab_rw_result res;
        int rc = gpulab_rw_rewrite(src, len, "g.cu", GPULAB_RW_TRAITS, &res);
        CHECK(rc >= 0);
        size_t in_lines = 0, out_lines = 0;
        for (size_t i = 0; i < len; i++)
            in_lines += src[i] == '\n';
        for (size_t i = 0; i < res.len; i++)
            out_lines += res.text[i] == '\n';
        CHECK(out_lines > in_lines);
        gpulab_rw_result_free(&res);
    }
}

int main(void)
{
    LAB_TEST_RUN(test_two_three_four_config_args);
    LAB_TEST_RUN(test_empty_kernel_arguments);
    LAB_TEST_RUN(test_args_literal);
    LAB_TEST_RUN(test_args_literal_multiline);
    LAB_TEST_RUN(test_extern_shared);
    LAB_TEST_RUN(test_static_shared);
    LAB_TEST_RUN(test_constant_registered);
    LAB_TEST_RUN(test_other_shared_and_extern_untouched);
    LAB_TEST_RUN(test_launch_after_extern_shared);
    LAB_TEST_RUN(test_multiline_nested_parentheses);
    LAB_TEST_RUN(test_template_and_qualified_callee);
    LAB_TEST_RUN(test_line_numbers_preserved);
    LAB_TEST_RUN(test_launch_in_macro_argument);
    LAB_TEST_RUN(test_launch_in_define_body);
    LAB_TEST_RUN(test_comments_strings_chars_untouched);
    LAB_TEST_RUN(test_shifts_are_not_launches);
    LAB_TEST_RUN(test_includes_untouched);
    LAB_TEST_RUN(test_errors_name_file_and_line);
    LAB_TEST_RUN(test_all_errors_reported_and_text_kept);
    LAB_TEST_RUN(test_filename_escaped);
    LAB_TEST_RUN(test_traits_direct_and_through_helpers);
    LAB_TEST_RUN(test_traits_recursion_terminates);
    LAB_TEST_RUN(test_traits_declarations);
    LAB_TEST_RUN(test_traits_exact_identifiers);
    LAB_TEST_RUN(test_traits_output);
    LAB_TEST_RUN(test_byte_order_mark_dropped);
    LAB_TEST_RUN(test_garbage_never_crashes);
    LAB_TEST_MAIN_END();
}
