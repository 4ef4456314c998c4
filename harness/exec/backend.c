/* backend.c - the registry of backends, and what they share about kernel signatures. */
#include "config.h"

#include "exec/backend.h"

#include <stdlib.h>
#include <string.h>

const struct backend *const backends[] = {
	&backend_device,
	&backend_racecheck,
	&backend_oclgrind,
};
const size_t backend_count = sizeof backends / sizeof backends[0];

void kernel_sig_free(struct kernel_sig *sig)
{
	for (size_t i = 0; i < sig->count; i++) {
		free(sig->params[i].name);
		free(sig->params[i].type);
	}
	free(sig->params);
	*sig = (struct kernel_sig){ 0 };
}

void target_free(struct target *t)
{
	free(t->name);
	free(t->type);
	free(t->device);
	free(t->platform);
	free(t->driver);
	free(t->opencl);
	*t = (struct target){ 0 };
}

bool backend_can(const struct backend *b, enum capability what)
{
	return (b->capabilities & what) != 0;
}

bool target_can(const struct target *t, enum capability what)
{
	return (t->capabilities & what) != 0;
}
