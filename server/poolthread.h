/* poolthread.h — what every libuv pool thread does before its first piece of work.
 *
 * The pool's threads run search slices (lanes.c) and table-build slices (tablework.c); whichever runs first
 * on a thread sets it up, so a thread that has only run table work is lowered as a search's thread is.
 * Threads: call only on a pool thread, from a work callback. No globals but the per-thread flag.
 */
#ifndef AP_SERVER_POOLTHREAD_H
#define AP_SERVER_POOLTHREAD_H

/* Lower the calling thread's CPU priority by pool_nice (0..19, config key pool_nice; 0 = unchanged): its nice
 * value becomes the current one + pool_nice (Linux per-thread nice; the kernel caps it at 19). Only the
 * first call on a thread acts; later ones return at once, whatever their pool_nice. A failing
 * getpriority/setpriority leaves the priority as it is (nothing to report: the thread still works). */
void ap_pool_thread_setup(int pool_nice);

#endif
