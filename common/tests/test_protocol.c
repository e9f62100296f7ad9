/* Unit tests of lab/protocol.h: modes, bad usage, inputs, outputs, result.json. */
#include "lab_test_child.h"

#include "lab/protocol.h"
#include "lab_test.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char scratch[256];
static int call_argc;
static char **call_argv;

static void parse_child(void *arg)
{
    lab_args a;
    (void)arg;
    lab_args_parse(&a, call_argc, call_argv, "a test program");
    fprintf(stderr, "[graded=%d in=%s out=%s]\n", a.graded, a.in_dir, a.out_dir);
}

static int parse(char *err, size_t len, int argc, char **argv)
{
    call_argc = argc;
    call_argv = argv;
    return lab_test_run_child(parse_child, NULL, err, len);
}

static void test_modes(void)
{
    char err[4096];
    char *demo[] = { "prog", NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 1, demo), 0);
    CHECK_CONTAINS(err, "[graded=0 in= out=]");
    char *graded[] = { "prog", "--in", scratch, "--out", scratch, NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 5, graded), 0);
    CHECK_CONTAINS(err, "[graded=1 in=");
}

static void test_bad_usage(void)
{
    char err[4096];
    char *unknown[] = { "prog", "--frobnicate", NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 2, unknown), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: unknown argument: --frobnicate");
    CHECK_CONTAINS(err, "usage: prog");
    char *half[] = { "prog", "--in", scratch, NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 3, half), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "--in needs --out as well");
    char *dangling[] = { "prog", "--out", NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 2, dangling), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "missing directory after: --out");
    char *missing[] = { "prog", "--in", "/nonexistent/dir", "--out", scratch, NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 5, missing), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "cannot read the input directory: /nonexistent/dir");
}

static void help_child(void *arg)
{
    lab_args a;
    char *argv[] = { "prog", "--help", NULL };
    (void)arg;
    fclose(stdout);
    stdout = stderr; /* capture the usage with stderr */
    lab_args_parse(&a, 2, argv, "adds two vectors");
}

static void test_help(void)
{
    char err[4096];
    CHECK_EQ_INT(lab_test_run_child(help_child, NULL, err, sizeof(err)), 0);
    CHECK_CONTAINS(err, "adds two vectors");
    CHECK_CONTAINS(err, "--in DIR --out DIR");
}

static lab_args graded_args(void)
{
    lab_args a;
    memset(&a, 0, sizeof(a));
    a.graded = 1;
    a.program = "prog";
    strcpy(a.in_dir, scratch);
    strcpy(a.out_dir, scratch);
    return a;
}

static void input_child(void *arg)
{
    lab_args a = graded_args();
    lab_npy_array arr;
    lab_input(&arr, &a, (const char *)arg, LAB_DTYPE_F32, 1);
    fprintf(stderr, "[read %zu]\n", arr.count);
    lab_npy_free(&arr);
}

