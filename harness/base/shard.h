/* shard.h - one of N parts of a list of work (students, case files), split the same way
 * wherever it is split, so that shards on other machines add up to the whole list. */
#ifndef CLH_SHARD_H
#define CLH_SHARD_H

#include <stdbool.h>
#include <stddef.h>

/* Part `index` (1 to count) of `count`; count 0: no sharding, the whole list. */
struct shard {
	unsigned index;
	unsigned count;
};

/* Parses "K/N" (1 <= K <= N <= 10000). Returns -1 on anything else. */
int shard_parse(const char *text, struct shard *out);
/* Whether item i (0-based, in the list's fixed order) belongs to the shard: every N-th
 * from the K-th, so that slow items spread over the shards as evenly as fast ones. */
bool shard_holds(const struct shard *s, size_t i);
/* The position in the whole list of the shard's item `k` (0-based). */
size_t shard_item(const struct shard *s, size_t k);

#endif
