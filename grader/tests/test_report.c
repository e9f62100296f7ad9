/* Tests of the grader's JSON checker and its report writers. Given a
 * directory argument, also leaves report.json, report.xml and results.json
 * there for check_reports.py to validate with Python's own parsers. */
#include "json.h"
#include "report.h"

#include "lab_test.h"

#include <stdlib.h>

static int parses(const char *text)
{
    grade_json_object o;
    char why[256];
    int rc = grade_json_parse_object(&o, text, strlen(text), why, sizeof(why));
    grade_json_free(&o);
    return rc == 0;
}

static void test_json_accepts_and_rejects(void)
{
    CHECK(parses("{}"));
    CHECK(parses(" {\"a\": 1, \"b\": [true, false, null, -1.5e3, \"x\\u0041\\n\"], \"c\": {}}\n"));
    CHECK(!parses(""));
    CHECK(!parses("PASS"));
    CHECK(!parses("[1, 2]"));
    CHECK(!parses("{\"a\": 1,}"));
    CHECK(!parses("{\"a\" 1}"));
    CHECK(!parses("{\"a\": 01}"));
    CHECK(!parses("{\"a\": \"unterminated}"));
    CHECK(!parses("{\"a\": \"bad \\q escape\"}"));
    CHECK(!parses("{\"a\": 1} trailing"));
    CHECK(!parses("{\"a\": tru}"));
    CHECK(!parses("{\"a\": NaN}"));
    char deep[300];
    memset(deep, '[', 200);
    strcpy(deep + 200, "]");
    char doc[320];
    snprintf(doc, sizeof(doc), "{\"a\": %s}", deep);
    CHECK(!parses(doc)); /* unbalanced and too deep: rejected, no crash */
}

static void test_json_members(void)
{
    grade_json_object o;
    char why[256];
    const char *text = "{\"device\": \"sim \\\"0\\\"\", \"blocks\": 6, \"ok\": true}";
    CHECK_EQ_INT(grade_json_parse_object(&o, text, strlen(text), why, sizeof(why)), 0);
    CHECK_EQ_INT(o.n, 3);
    CHECK_STREQ(grade_json_get(&o, "blocks"), "6");
    CHECK_STREQ(grade_json_get(&o, "ok"), "true");
    CHECK(grade_json_get(&o, "missing") == NULL);
    char *dev = grade_json_get_string(&o, "device");
    CHECK_STREQ(dev, "sim \"0\"");
    free(dev);
    CHECK(grade_json_get_string(&o, "blocks") == NULL);
    grade_json_free(&o);
    const char *bad = "{\n\"a\": 1\n\"b\": 2}";
    CHECK_EQ_INT(grade_json_parse_object(&o, bad, strlen(bad), why, sizeof(why)), -1);
    CHECK_CONTAINS(why, "line 3: expected ',' or '}'");
}

static grade_report sample(void)
{
    grade_report r;
    memset(&r, 0, sizeof(r));
    snprintf(r.backend, sizeof(r.backend), "sim");
    snprintf(r.backend_reason, sizeof(r.backend_reason),
             "no usable GPU \xe2\x80\x94 no NVIDIA driver is installed or loaded");
    snprintf(r.isolation, sizeof(r.isolation), "process group, rlimits");
    r.seed = 42;
    r.seconds = 1.5;
    grade_result a = { "lab03", "solution", "vector add <N=5466>", 10, 10, 0.2, 1, "" };
    grade_result b = { "lab03",
                       "student",
                       "vector add <N=5466>",
                       0,
                       10,
                       0.1,
                       0,
                       "y: 5466 of 5466 differ; \"max\" err & <1>" };
    /* What a student's compiler or program may print: a Latin-1 byte (0xE9),
     * control bytes, a UTF-8 sequence cut short, an escape sequence. */
    grade_result c = { "lab03",
                       "student",
                       "vector add, n = 1",
                       0,
                       4,
                       0.1,
                       0,
                       "does not compile: caf\xe9.cu:3:1: error: stray '\x01' \x1b[31mred\x1b[0m "
                       "\xc3" };
    grade_result d = { "lab03",
                       "student",
                       "vector add, n = 2",
                       0,
                       4,
                       0.0,
                       0,
                       "grader: cannot make the inputs: out of memory" };
    grade_report_add(&r, &a);
    grade_report_add(&r, &b);
    grade_report_add(&r, &c);
    grade_report_add(&r, &d);
    return r;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    static char buf[16384];
    *len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    buf[*len] = '\0';
    return buf;
}

