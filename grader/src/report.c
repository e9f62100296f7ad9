/* report.c — see report.h. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include "json.h"

#include <stdlib.h>
#include <string.h>

int grade_report_add(grade_report *r, const grade_result *res)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        grade_result *v = realloc(r->results, cap * sizeof(*v));
        if (!v)
            return -1;
        r->results = v;
        r->cap = cap;
    }
    r->results[r->n++] = *res;
    return 0;
}

void grade_report_free(grade_report *r)
{
    if (!r)
        return;
    free(r->results);
    r->results = NULL;
    r->n = r->cap = 0;
}

void grade_report_total(const grade_report *r, const char *variant, double *score, double *max)
{
    *score = *max = 0.0;
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->results[i].variant, variant) != 0)
            continue;
        *score += r->results[i].points;
        *max += r->results[i].max_points;
    }
}

void grade_report_lab_total(const grade_report *r, const char *variant, const char *lab,
                            double *score, double *max)
{
    *score = *max = 0.0;
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->results[i].variant, variant) != 0 || strcmp(r->results[i].lab, lab) != 0)
            continue;
        *score += r->results[i].points;
        *max += r->results[i].max_points;
    }
}

int grade_report_summary(const grade_report *r, const char *variant, const char *path)
{
    FILE *f = fopen(path, "w");
    double s, m;
    if (!f)
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(r->results[j].lab, r->results[i].lab) == 0;
        if (seen || strcmp(r->results[i].variant, variant) != 0)
            continue;
        grade_report_lab_total(r, variant, r->results[i].lab, &s, &m);
        fprintf(f, "%s %g %g\n", r->results[i].lab, s, m);
    }
    grade_report_total(r, variant, &s, &m);
    fprintf(f, "total %g %g\n", s, m);
    return fclose(f);
}

void grade_report_table(FILE *f, const grade_report *r)
{
    int w = 5; /* width of the check column */
    for (size_t i = 0; i < r->n; i++) {
        int len = (int)strlen(r->results[i].check);
        w = len > w ? len : w;
    }
    fprintf(f, "backend: %s%s%s%s\n", r->backend, r->backend_reason[0] ? " (" : "",
            r->backend_reason, r->backend_reason[0] ? ")" : "");
    fprintf(f, "%-8s %-9s %-*s %9s %8s  %s\n", "lab", "variant", w, "check", "points", "time",
            "reason");
    for (size_t i = 0; i < r->n; i++) {
        const grade_result *x = &r->results[i];
        fprintf(f, "%-8s %-9s %-*s %4.0f/%-4.0f %6.2f s  %s\n", x->lab, x->variant, w, x->check,
                x->points, x->max_points, x->seconds, x->passed ? "" : x->reason);
    }
    const char *variants[] = { "solution", "student" };
    /* Each lab's subtotal, when there is more than one lab. */
    int labs = 0;
    for (size_t i = 0; i < r->n; i++)
        labs += i == 0 || strcmp(r->results[i].lab, r->results[i - 1].lab) != 0;
    for (size_t i = 0; labs > 1 && i < r->n; i++) {
        for (int v = 0; v < 2; v++) {
            double s, m;
            int first = 1;
            for (size_t j = 0; j < i && first; j++)
                first = strcmp(r->results[j].lab, r->results[i].lab) != 0 ||
                        strcmp(r->results[j].variant, variants[v]) != 0;
            if (!first || strcmp(r->results[i].variant, variants[v]) != 0)
                continue;
            grade_report_lab_total(r, variants[v], r->results[i].lab, &s, &m);
            if (m > 0)
                fprintf(f, "%-8s %-9s %-*s %4.0f/%-4.0f (%.0f%%)\n", r->results[i].lab, variants[v],
                        w, "subtotal", s, m, 100.0 * s / m);
        }
    }
    for (int v = 0; v < 2; v++) {
        double s, m;
        grade_report_total(r, variants[v], &s, &m);
        if (m > 0)
            fprintf(f, "%-8s %-9s %-*s %4.0f/%-4.0f (%.0f%%)\n", "total", variants[v], w, "", s, m,
                    100.0 * s / m);
    }
    fprintf(f, "isolation: %s; seed %llu; %.1f s in all\n", r->isolation, r->seed, r->seconds);
    fprintf(f, "times: the wall time of each run, measured by the grader's CPU clock%s\n",
            strcmp(r->backend, "sim") == 0 ? " (CPU simulator: times are CPU times)" : "");
}

