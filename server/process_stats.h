/* process_stats.h — the Prometheus client libraries' standard process_* metrics for arcpathd, read from
 * the kernel when /metrics is scraped: CPU time, resident and virtual memory, start time, open and maximum
 * file descriptors. Linux only (/proc); a value that cannot be read is left out of the exposition rather
 * than reported as 0. */
#ifndef AP_SERVER_PROCESS_STATS_H
#define AP_SERVER_PROCESS_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ap_process_stats {
    double cpu_seconds;        /* user + system CPU time of the whole process, seconds */
    double resident_bytes;     /* resident set size, bytes */
    double virtual_bytes;      /* virtual memory size, bytes */
    double start_time_seconds; /* process start, seconds since the Unix epoch */
    double open_fds;           /* file descriptors open now */
    double max_fds;            /* the soft RLIMIT_NOFILE */
    bool has_cpu, has_memory, has_start, has_fds, has_max_fds;
} ap_process_stats;

/* Read the current values into *st (the has_* flags say which could be read). Thread-safe; a few
 * syscalls and small /proc reads (~20 µs), meant for a scrape, not a hot path. */
void ap_process_stats_read(ap_process_stats *st);

/* Write st as Prometheus text (HELP, TYPE and one sample per value read; has_* false: left out) to f, each
 * value in the fewest digits that read back as the same double (0.12, not 0.11999999999999999). st is
 * only read; thread-safe as stdio is. */
void ap_process_stats_render(FILE *f, const ap_process_stats *st);

/* The most memory (bytes) this process may use: the least of the physical memory (sysconf), the soft
 * RLIMIT_AS, and the memory limit of its cgroup (v2 memory.max of its own cgroup, else of the root the
 * container sees; v1 memory.limit_in_bytes), each where set and readable. *source (if not NULL) names the one
 * that gave it: "physical memory", "RLIMIT_AS", "cgroup memory.max" or "cgroup memory.limit_in_bytes".
 * 0 when none could be read. Thread-safe; a few small file reads, for start-up checks. */
double ap_process_memory_limit(const char **source);

/* Raise the soft RLIMIT_NOFILE towards want descriptors (never above the hard limit, never lowered) and
 * return the soft limit in force afterwards (UINT64_MAX when unlimited; 0 when it cannot be read). Not
 * thread-safe with respect to other rlimit changes: call once at start, before the listening threads. */
uint64_t ap_process_raise_nofile(uint64_t want);

#endif