static void test_inputs_and_outputs(void)
{
    char err[4096];
    lab_args a = graded_args();
    float x[3] = { 1.0f, 2.0f, 3.0f };
    size_t shape1[1] = { 3 }, shape2[2] = { 1, 3 };
    lab_output(&a, "x", LAB_DTYPE_F32, 1, shape1, x);
    lab_output(&a, "m", LAB_DTYPE_F32, 2, shape2, x);
    CHECK_EQ_INT(lab_test_run_child(input_child, "x", err, sizeof(err)), 0);
    CHECK_CONTAINS(err, "[read 3]");
    CHECK_EQ_INT(lab_test_run_child(input_child, "nope", err, sizeof(err)), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: input nope: ");
    CHECK_CONTAINS(err, "nope.npy");
    CHECK_EQ_INT(lab_test_run_child(input_child, "m", err, sizeof(err)), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "m.npy: expected float32 with 1 dimension(s), found float32 with 2");
}

static char *slurp(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_result_json(void)
{
    char path[512];
    lab_error err;
    lab_result *r = lab_result_create();
    CHECK(r != NULL);
    lab_result_set_string(r, "device", "gpulab \"sim\"\n\t\x01");
    lab_result_set_int(r, "blocks", 6);
    lab_result_set_number(r, "ms", 0.5);
    lab_result_set_number(r, "bad", 0.0 / 0.0);
    lab_result_set_bool(r, "pass", 1);
    lab_result_set_int(r, "blocks", 7); /* replaces */
    snprintf(path, sizeof(path), "%s/result.json", scratch);
    CHECK_EQ_INT(lab_result_write(path, r, &err), LAB_OK);
    CHECK_STREQ(slurp(path), "{\n  \"device\": \"gpulab \\\"sim\\\"\\n\\t\\u0001\",\n"
                             "  \"blocks\": 7,\n  \"ms\": 0.5,\n  \"bad\": null,\n"
                             "  \"pass\": true\n}\n");
    CHECK_EQ_INT(lab_result_write("/nonexistent/dir/result.json", r, &err), LAB_EIO);
    CHECK_CONTAINS(err.msg, "/nonexistent/dir/result.json: ");
    CHECK_EQ_INT(lab_result_write(NULL, r, &err), LAB_EINVAL);
    lab_result_destroy(r);
    lab_result_destroy(NULL);
    lab_result *empty = lab_result_create();
    CHECK_EQ_INT(lab_result_write(path, empty, &err), LAB_OK);
    CHECK_STREQ(slurp(path), "{}\n");
    lab_result_destroy(empty);
}

/* More facts than the first allocation holds, in the order first set. */
static void test_result_grows(void)
{
    char path[512], key[16], want[1024] = "{";
    lab_result *r = lab_result_create();
    for (int i = 0; i < 20; i++) {
        snprintf(key, sizeof(key), "k%d", i);
        lab_result_set_int(r, key, i * 3);
        snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n  \"k%d\": %d",
                 i ? "," : "", i, i == 4 ? -1 : i * 3);
    }
    lab_result_set_int(r, "k4", -1);
    lab_result_set_string(r, "k19", NULL);
    snprintf(want + strlen(want) - 2, sizeof(want) - strlen(want) + 2, "\"\"\n}\n");
    snprintf(path, sizeof(path), "%s/result.json", scratch);
    CHECK_EQ_INT(lab_result_write(path, r, NULL), LAB_OK);
    CHECK_STREQ(slurp(path), want);
    lab_result_destroy(r);
}

/* Setting a fact the host has no memory for: a message and exit 1, no status. */
static void result_without_memory(void *arg)
{
    size_t len = (size_t)20 << 20;
    char *text = malloc(len + 1); /* as JSON up to 6 bytes each: 120 MiB */
    struct rlimit lim = { (rlim_t)64 << 20, (rlim_t)64 << 20 };
    (void)arg;
    if (!text)
        exit(3);
    memset(text, 1, len);
    text[len] = '\0';
    lab_result *r = lab_result_create();
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        exit(4);
    lab_result_set_string(r, "log", text);
    exit(0); /* not reached */
}

static void test_result_out_of_memory_exits(void)
{
    char msg[512], want[96];
    CHECK_EQ_INT(lab_test_run_child(result_without_memory, NULL, msg, sizeof(msg)), 1);
    snprintf(want, sizeof(want), "out of memory: could not allocate %zu bytes",
             ((size_t)20 << 20) * 6 + 3);
    CHECK_CONTAINS(msg, want);
}

static void flags_child(void *arg)
{
    lab_args a;
    int big = 0;
    const char *data = "(none)";
    const lab_flag flags[] = {
        { "--big", NULL, "the large problem", &big, NULL },
        { "--data", "DIR", "where the data is", NULL, &data },
    };
    (void)arg;
    lab_args_parse_flags(&a, call_argc, call_argv, "a program with options", flags, 2);
    fprintf(stderr, "[graded=%d big=%d data=%s]\n", a.graded, big, data);
}

static int parse_flags(char *err, size_t len, int argc, char **argv)
{
    call_argc = argc;
    call_argv = argv;
    return lab_test_run_child(flags_child, NULL, err, len);
}

static void test_demo_flags(void)
{
    char err[4096];
    char *none[] = { "prog", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 1, none), 0);
    CHECK_CONTAINS(err, "[graded=0 big=0 data=(none)]");
    char *both[] = { "prog", "--data", "/x", "--big", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 4, both), 0);
    CHECK_CONTAINS(err, "[graded=0 big=1 data=/x]");
    char *twice[] = { "prog", "--big", "--big", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 3, twice), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "option given twice: --big");
    char *dangling[] = { "prog", "--data", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 2, dangling), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "missing value after: --data");
    CHECK_CONTAINS(err, "--data DIR");
    char *graded[] = { "prog", "--in", scratch, "--out", scratch, "--big", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 6, graded), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "takes no demo options: --big");
    char *unknown[] = { "prog", "--bigger", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 2, unknown), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown argument: --bigger");
}

