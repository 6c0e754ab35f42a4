/* process_stats.c — process_* metrics from /proc (process_stats.h). */
#include "process_stats.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The contents of a small /proc file, NUL-terminated, in buf (cap bytes); false when unreadable. */
static bool read_small(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 0;
}

/* The system boot time, seconds since the epoch (/proc/stat "btime"), or -1. */
static double boot_time(void)
{
    static char buf[16384];
    FILE *f = fopen("/proc/stat", "r");
    if (f == NULL)
        return -1.0;
    double bt = -1.0;
    while (fgets(buf, sizeof buf, f) != NULL)
        if (strncmp(buf, "btime ", 6) == 0) {
            bt = strtod(buf + 6, NULL);
            break;
        }
    fclose(f);
    return bt;
}

void ap_process_stats_read(ap_process_stats *st)
{
    memset(st, 0, sizeof *st);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        st->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                          (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
        st->has_cpu = true;
    }
    char buf[1024];
    const long page = sysconf(_SC_PAGESIZE), tick = sysconf(_SC_CLK_TCK);
    unsigned long long vsize_pages = 0, rss_pages = 0;
    if (page > 0 && read_small("/proc/self/statm", buf, sizeof buf) &&
        sscanf(buf, "%llu %llu", &vsize_pages, &rss_pages) == 2) {
        st->virtual_bytes = (double)vsize_pages * (double)page;
        st->resident_bytes = (double)rss_pages * (double)page;
        st->has_memory = true;
    }
    /* /proc/self/stat: the command name is in parentheses and may hold spaces, so fields are counted from
     * the last ')'; starttime is field 22 (clock ticks after boot). */
    const char *rp = read_small("/proc/self/stat", buf, sizeof buf) ? strrchr(buf, ')') : NULL;
    unsigned long long start_ticks = 0;
    if (rp != NULL && tick > 0) {
        int field = 2;
        for (const char *p = rp + 1; *p != '\0' && field < 22; p++)
            if (*p == ' ' && ++field == 22)
                start_ticks = strtoull(p + 1, NULL, 10);
        double bt = boot_time();
        if (field == 22 && bt >= 0.0) {
            st->start_time_seconds = bt + (double)start_ticks / (double)tick;
            st->has_start = true;
        }
    }
    DIR *d = opendir("/proc/self/fd");
    if (d != NULL) {
        int n = 0;
        for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
            n += e->d_name[0] != '.';
        closedir(d);
        st->open_fds = n - 1; /* less the directory stream's own descriptor */
        st->has_fds = true;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        st->max_fds = (double)rl.rlim_cur;
        st->has_max_fds = true;
    }
}

/* Why the shortest digits that read back as v: %.17g printed 12 ticks of CPU as 0.11999999999999999, which
 * a person reading the scrape takes for a rounding fault (the value itself is exact to the kernel's tick). */
static void sample(FILE *f, bool has, const char *name, const char *type, const char *help, double v)
{
    if (!has)
        return;
    char num[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(num, sizeof num, "%.*g", digits, v);
        if (strtod(num, NULL) == v)
            break;
    }
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, type, name, num);
}

void ap_process_stats_render(FILE *f, const ap_process_stats *st)
{
    sample(f, st->has_cpu, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
           st->cpu_seconds);
    sample(f, st->has_memory, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
           st->resident_bytes);
    sample(f, st->has_memory, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
           st->virtual_bytes);
    sample(f, st->has_start, "process_start_time_seconds", "gauge",
           "Start time of the process since unix epoch in seconds.", st->start_time_seconds);
    sample(f, st->has_fds, "process_open_fds", "gauge", "Number of open file descriptors.", st->open_fds);
    sample(f, st->has_max_fds, "process_max_fds", "gauge", "Maximum number of open file descriptors.", st->max_fds);
}

/* *limit = min(*limit, v) when v > 0, naming the source. */
static void take_lower(double v, const char *name, double *limit, const char **source)
{
    if (v > 0.0 && (*limit <= 0.0 || v < *limit)) {
        *limit = v;
        *source = name;
    }
}

/* A cgroup limit file's value in bytes: a number, or 0 for "max", unreadable or not a number. */
static double cgroup_value(const char *path)
{
    char buf[64];
    if (!read_small(path, buf, sizeof buf))
        return 0.0;
    char *end = NULL;
    const unsigned long long v = strtoull(buf, &end, 10);
    return end != buf && (*end == '\n' || *end == '\0') ? (double)v : 0.0;
}

/* The limit file `file` of the process's own cgroup: the path after `marker` ("0::" for v2, ":memory:" for
 * v1) on its line of /proc/self/cgroup (cg, NUL-terminated), under `root`; else the one at root itself (what
 * a container's own mount shows). 0 when neither gives a number. */
static double own_cgroup_value(const char *cg, const char *marker, const char *root, const char *file)
{
    char path[2200];
    const char *line = cg != NULL ? strstr(cg, marker) : NULL;
    /* (v2's "0::" must start its line: "10::" would be another hierarchy) */
    if (line != NULL && marker[0] == '0' && line != cg && line[-1] != '\n')
        line = NULL;
    double v = 0.0;
    if (line != NULL) {
        const char *p = line + strlen(marker);
        snprintf(path, sizeof path, "%s%.*s/%s", root, (int)strcspn(p, "\n"), p, file);
        v = cgroup_value(path);
    }
    if (v <= 0.0) {
        snprintf(path, sizeof path, "%s/%s", root, file);
        v = cgroup_value(path);
    }
    return v;
}

double ap_process_memory_limit(const char **source)
{
    double limit = 0.0;
    const char *src = NULL;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        take_lower((double)pages * (double)page, "physical memory", &limit, &src);
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        take_lower((double)rl.rlim_cur, "RLIMIT_AS", &limit, &src);
    char cg[2048];
    const char *own = read_small("/proc/self/cgroup", cg, sizeof cg) ? cg : NULL;
    take_lower(own_cgroup_value(own, "0::", "/sys/fs/cgroup", "memory.max"), "cgroup memory.max", &limit, &src);
    take_lower(own_cgroup_value(own, ":memory:", "/sys/fs/cgroup/memory", "memory.limit_in_bytes"),
               "cgroup memory.limit_in_bytes", &limit, &src);
    if (source != NULL)
        *source = src;
    return limit;
}

uint64_t ap_process_raise_nofile(uint64_t want)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    if ((uint64_t)rl.rlim_cur < want) {
        struct rlimit up = rl;
        up.rlim_cur = rl.rlim_max == RLIM_INFINITY || (uint64_t)rl.rlim_max >= want ? (rlim_t)want : rl.rlim_max;
        if (up.rlim_cur > rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &up) == 0)
            rl = up;
    }
    return (uint64_t)rl.rlim_cur;
}
