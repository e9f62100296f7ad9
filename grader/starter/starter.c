/*
 * gpulab-starter - one source for starter code.
 *
 * solutions/NN_x/ holds the complete student files, each solution region
 * written with the stub the student sees beside it (strip.h has the marker
 * format). This tool makes labs/NN_x/ from them and checks the two agree.
 *
 *   gpulab-starter generate SOLUTIONS_DIR LABS_DIR
 *       Every file under SOLUTIONS_DIR (recursively, hidden files included)
 *       maps to the same relative path under LABS_DIR; rewrites the starter
 *       files whose text changed (keeping the solution file's permissions)
 *       and prints each one it wrote. If any solution file is malformed,
 *       nothing is written.
 *   gpulab-starter check SOLUTIONS_DIR LABS_DIR
 *       Names every starter that is missing or out of step, with its first
 *       differing line. Writes nothing.
 *   gpulab-starter strip FILE
 *       The starter text of one file, to stdout.
 *
 * Files of LABS_DIR with no counterpart in SOLUTIONS_DIR (harness, handout)
 * are not touched. A file with a NUL byte is copied as it is. Symbolic links
 * and special files in SOLUTIONS_DIR are errors, never skipped.
 *
 * Exit status: 0 ok (check: in step), 1 check: out of step, 2 bad usage,
 * an unreadable file or malformed markers (each as `file:line: message`).
 */
#define _POSIX_C_SOURCE 200809L

#include "strip.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

enum { EXIT_IN_STEP = 0, EXIT_OUT_OF_STEP = 1, EXIT_ERROR = 2 };

static const char *prog = "gpulab-starter";

/* ------------------------------------------------------------------------ */
/* small helpers */

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *
str_printf(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *s;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* "a" + "/" + "b", or the other one when either is empty. */
static char *path_join(const char *a, const char *b)
{
    if (!*a || !*b)
        return str_printf("%s", *a ? a : b);
    return str_printf("%s/%s", a, b);
}

/*
 * Reads a whole file. Returns 0, or -1 with errno set (ENOENT: no such file).
 * *data is NUL-terminated for convenience.
 */
static int read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;

    *data = NULL;
    *len = 0;
    if (!f)
        return -1;
    for (;;) {
        if (cap - n < 4096) {
            char *grown = realloc(buf, cap ? cap * 2 : 8192);
            if (!grown) {
                errno = ENOMEM;
                goto fail;
            }
            buf = grown;
            cap = cap ? cap * 2 : 8192;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        errno = EIO;
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
fail:
    free(buf);
    fclose(f);
    return -1;
}

/* mkdir -p of the folder holding path. */
static int make_parents(const char *path)
{
    char *p = str_printf("%s", path);
    int rc = 0;

    if (!p)
        return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            rc = -1;
        *s = '/';
        if (rc)
            break;
    }
    free(p);
    return rc;
}

/* Writes path through a temporary file and a rename, with the given mode. */
static int write_file(const char *path, const char *data, size_t len, mode_t mode)
{
    char *tmp = str_printf("%s.gpulab-starter.tmp", path);
    FILE *f;
    int rc = -1;

    if (!tmp || make_parents(path) != 0)
        goto free_tmp;
    f = fopen(tmp, "wb");
    if (!f)
        goto free_tmp;
    if (fwrite(data, 1, len, f) != len) {
        fclose(f);
        goto remove_tmp;
    }
    if (fclose(f) != 0 || chmod(tmp, mode & 07777) != 0 || rename(tmp, path) != 0)
        goto remove_tmp;
    rc = 0;
    goto free_tmp;
remove_tmp:
    remove(tmp);
free_tmp:
    free(tmp);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* the files of a solutions tree */

struct file_list {
    char **rel; /* paths relative to the root, sorted */
    size_t n, cap;
};

static int list_add(struct file_list *l, char *rel)
{
    if (!rel)
        return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **grown = realloc(l->rel, cap * sizeof(*grown));
        if (!grown) {
            free(rel);
            return -1;
        }
        l->rel = grown;
        l->cap = cap;
    }
    l->rel[l->n++] = rel;
    return 0;
}

static void list_free(struct file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->rel[i]);
    free(l->rel);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Adds every regular file under root/rel to the list. Returns the number of
 * problems reported (symbolic links, special files, unreadable folders).
 */
static int walk(const char *root, const char *rel, struct file_list *out)
{
    char *dir = path_join(root, rel);
    struct file_list names = { 0 };
    int problems = 0;
    DIR *d;
    struct dirent *e;

    if (!dir)
        return 1;
    d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: cannot read folder: %s\n", dir, strerror(errno));
        free(dir);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (list_add(&names, str_printf("%s", e->d_name)) != 0)
            problems++;
    }
    closedir(d);
    qsort(names.rel, names.n, sizeof(*names.rel), cmp_str);

    for (size_t i = 0; i < names.n; i++) {
        char *child = path_join(rel, names.rel[i]);
        char *full = child ? path_join(root, child) : NULL;
        struct stat st;

        if (!full) {
            problems++;
        } else if (lstat(full, &st) != 0) {
            fprintf(stderr, "%s: %s\n", full, strerror(errno));
            problems++;
        } else if (S_ISDIR(st.st_mode)) {
            problems += walk(root, child, out);
        } else if (S_ISREG(st.st_mode)) {
            if (list_add(out, child) == 0)
                child = NULL; /* the list owns it now */
            else
                problems++;
        } else {
            fprintf(stderr, "%s: %s: only regular files and folders belong in a solutions tree\n",
                    full, S_ISLNK(st.st_mode) ? "a symbolic link" : "a special file");
            problems++;
        }
        free(full);
        free(child);
    }
    list_free(&names);
    free(dir);
    return problems;
}