/* --opt=value is --opt value, for demo options and for --in/--out alike. */
static void test_equals_form(void)
{
    char err[4096], in_eq[300], out_eq[300];
    char *data_eq[] = { "prog", "--data=/x=y", "--big", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 3, data_eq), 0);
    CHECK_CONTAINS(err, "[graded=0 big=1 data=/x=y]");
    snprintf(in_eq, sizeof(in_eq), "--in=%s", scratch);
    snprintf(out_eq, sizeof(out_eq), "--out=%s", scratch);
    char *graded[] = { "prog", in_eq, out_eq, NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 3, graded), 0);
    CHECK_CONTAINS(err, "[graded=1 in=/tmp/gpulab-protocol-");
    char *mixed[] = { "prog", in_eq, "--out", scratch, NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 4, mixed), 0);
    CHECK_CONTAINS(err, "[graded=1 in=/tmp/gpulab-protocol-");

    /* Clear errors: an empty value, a value for a switch, an option for a value. */
    char *empty[] = { "prog", "--data=", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 2, empty), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: missing value after: --data=");
    char *switch_value[] = { "prog", "--big=1", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 2, switch_value), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: this option takes no value: --big=1");
    char *swallowed[] = { "prog", "--data", "--big", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 3, swallowed), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: missing value after: --data");
    char *unknown_eq[] = { "prog", "--bigger=3", NULL };
    CHECK_EQ_INT(parse_flags(err, sizeof(err), 2, unknown_eq), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: unknown argument: --bigger=3");
    CHECK_CONTAINS(err, "--opt=V");
    char *in_empty[] = { "prog", "--in=", "--out", scratch, NULL };
    CHECK_EQ_INT(parse(err, sizeof(err), 4, in_empty), LAB_EXIT_USAGE);
    CHECK_CONTAINS(err, "prog: missing directory after: --in=");
}

int main(void)
{
    snprintf(scratch, sizeof(scratch), "/tmp/gpulab-protocol-XXXXXX");
    if (!mkdtemp(scratch))
        return 1;
    LAB_TEST_RUN(test_modes);
    LAB_TEST_RUN(test_bad_usage);
    LAB_TEST_RUN(test_help);
    LAB_TEST_RUN(test_demo_flags);
    LAB_TEST_RUN(test_equals_form);
    LAB_TEST_RUN(test_inputs_and_outputs);
    LAB_TEST_RUN(test_result_json);
    LAB_TEST_RUN(test_result_grows);
    LAB_TEST_RUN(test_result_out_of_memory_exits);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
    if (system(cmd) != 0)
        printf("could not remove %s\n", scratch);
    LAB_TEST_MAIN_END();
}