static const char *dir = "/tmp";

static void test_reports(void)
{
    grade_report r = sample();
    char path[512], why[256];
    size_t len;
    double s, m;
    grade_json_object o;
    grade_report_total(&r, "solution", &s, &m);
    CHECK_NEAR(s, 10, 0);
    grade_report_total(&r, "student", &s, &m);
    CHECK_NEAR(s, 0, 0);
    CHECK_NEAR(m, 18, 0);

    snprintf(path, sizeof(path), "%s/report.json", dir);
    CHECK_EQ_INT(grade_report_json(&r, path), 0);
    char *text = slurp(path, &len);
    CHECK_EQ_INT(grade_json_parse_object(&o, text, len, why, sizeof(why)), 0);
    CHECK_STREQ(grade_json_get(&o, "seed"), "42");
    CHECK_STREQ(grade_json_get(&o, "backend_reason"),
                "\"no usable GPU \xe2\x80\x94 no NVIDIA driver is installed or loaded\"");
    /* Not UTF-8 in, U+FFFD out; control bytes escaped. */
    CHECK_CONTAINS(grade_json_get(&o, "results"), "caf\xef\xbf\xbd.cu");
    CHECK_CONTAINS(grade_json_get(&o, "results"), "stray '\\u0001' \\u001b[31mred");
    CHECK(strstr(text, "\xe9") == NULL && strstr(text, "\x01") == NULL);
    grade_json_free(&o);

    snprintf(path, sizeof(path), "%s/results.json", dir);
    CHECK_EQ_INT(grade_report_gradescope(&r, "student", path), 0);
    text = slurp(path, &len);
    CHECK_EQ_INT(grade_json_parse_object(&o, text, len, why, sizeof(why)), 0);
    CHECK_STREQ(grade_json_get(&o, "score"), "0");
    CHECK_CONTAINS(grade_json_get(&o, "tests"), "\"max_score\": 10");
    CHECK_CONTAINS(grade_json_get(&o, "tests"), "\"status\": \"failed\"");
    CHECK_CONTAINS(grade_json_get(&o, "tests"), "\"visibility\": \"visible\"");
    grade_json_free(&o);

    snprintf(path, sizeof(path), "%s/report.xml", dir);
    CHECK_EQ_INT(grade_report_junit(&r, path), 0);
    text = slurp(path, &len);
    CHECK_CONTAINS(text, "<testsuites tests=\"4\" failures=\"2\" errors=\"1\"");
    CHECK_CONTAINS(text, "tests=\"4\" failures=\"2\" errors=\"1\" skipped=\"0\"");
    CHECK_CONTAINS(text, "<error message=\"grader: cannot make the inputs");
    CHECK_CONTAINS(text, "caf\xef\xbf\xbd.cu:3:1: error: stray '\xef\xbf\xbd' \xef\xbf\xbd[31mred");
    CHECK(strstr(text, "\xe9") == NULL && strstr(text, "\x01") == NULL &&
          strstr(text, "\x1b") == NULL);
    CHECK_CONTAINS(text, "name=\"vector add &lt;N=5466&gt;\"");
    CHECK_CONTAINS(text, "&quot;max&quot; err &amp; &lt;1&gt;");

    FILE *t = tmpfile();
    grade_report_table(t, &r);
    rewind(t);
    char table[4096];
    size_t n = fread(table, 1, sizeof(table) - 1, t);
    table[n] = '\0';
    fclose(t);
    const char *first_line = "backend: sim (no usable GPU \xe2\x80\x94 no NVIDIA driver is "
                             "installed or loaded)\nlab ";
    CHECK(strncmp(table, first_line, strlen(first_line)) == 0);
    CHECK_CONTAINS(table, "total    solution");
    CHECK_CONTAINS(table, "(100%)");
    CHECK_CONTAINS(table, "CPU simulator: times are CPU times");
    grade_report_free(&r);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        dir = argv[1];
    LAB_TEST_RUN(test_json_accepts_and_rejects);
    LAB_TEST_RUN(test_json_members);
    LAB_TEST_RUN(test_reports);
    LAB_TEST_MAIN_END();
}
