/* structdef.h - the structs a kernel's source defines, read from the source itself: OpenCL
 * describes a struct parameter only by its type's name, so `check` finds the definition
 * (struct tag {...}, typedef struct {...} name, or typedef struct tag name) to lay out the
 * arguments it makes for it. */
#ifndef CLH_STRUCTDEF_H
#define CLH_STRUCTDEF_H

#include "case/record.h"

/* The fields of `type` ("struct params", or a typedef's name "particle") as `source`
 * defines it. Returns 0 with a new record in *out, or -1 with why in *why (the caller
 * frees it): no definition, or a field that is not a scalar or vector (an array, a
 * pointer, a nested struct). */
int structdef_find(const char *source, const char *type, struct record **out, char **why);

#endif
