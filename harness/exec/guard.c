/* guard.c - canary zones around a device's buffers, armed before a run, checked after. */
#include "config.h"

#include "exec/guard.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* A byte pattern no kernel writes by chance: neither zero, nor a small number, nor a
 * float a computation gives, nor the poison of unwritten outputs. */
static const unsigned char canary[16] = { 0xC1, 0xA7, 0x5E, 0x3D, 0x9B, 0x0F, 0xE4, 0x62,
					  0x1D, 0xB8, 0x73, 0xCA, 0x56, 0x2E, 0x91, 0x4B };

size_t guard_zone_bytes(cl_device_id device)
{
	cl_uint align_bits = 0;
	clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
			NULL);
	size_t align = align_bits >= 8 ? align_bits / 8 : 128;
	size_t zone = 4096;
	return (zone + align - 1) / align * align;
}

cl_mem guard_create(cl_context context, cl_mem_flags flags, size_t bytes, size_t guard,
		    cl_mem *parent, cl_int *err)
{
	*parent = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes + 2 * guard, NULL, err);
	if (*parent == NULL)
		return NULL;
	cl_buffer_region region = { .origin = guard, .size = bytes };
	cl_mem middle =
		clCreateSubBuffer(*parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
	if (middle == NULL) {
		clReleaseMemObject(*parent);
		*parent = NULL;
	}
	return middle;
}

/* One zone's worth of canary, the pattern repeated. Caller frees. */
static unsigned char *zone_pattern(size_t guard)
{
	unsigned char *zone = xmalloc(guard);
	for (size_t i = 0; i < guard; i++)
		zone[i] = canary[i % sizeof canary];
	return zone;
}

cl_int guard_arm(cl_command_queue queue, cl_mem parent, size_t bytes, size_t guard)
{
	unsigned char *zone = zone_pattern(guard);
	cl_int err = clEnqueueWriteBuffer(queue, parent, CL_TRUE, 0, guard, zone, 0, NULL, NULL);
	if (err == CL_SUCCESS)
		err = clEnqueueWriteBuffer(queue, parent, CL_TRUE, guard + bytes, guard, zone, 0,
					   NULL, NULL);
	free(zone);
	return err;
}

cl_int guard_check(cl_command_queue queue, cl_mem parent, size_t bytes, size_t guard,
		   size_t *before, size_t *after)
{
	*before = *after = 0;
	unsigned char *want = zone_pattern(guard), *got = xmalloc(guard);
	cl_int err = clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, guard, got, 0, NULL, NULL);
	/* The farthest changed byte from the buffer says how far the kernel went. */
	for (size_t i = 0; err == CL_SUCCESS && i < guard && *before == 0; i++)
		if (got[i] != want[i])
			*before = guard - i;
	if (err == CL_SUCCESS)
		err = clEnqueueReadBuffer(queue, parent, CL_TRUE, guard + bytes, guard, got, 0,
					  NULL, NULL);
	for (size_t i = guard; err == CL_SUCCESS && i-- > 0 && *after == 0;)
		if (got[i] != want[i])
			*after = i + 1;
	free(want);
	free(got);
	return err;
}
