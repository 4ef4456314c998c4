/* claim.c - a counter shared by forked processes (claim.h). */
#include "config.h"

#include "base/claim.h"

#include <sys/mman.h>

struct claim {
	size_t next;
};

struct claim *claim_new(void)
{
	void *shared = mmap(NULL, sizeof(struct claim), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return NULL;
	struct claim *c = shared;
	c->next = 0;
	return c;
}

size_t claim_take(struct claim *c)
{
	return __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED);
}

void claim_free(struct claim *c)
{
	if (c)
		munmap(c, sizeof *c);
}
