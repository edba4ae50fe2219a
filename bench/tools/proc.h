/* proc.h -- CPU accounting of a process and its descendants from /proc, shared by xdrive.c and
 * xframes.c: utime+stime (10 ms ticks) and the sum of the threads' schedstat run time (ns). */
#ifndef BENCH_PROC_H
#define BENCH_PROC_H
#include <dirent.h>
#include <stdio.h>
#include <string.h>

static int children_of(int pid, int *out, int max)
{
    char path[128];
    int n = 0;
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.') continue;
        char cp[320];
        snprintf(cp, sizeof cp, "/proc/%d/task/%s/children", pid, e->d_name);
        FILE *f = fopen(cp, "r");
        if (!f) continue;
        int c;
        while (n < max && fscanf(f, "%d", &c) == 1) out[n++] = c;
        fclose(f);
    }
    closedir(d);
    return n;
}

static int proc_tree(int pid, int *out, int max)
{
    int n = 0, i;
    out[n++] = pid;
    for (i = 0; i < n && n < max; i++) n += children_of(out[i], out + n, max - n);
    return n;
}

static int read_stat(int pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t len = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[len] = 0;
    return 0;
}

static long long stat_ticks(int pid)
{
    char buf[4096];
    if (read_stat(pid, buf, sizeof buf)) return 0;
    char *p = strrchr(buf, ')');
    if (!p) return 0;
    unsigned long long ut = 0, st = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) return 0;
    return (long long)(ut + st);
}

static long long sched_ns(int pid)
{
    char path[128];
    long long sum = 0;
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sp[320];
        snprintf(sp, sizeof sp, "/proc/%d/task/%s/schedstat", pid, e->d_name);
        FILE *f = fopen(sp, "r");
        if (!f) continue;
        long long v;
        if (fscanf(f, "%lld", &v) == 1) sum += v;
        fclose(f);
    }
    closedir(d);
    return sum;
}

#endif
