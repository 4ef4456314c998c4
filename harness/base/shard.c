/* shard.c - splitting a list of work round-robin into N shards. */
#include "config.h"

#include "base/shard.h"

#include <errno.h>
#include <stdlib.h>

int shard_parse(const char *text, struct shard *out)
{
	char *end;
	errno = 0;
	unsigned long k = strtoul(text, &end, 10);
	if (errno || end == text || *end != '/' || text[0] == '-' || end[1] == '-')
		return -1;
	const char *rest = end + 1;
	unsigned long n = strtoul(rest, &end, 10);
	if (errno || end == rest || *end != '\0' || k < 1 || n > 10000 || k > n)
		return -1;
	*out = (struct shard){ (unsigned)k, (unsigned)n };
	return 0;
}

bool shard_holds(const struct shard *s, size_t i)
{
	return s->count == 0 || i % s->count == s->index - 1;
}

size_t shard_item(const struct shard *s, size_t k)
{
	return s->count == 0 ? k : k * s->count + (s->index - 1);
}
