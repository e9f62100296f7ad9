/*
 * killer.c — a submission that attacks its neighbours: SIGKILLs each process id given in
 * argv (as a process and as a group), every process it can find in /proc, and finally
 * kill(-1) (every process it may signal). Prints how many signals were accepted by the
 * kernel ("accepted N of M") and exits 0. The runner must keep it from reaching any other
 * run, whatever user both run as.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int sent, accepted;

static void hit(pid_t pid)
{
    if (pid == 0 || pid == getpid() || pid == -getpid())
        return;
    sent++;
    accepted += kill(pid, SIGKILL) == 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        pid_t pid = (pid_t)atol(argv[i]);
        hit(pid);
        hit(-pid);
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (isdigit((unsigned char)e->d_name[0]))
            hit((pid_t)atol(e->d_name));
    if (d)
        closedir(d);
    printf("accepted %d of %d\n", accepted, sent);
    fflush(stdout);
    kill(-1, SIGKILL); /* everything else it may signal; not itself */
    return 0;
}
