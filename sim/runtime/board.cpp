// board.cpp — what `gpulab smi` lists as "Processes": each running program of
// the simulator keeps a small file, <dir>/<pid>, mapped into its memory, with
// its name and the device memory it holds on each simulated device, updated
// on every allocation and free (memory.cpp). <dir> is
// $XDG_RUNTIME_DIR/gpulab-sim, or /tmp/gpulab-sim-<uid> without it. The file
// is made at the first allocation and removed at exit; one left by a program
// that was killed is removed by the next `gpulab smi`. Nothing here can stop
// a program: without a place to write, it is simply not listed.
#include "board.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gpulab_sim
{

std::string board_dir()
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (xdg && *xdg)
        return std::string(xdg) + "/gpulab-sim";
    return "/tmp/gpulab-sim-" + std::to_string(getuid());
}

namespace
{

board_entry *entry = nullptr;
pid_t entry_pid = 0;
bool given_up = false;
char entry_path[4200];

void remove_entry()
{
    if (entry && entry_pid == getpid())
        unlink(entry_path);
}

board_entry *open_entry()
{
    pid_t pid = getpid();
    if (entry && entry_pid == pid)
        return entry;
    if (given_up && entry_pid == pid)
        return nullptr;
    // A new process (the first allocation, or a child after fork): its own file.
    if (entry)
        munmap(entry, sizeof(board_entry));
    entry = nullptr;
    entry_pid = pid;
    given_up = true;
    std::string dir = board_dir();
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return nullptr;
    struct stat st;
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
        return nullptr; // someone else's folder: write nothing there
    snprintf(entry_path, sizeof(entry_path), "%s/%d", dir.c_str(), (int)pid);
    int fd = open(entry_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return nullptr;
    if (ftruncate(fd, sizeof(board_entry)) != 0) {
        close(fd);
        unlink(entry_path);
        return nullptr;
    }
    void *m = mmap(nullptr, sizeof(board_entry), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        unlink(entry_path);
        return nullptr;
    }
    entry = (board_entry *)m;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(entry->name, sizeof(entry->name), "%s", exe);
    entry->pid = pid;
    entry->magic = board_magic;
    static bool registered = false;
    if (!registered) {
        registered = true;
        atexit(remove_entry);
    }
    given_up = false;
    return entry;
}

} // namespace

void board_set_used(int device, size_t bytes)
{
    if (device < 0 || device >= board_devices)
        return;
    board_entry *e = open_entry();
    if (e)
        __atomic_store_n(&e->used[device], (uint64_t)bytes, __ATOMIC_RELAXED);
}

} // namespace gpulab_sim
