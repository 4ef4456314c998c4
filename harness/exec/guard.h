/* guard.h - guard zones around the buffers a real device runs with: canary bytes before
 * and after each buffer, inside one larger memory object of which the kernel gets only the
 * middle, so that a write past either end is caught and measured instead of corrupting the
 * driver's heap (a crash) or passing unseen. A simulator needs none: it checks every
 * access itself, and guard zones would make the accesses it should report valid. */
#ifndef CLH_GUARD_H
#define CLH_GUARD_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* The bytes of each zone on `device`: at least a page, and a multiple of the device's
 * base address alignment, which a sub-buffer's origin must be. */
size_t guard_zone_bytes(cl_device_id device);

/* A buffer of `bytes` between two zones of `guard` bytes: *parent is the whole memory
 * object, the result the kernel's part of it (flags: its access). NULL with *err set
 * when the device refuses; the caller then makes the buffer unguarded. */
cl_mem guard_create(cl_context context, cl_mem_flags flags, size_t bytes, size_t guard,
		    cl_mem *parent, cl_int *err);

/* Fills both zones with the canary, before the kernel runs. */
cl_int guard_arm(cl_command_queue queue, cl_mem parent, size_t bytes, size_t guard);

/* Reads both zones back: *before is how many bytes before the buffer's start were
 * overwritten (counted from the farthest), *after how many past its end. */
cl_int guard_check(cl_command_queue queue, cl_mem parent, size_t bytes, size_t guard,
		   size_t *before, size_t *after);

#endif
