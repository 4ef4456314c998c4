/* claim.h - a counter that every process forked from its maker shares: each takes the
 * next number from it, so that a list's items are handed out as workers become free
 * rather than cut into fixed parts in advance. */
#ifndef CLH_CLAIM_H
#define CLH_CLAIM_H

#include <stddef.h>

struct claim;

/* A counter at 0, in memory shared with the processes forked after this call; NULL when
 * the system gives no such memory. */
struct claim *claim_new(void);
/* The next number, 0, 1, 2, ..., never the same one twice in any of the processes. */
size_t claim_take(struct claim *c);
/* Accepts NULL. */
void claim_free(struct claim *c);

#endif
