/* entity.h - who made an access a finding names: a work-item, with its global, local
 * and group ids, or a work-group as a whole (its async copies), whatever checker saw it. */
#ifndef CLH_ENTITY_H
#define CLH_ENTITY_H

#include <stdbool.h>

struct entity {
	bool is_item; /* false: the work-group `group`, its other ids unused */
	long global[3];
	long local[3];
	long group[3];
};

#endif
