/* parallel.c - a loop over numbered pieces of work, spread over the machine's cores. */
#include "config.h"

#include "base/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 1024

unsigned parallel_threads(void)
{
	const char *forced = getenv("CLHARNESS_THREADS");
	if (forced && *forced) {
		char *end;
		long n = strtol(forced, &end, 10);
		if (*end == '\0' && n >= 1 && n <= MAX_THREADS)
			return (unsigned)n;
	}
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? (unsigned)(online < MAX_THREADS ? online : MAX_THREADS) : 1;
}

size_t parallel_pieces(size_t count)
{
	return count == 0 ? 1 : (count + PARALLEL_GRAIN - 1) / PARALLEL_GRAIN;
}

struct loop {
	void (*work)(void *ctx, size_t piece);
	void *ctx;
	size_t pieces;
	atomic_size_t next;
};

static void *take_pieces(void *arg)
{
	struct loop *loop = arg;
	for (size_t piece; (piece = atomic_fetch_add(&loop->next, 1)) < loop->pieces;)
		loop->work(loop->ctx, piece);
	return NULL;
}

void parallel_for(size_t pieces, void (*work)(void *ctx, size_t piece), void *ctx)
{
	struct loop loop = { .work = work, .ctx = ctx, .pieces = pieces };
	atomic_init(&loop.next, 0);
	size_t wanted = parallel_threads();
	if (wanted > pieces)
		wanted = pieces;
	pthread_t threads[MAX_THREADS];
	size_t started = 0;
	/* The calling thread is one of them. */
	while (started + 1 < wanted &&
	       pthread_create(&threads[started], NULL, take_pieces, &loop) == 0)
		started++;
	take_pieces(&loop);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
}
