/* package.c — --package-gradescope DIR: a Gradescope autograder bundle.
 *
 *   DIR/setup.sh         Gradescope runs it once when it builds the image:
 *                        installs the packages, unpacks and builds the kit
 *   DIR/ensure-cmake.sh  sourced by setup.sh: a CMake >= 3.25 first on PATH,
 *                        PyPI's when the system's is older (Ubuntu 22.04
 *                        has 3.22) or missing
 *   DIR/run_autograder   runs per submission: finds the student's files,
 *                        builds them against the kit, grades, and writes
 *                        /autograder/results/results.json
 *   DIR/gpulab.tar.gz    the kit as students get it (make handout: no
 *                        solutions/, no instructor-only checks)
 *   DIR/README.txt       how to upload it
 *
 * Zip the contents of DIR (not DIR itself) and upload the zip as the
 * assignment's autograder. */
#define _XOPEN_SOURCE 700
#include "grade.h"
#include "labs.h"
#include "submit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
    char path[4400];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0 || chmod(path, mode) != 0) {
        fprintf(stderr, "gpulab-grade: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Sourced by setup.sh (and runnable alone, for testing with a stand-in
 * cmake and python3 on PATH). */
static const char ensure_cmake_sh[] =
    "# ensure-cmake.sh: sourced by setup.sh. gpulab needs CMake >= 3.25;\n"
    "# Gradescope's Ubuntu 22.04 image has 3.22 (Debian 11: 3.18). When the\n"
    "# system's cmake is older or missing, PyPI's cmake package is installed\n"
    "# with pip and put first on PATH; its folder is written to\n"
    "# $GPULAB_CMAKE_PATH_FILE for run_autograder. Written by\n"
    "# gpulab-grade --package-gradescope.\n"
    "gpulab_cmake_min=3.25\n"
    "# The version of the cmake on PATH, or nothing; never fails (setup.sh runs\n"
    "# under set -euo pipefail).\n"
    "gpulab_cmake_version() {\n"
    "  command -v cmake >/dev/null 2>&1 || return 0\n"
    "  cmake --version 2>/dev/null | sed -n 's/^cmake version \\([0-9][0-9.]*\\).*/\\1/p' | "
    "head -1 || true\n"
    "}\n"
    "gpulab_cmake_ok() {\n"
    "  local v\n"
    "  v=$(gpulab_cmake_version)\n"
    "  [ -n \"$v\" ] && [ \"$(printf '%s\\n%s\\n' \"$gpulab_cmake_min\" \"$v\" | sort -V | head "
    "-1)\" = \"$gpulab_cmake_min\" ]\n"
    "}\n"
    "# Whether this pip knows --break-system-packages (pip 23 and later).\n"
    "gpulab_pip_knows_break() {\n"
    "  case \"$(python3 -m pip help install 2>/dev/null || true)\" in\n"
    "    *--break-system-packages*) return 0 ;;\n"
    "  esac\n"
    "  return 1\n"
    "}\n"
    "if gpulab_cmake_ok; then\n"
    "  echo \"ensure-cmake.sh: cmake $(gpulab_cmake_version) is new enough\"\n"
    "else\n"
    "  gpulab_found=$(gpulab_cmake_version)\n"
    "  echo \"ensure-cmake.sh: gpulab needs CMake >= $gpulab_cmake_min, the system has \"\\\n"
    "\"${gpulab_found:-none}: installing PyPI's cmake\"\n"
    "  if ! python3 -m pip --version >/dev/null 2>&1; then\n"
    "    apt-get update -qq\n"
    "    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
    "python3-pip\n"
    "  fi\n"
    "  # pip 23 and later refuse a Python the system manages (PEP 668) without\n"
    "  # --break-system-packages, which older ones do not know.\n"
    "  if ! python3 -m pip install --quiet 'cmake>=3.25' &&\n"
    "     ! { gpulab_pip_knows_break &&\n"
    "         python3 -m pip install --quiet --break-system-packages 'cmake>=3.25'; }; then\n"
    "    echo \"ensure-cmake.sh: pip could not install cmake>=3.25 (see above); install CMake "
    "\"\\\n"
    "\"$gpulab_cmake_min or newer (cmake.org/download) and run setup.sh again\" >&2\n"
    "    exit 1\n"
    "  fi\n"
    "  gpulab_cmake_bin=$(python3 -c 'import cmake; print(cmake.CMAKE_BIN_DIR)')\n"
    "  export PATH=\"$gpulab_cmake_bin:$PATH\"\n"
    "  hash -r\n"
    "  if ! gpulab_cmake_ok; then\n"
    "    echo \"ensure-cmake.sh: still no CMake >= $gpulab_cmake_min after pip install\" >&2\n"
    "    exit 1\n"
    "  fi\n"
    "  echo \"ensure-cmake.sh: using $gpulab_cmake_bin/cmake ($(gpulab_cmake_version))\"\n"
    "  if [ -n \"${GPULAB_CMAKE_PATH_FILE:-}\" ]; then\n"
    "    echo \"$gpulab_cmake_bin\" > \"$GPULAB_CMAKE_PATH_FILE\"\n"
    "  fi\n"
    "fi\n";

/* %s: the cuda option (no GPU on Gradescope: the simulator only, unless asked). */
static const char setup_sh_fmt[] =
    "#!/usr/bin/env bash\n"
    "# Gradescope runs this once, as root, when it builds the autograder image:\n"
    "# a CMake new enough, the packages gpulab needs, then the kit built once,\n"
    "# so that grading a submission compiles only the student's files. Written\n"
    "# by gpulab-grade --package-gradescope.\n"
    "set -euo pipefail\n"
    "cd /autograder/source\n"
    "rm -rf gpulab-handout\n"
    "tar xzf gpulab.tar.gz\n"
    "export GPULAB_CMAKE_PATH_FILE=/autograder/source/cmake-bin-dir\n"
    "rm -f \"$GPULAB_CMAKE_PATH_FILE\"\n"
    "# shellcheck source=ensure-cmake.sh\n"
    ". /autograder/source/ensure-cmake.sh\n"
    "gpulab-handout/cmake/deps.sh install\n"
    "cmake -S gpulab-handout -B /autograder/build -DGPULAB_DOCS=OFF -DBUILD_TESTING=OFF%s\n"
    "cmake --build /autograder/build -j \"$(nproc)\"\n";

/* %s: the lab folder this autograder is for ("" for every lab); %s: the
 * grading options (seed, backend, lab). */
static const char run_autograder_fmt[] =
    "#!/usr/bin/env bash\n"
    "# Gradescope runs this for each submission. It finds the student's files\n"
    "# (a labs/ folder, the lab folders themselves, or loose files, which are\n"
    "# put into the lab folder that has a file of that name), builds them\n"
    "# against the kit and writes /autograder/results/results.json. Written by\n"
    "# gpulab-grade --package-gradescope.\n"
    "set -uo pipefail\n"
    "only_lab='%s'   # the lab folder graded here; empty: every lab\n"
    "grade_options='%s'\n"
    "root=${GPULAB_AUTOGRADER_ROOT:-/autograder}   # another root only for testing\n"
    "kit=$root/source/gpulab-handout\n"
    "sub=$root/submission\n"
    "results=$root/results/results.json\n"
    "# The CMake setup.sh installed, when the system's was too old.\n"
    "if [ -s \"$root/source/cmake-bin-dir\" ]; then\n"
    "  PATH=\"$(cat \"$root/source/cmake-bin-dir\"):$PATH\"\n"
    "fi\n"
    "mkdir -p \"$root/results\"\n"
    "if [ -d \"$sub/labs\" ]; then\n"
    "  sub=\"$sub/labs\"\n"
    "elif ! compgen -G \"$sub/[0-9][0-9]_*/\" >/dev/null; then\n"
    "  # Loose files: each goes into the lab folder whose starter has that name;\n"
    "  # a name that fits two labs needs the lab folders uploaded instead.\n"
    "  staged=$(mktemp -d)\n"
    "  while IFS= read -r -d '' f; do\n"
    "    name=$(basename \"$f\")\n"
    "    fits=()\n"
    "    for lab in \"$kit\"/labs/[0-9][0-9]_*/; do\n"
    "      lab=$(basename \"$lab\")\n"
    "      if [ -f \"$kit/labs/$lab/$name\" ] && { [ -z \"$only_lab\" ] || [ \"$lab\" = "
    "\"$only_lab\" ]; }; then\n"
    "        fits+=(\"$lab\")\n"
    "      fi\n"
    "    done\n"
    "    if [ \"${#fits[@]}\" -eq 1 ]; then\n"
    "      mkdir -p \"$staged/${fits[0]}\"\n"
    "      cp \"$f\" \"$staged/${fits[0]}/$name\"\n"
    "    elif [ \"${#fits[@]}\" -gt 1 ]; then\n"
    "      echo \"run_autograder: $name belongs to more than one lab (${fits[*]}): upload the lab "
    "folders\" >&2\n"
    "    fi\n"
    "  done < <(find \"$sub\" -type f -print0)\n"
    "  sub=$staged\n"
    "fi\n"
    "# shellcheck disable=SC2086  # grade_options is a list of words\n"
    "if ! \"$root/build/bin/gpulab-grade\" --submission \"$sub\" --source \"$kit\" \\\n"
    "     --build-dir \"$root/build\" --quiet --gradescope \"$results\" $grade_options; then\n"
    "  cat > \"$results\" <<'JSON'\n"
    "{\"score\": 0, \"output\": \"The autograder could not grade this submission: it did not "
    "configure or build. Check that the files you uploaded are the lab's files, unchanged in "
    "name.\"}\n"
    "JSON\n"
    "fi\n";

static const char readme_txt[] =
    "A Gradescope autograder for gpulab, written by gpulab-grade --package-gradescope.\n"
    "\n"
    "Upload: zip the contents of this folder (cd into it, then: zip -r ../autograder.zip .)\n"
    "and give the zip as the assignment's autograder (Ubuntu base image).\n"
    "Students upload their lab files: a labs/ folder, the lab folders (03_kernels/ ...),\n"
    "or just the files they edited. Each test on Gradescope is one check of the grader;\n"
    "there is no GPU on Gradescope, so labs are graded on gpulab's CPU simulator.\n";

/* The folder of the lab named by --lab, or "" for every lab. */
static const char *lab_dir(const options *o)
{
    int n;
    const grade_lab *labs = grade_labs(&n);
    for (int i = 0; o->lab && i < n; i++)
        if (!strcmp(labs[i].name, o->lab) && labs[i].dir)
            return labs[i].dir;
    return "";
}

int grade_package_gradescope(const options *o)
{
    char out[4096], def_src[4400], def_out[4400], script[4400], opts[512];
    if (mkdir(o->package, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpulab-grade: --package-gradescope %s: %s\n", o->package, strerror(errno));
        return 2;
    }
    if (!realpath(o->package, out)) {
        fprintf(stderr, "gpulab-grade: %s: %s\n", o->package, strerror(errno));
        return 2;
    }
    snprintf(def_src, sizeof(def_src), "-DSOURCE_DIR=%s", o->source);
    snprintf(def_out, sizeof(def_out), "-DOUTPUT=%s/gpulab.tar.gz", out);
    snprintf(script, sizeof(script), "%s/grader/starter/handout.cmake", o->source);
    const char *pack[] = { "cmake", def_src, def_out, "-P", script, NULL };
    if (grade_run_logged(pack, NULL) != 0) {
        fprintf(stderr, "gpulab-grade: packing the kit failed (see above)\n");
        return 2;
    }
    int n = snprintf(opts, sizeof(opts), "--seed %llu --backend %s", o->seed, o->backend);
    if (o->lab)
        n += snprintf(opts + n, sizeof(opts) - (size_t)n, " --lab %s", o->lab);
    if (o->time_limit > 0)
        snprintf(opts + n, sizeof(opts) - (size_t)n, " --time-limit %g", o->time_limit);
    size_t len = sizeof(run_autograder_fmt) + sizeof(setup_sh_fmt) + sizeof(opts);
    char *run = malloc(len), *setup = malloc(len);
    if (!run || !setup) {
        free(run);
        return 2;
    }
    snprintf(run, len, run_autograder_fmt, lab_dir(o), opts);
    snprintf(setup, len, setup_sh_fmt,
             strcmp(o->backend, "cuda") == 0 ? " -DGPULAB_CUDA=ON" : " -DGPULAB_CUDA=OFF");
    int bad = write_file(out, "setup.sh", setup, 0755) ||
              write_file(out, "ensure-cmake.sh", ensure_cmake_sh, 0644) ||
              write_file(out, "run_autograder", run, 0755) ||
              write_file(out, "README.txt", readme_txt, 0644);
    free(run);
    free(setup);
    if (bad)
        return 2;
    printf("gpulab-grade: the Gradescope autograder is in %s (setup.sh, ensure-cmake.sh, "
           "run_autograder, gpulab.tar.gz);\nzip its contents and upload the zip: cd %s && zip -r "
           "../autograder.zip .\n",
           out, out);
    return 0;
}
