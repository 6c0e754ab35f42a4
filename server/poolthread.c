/* poolthread.c — pool thread set-up (poolthread.h). */
#include "poolthread.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Pool threads run at a lower CPU priority (nice + pool_nice, once per thread, Linux per-thread nice): with
 * short queries answered on the HTTP thread, the pool mostly runs slow slices and table builds, and on a
 * machine with as many busy threads as cores the scheduler would otherwise give a slice the core a short
 * query is waiting for (README "Performance"). */
static _Thread_local bool pool_thread_niced;

void ap_pool_thread_setup(int pool_nice)
{
    if (pool_thread_niced)
        return;
    pool_thread_niced = true;
    if (pool_nice > 0) {
        const id_t tid = (id_t)syscall(SYS_gettid);
        errno = 0;
        const int cur = getpriority(PRIO_PROCESS, tid);
        if (errno == 0)
            setpriority(PRIO_PROCESS, tid, cur + pool_nice);
    }
}