/* ------------------------------------------------------------------------ */
/* starters */

struct starter {
    char *text;
    size_t len;
    struct starter_info info;
    mode_t mode;
};

/* The starter of one solution file; 0 ok, else reported on stderr. */
static int make_starter(const char *sol_path, struct starter *s)
{
    char *data;
    size_t len;
    struct stat st;
    int rc;

    memset(s, 0, sizeof(*s));
    if (read_file(sol_path, &data, &len) != 0 || stat(sol_path, &st) != 0) {
        fprintf(stderr, "%s: cannot read: %s\n", sol_path, strerror(errno));
        return -1;
    }
    s->mode = st.st_mode;
    rc = starter_strip(sol_path, data, len, &s->text, &s->len, &s->info, stderr);
    if (rc == -2)
        fprintf(stderr, "%s: out of memory\n", sol_path);
    free(data);
    return rc;
}

/* Prints one line of text for a message: quoted, control characters escaped. */
static void print_line(FILE *f, const char *label, const char *s, size_t n)
{
    const size_t max = 120;

    fprintf(f, "  %-8s ", label);
    if (!s) {
        fprintf(f, "(end of file)\n");
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < n && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r')
            fputs("\\r", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
    fputs(n > max ? "\"...\n" : "\"\n", f);
}

/* The line at *pos of [s, s+len) without its '\n'; NULL past the end. */
static const char *next_line(const char *s, size_t len, size_t *pos, size_t *n)
{
    const char *nl;

    if (*pos >= len)
        return NULL;
    nl = memchr(s + *pos, '\n', len - *pos);
    const char *line = s + *pos;
    *n = nl ? (size_t)(nl - line) : len - *pos;
    *pos += *n + (nl ? 1 : 0);
    return line;
}

/* Reports where labs_text first differs from the starter. */
static void report_difference(const char *lab_path, const char *sol_path, const struct starter *s,
                              const char *lab, size_t lab_len)
{
    size_t pa = 0, pb = 0, lineno = 0;

    for (;;) {
        size_t na = 0, nb = 0;
        const char *a = next_line(s->text, s->len, &pa, &na);
        const char *b = next_line(lab, lab_len, &pb, &nb);
        lineno++;
        if (!a && !b) {
            /* Same lines: only the final newline differs. */
            fprintf(stderr, "%s:%zu: out of step with %s: the final newline differs\n", lab_path,
                    lineno - 1, sol_path);
            return;
        }
        if (a && b && na == nb && memcmp(a, b, na) == 0)
            continue;
        fprintf(stderr, "%s:%zu: out of step with %s\n", lab_path, lineno, sol_path);
        print_line(stderr, "starter:", a, na);
        print_line(stderr, "labs:", b, nb);
        return;
    }
}

/* ------------------------------------------------------------------------ */
/* modes */

/*
 * For each file of sol_root: its starter and the current labs file.
 * generate: write the changed ones (only if every solution file is sound);
 * check: report the missing and changed ones.
 */
static int run_tree(const char *sol_root, const char *lab_root, int generate)
{
    struct file_list files = { 0 };
    struct starter *starters = NULL;
    struct stat st;
    int problems = 0, out_of_step = 0;
    size_t written = 0;

    if (stat(sol_root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s: not a solutions folder\n", prog, sol_root);
        return EXIT_ERROR;
    }
    problems = walk(sol_root, "", &files);
    starters = calloc(files.n ? files.n : 1, sizeof(*starters));
    if (!starters) {
        fprintf(stderr, "%s: out of memory\n", prog);
        list_free(&files);
        return EXIT_ERROR;
    }
    for (size_t i = 0; i < files.n; i++) {
        char *sol_path = path_join(sol_root, files.rel[i]);
        if (!sol_path || make_starter(sol_path, &starters[i]) != 0)
            problems++;
        free(sol_path);
    }
    if (problems) {
        fprintf(stderr, "%s: %d problem%s in %s; %s\n", prog, problems, problems == 1 ? "" : "s",
                sol_root, generate ? "nothing written" : "not checked");
        goto free_all;
    }

    for (size_t i = 0; i < files.n; i++) {
        char *sol_path = path_join(sol_root, files.rel[i]);
        char *lab_path = path_join(lab_root, files.rel[i]);
        char *lab = NULL;
        size_t lab_len = 0;
        int have = 0;

        if (!sol_path || !lab_path) {
            problems++;
            goto next;
        }
        if (read_file(lab_path, &lab, &lab_len) == 0) {
            have = 1;
        } else if (errno != ENOENT) {
            fprintf(stderr, "%s: cannot read: %s\n", lab_path, strerror(errno));
            problems++;
            goto next;
        }
        if (have && lab_len == starters[i].len && memcmp(lab, starters[i].text, lab_len) == 0)
            goto next; /* in step */
        if (generate) {
            if (write_file(lab_path, starters[i].text, starters[i].len, starters[i].mode) != 0) {
                fprintf(stderr, "%s: cannot write: %s\n", lab_path, strerror(errno));
                problems++;
                goto next;
            }
            written++;
            printf("wrote %s (%s%zu solution region%s removed)\n", lab_path,
                   starters[i].info.binary ? "binary, copied as it is; " : "",
                   starters[i].info.regions, starters[i].info.regions == 1 ? "" : "s");
        } else {
            out_of_step++;
            if (!have)
                fprintf(stderr, "%s: missing: the starter of %s\n", lab_path, sol_path);
            else
                report_difference(lab_path, sol_path, &starters[i], lab, lab_len);
        }
    next:
        free(lab);
        free(lab_path);
        free(sol_path);
    }

    if (generate)
        printf("%s: %zu starter file%s written, %zu up to date\n", prog, written,
               written == 1 ? "" : "s", files.n - written);
    else if (out_of_step)
        fprintf(stderr,
                "%s: %d of %zu starter file%s out of step with %s; regenerate them with\n"
                "  cmake --build build --target starters   (or: %s generate %s %s)\n",
                prog, out_of_step, files.n, files.n == 1 ? "" : "s", sol_root, prog, sol_root,
                lab_root);
    else
        printf("%s: %zu starter file%s in step with %s\n", prog, files.n, files.n == 1 ? "" : "s",
               sol_root);

free_all:
    for (size_t i = 0; i < files.n; i++)
        free(starters[i].text);
    free(starters);
    list_free(&files);
    if (problems)
        return EXIT_ERROR;
    return out_of_step ? EXIT_OUT_OF_STEP : EXIT_IN_STEP;
}

static int run_strip(const char *path)
{
    struct starter s;
    int rc = EXIT_IN_STEP;

    if (make_starter(path, &s) != 0)
        return EXIT_ERROR;
    if (fwrite(s.text, 1, s.len, stdout) != s.len || fflush(stdout) != 0) {
        fprintf(stderr, "%s: cannot write the starter text: %s\n", prog, strerror(errno));
        rc = EXIT_ERROR;
    }
    free(s.text);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s generate SOLUTIONS_DIR LABS_DIR   write the starters that changed\n"
            "       %s check SOLUTIONS_DIR LABS_DIR      exit 1 if any starter is out of step\n"
            "       %s strip FILE                        one file's starter text, to stdout\n"
            "Solution regions: `// >>> SOLUTION` ... `// === STUB` ... `// <<< END`\n"
            "(also `/* ... */` or `# ...`); see grader/starter/strip.h.\n",
            prog, prog, prog);
}

/* The folder argument without trailing slashes ("/" stays "/"). */
static char *folder_arg(char *arg)
{
    size_t n = strlen(arg);

    while (n > 1 && arg[n - 1] == '/')
        arg[--n] = '\0';
    return arg;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "generate") == 0)
        return run_tree(folder_arg(argv[2]), folder_arg(argv[3]), 1);
    if (argc == 4 && strcmp(argv[1], "check") == 0)
        return run_tree(folder_arg(argv[2]), folder_arg(argv[3]), 0);
    if (argc == 3 && strcmp(argv[1], "strip") == 0)
        return run_strip(argv[2]);
    usage(stderr);
    return EXIT_ERROR;
}