int grade_report_json(const grade_report *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\n  \"backend\": ");
    grade_json_write_string(f, r->backend);
    fprintf(f, ",\n  \"backend_reason\": ");
    grade_json_write_string(f, r->backend_reason);
    fprintf(f, ",\n  \"isolation\": ");
    grade_json_write_string(f, r->isolation);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"seconds\": %.3f,\n  \"results\": [", r->seed, r->seconds);
    for (size_t i = 0; i < r->n; i++) {
        const grade_result *x = &r->results[i];
        fprintf(f, "%s\n    {\"lab\": ", i ? "," : "");
        grade_json_write_string(f, x->lab);
        fprintf(f, ", \"variant\": ");
        grade_json_write_string(f, x->variant);
        fprintf(f, ", \"check\": ");
        grade_json_write_string(f, x->check);
        fprintf(f,
                ", \"points\": %g, \"max_points\": %g, \"seconds\": %.3f, \"passed\": %s, "
                "\"reason\": ",
                x->points, x->max_points, x->seconds, x->passed ? "true" : "false");
        grade_json_write_string(f, x->reason);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f);
}

/* Whether XML 1.0 allows code point c in a document. */
static int xml_allowed(unsigned c)
{
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* s as XML character data or an attribute value: escaped, and every byte
 * that is not UTF-8 or a character XML does not allow written as U+FFFD. */
static void xml_text(FILE *f, const char *s)
{
    while (*s) {
        unsigned c;
        int n = grade_utf8_decode(s, &c);
        if (n == 0 || !xml_allowed(c))
            fputs("\xEF\xBF\xBD", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c == '\n' || c == '\t' || c == '\r')
            fprintf(f, "&#%u;", c); /* kept as they are inside attribute values too */
        else
            fwrite(s, 1, (size_t)n, f);
        s += n ? n : 1;
    }
}

/* A check the grader itself could not run: an error in JUnit's terms. */
static int grader_error(const grade_result *x)
{
    return !x->passed && strncmp(x->reason, "grader:", 7) == 0;
}

int grade_report_junit(const grade_report *r, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t failures = 0, errors = 0;
    if (!f)
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        errors += grader_error(&r->results[i]);
        failures += !r->results[i].passed && !grader_error(&r->results[i]);
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", r->n,
            failures, errors, r->seconds);
    fprintf(f, "  <testsuite name=\"gpulab-grade (");
    xml_text(f, r->backend);
    fprintf(f, ")\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"%.3f\">\n",
            r->n, failures, errors, r->seconds);
    fprintf(f, "    <properties>\n      <property name=\"backend\" value=\"");
    xml_text(f, r->backend);
    fprintf(f, "\"/>\n      <property name=\"backend_reason\" value=\"");
    xml_text(f, r->backend_reason);
    fprintf(f, "\"/>\n      <property name=\"seed\" value=\"%llu\"/>\n    </properties>\n",
            r->seed);
    for (size_t i = 0; i < r->n; i++) {
        const grade_result *x = &r->results[i];
        fprintf(f, "    <testcase classname=\"");
        xml_text(f, x->lab);
        fputc('.', f);
        xml_text(f, x->variant);
        fprintf(f, "\" name=\"");
        xml_text(f, x->check);
        fprintf(f, "\" time=\"%.3f\"", x->seconds);
        if (x->passed) {
            fprintf(f, "/>\n");
            continue;
        }
        const char *kind = grader_error(x) ? "error" : "failure";
        fprintf(f, ">\n      <%s message=\"", kind);
        xml_text(f, x->reason);
        fprintf(f, "\">%g of %g points</%s>\n    </testcase>\n", x->points, x->max_points, kind);
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return fclose(f);
}

int grade_report_gradescope(const grade_report *r, const char *variant, const char *path)
{
    FILE *f = fopen(path, "w");
    double score, max;
    int first = 1;
    if (!f)
        return -1;
    grade_report_total(r, variant, &score, &max);
    fprintf(f, "{\n  \"score\": %g,\n  \"execution_time\": %.3f,\n  \"output\": ", score,
            r->seconds);
    char head[1024];
    snprintf(head, sizeof(head), "Graded on the %s backend%s%s%s.", r->backend,
             strcmp(r->backend, "sim") == 0 ? " (the CPU simulator; times are CPU times)" : "",
             r->backend_reason[0] ? ": " : "", r->backend_reason);
    grade_json_write_string(f, head);
    fprintf(f, ",\n  \"tests\": [");
    for (size_t i = 0; i < r->n; i++) {
        const grade_result *x = &r->results[i];
        if (strcmp(x->variant, variant) != 0)
            continue;
        char name[256];
        snprintf(name, sizeof(name), "%s: %s", x->lab, x->check);
        fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
        first = 0;
        grade_json_write_string(f, name);
        fprintf(f,
                ", \"score\": %g, \"max_score\": %g, \"status\": \"%s\", \"output\": ", x->points,
                x->max_points, x->passed ? "passed" : "failed");
        grade_json_write_string(f, x->passed ? "" : x->reason);
        fprintf(f, ", \"visibility\": \"visible\"}");
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f);
}
