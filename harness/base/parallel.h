/* parallel.h - a loop over numbered pieces of work, spread over the machine's cores. */
#ifndef CLH_PARALLEL_H
#define CLH_PARALLEL_H

#include <stddef.h>

/* Pieces of PARALLEL_GRAIN elements: a caller cuts its work at fixed boundaries, never
 * at ones that depend on the number of threads, so results (a compensated sum merged
 * piece by piece in order) are the same on every machine. */
#define PARALLEL_GRAIN ((size_t)1 << 16)

/* The threads parallel_for runs on: the cores this process may use (its CPU affinity),
 * or CLHARNESS_THREADS where that is set to a number from 1 to 1024. */
unsigned parallel_threads(void);

/* Calls work(ctx, piece) once for every piece in [0, pieces), on up to
 * parallel_threads() threads that take pieces in turn, and returns when all are done;
 * on the calling thread alone when there is one piece or one thread, or when no thread
 * can be started. The threads live only for the call: a worker process that forks or is
 * limited in CPU time keeps no idle threads behind. */
void parallel_for(size_t pieces, void (*work)(void *ctx, size_t piece), void *ctx);

/* The pieces of PARALLEL_GRAIN elements that `count` elements make (at least one). */
size_t parallel_pieces(size_t count);

#endif
