/* shadowscan.h - a racecheck launch's shadow read back on the host after it ran: which
 * granules of a buffer some site wrote, or read, and which item did. What a buffer's
 * memory-object flags forbid (a write to a CL_MEM_READ_ONLY buffer, a read of a
 * CL_MEM_WRITE_ONLY one) is found so, with no check on the device: the flags are the
 * host's, the same for every access of the buffer, and the shadow keeps each granule's
 * last write and reads with their sites. */
#ifndef CLHARNESS_EXEC_SHADOWSCAN_H
#define CLHARNESS_EXEC_SHADOWSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/ocl.h"

/* A site whose access the shadow kept at `granules` granules; `item` made one of them
 * (its group-major number). */
struct shadow_hit {
	uint32_t site;
	uint32_t item;
	uint64_t granules;
};

/* Reads the shadow (cells and aux words, two 64-bit words a granule each) of granules
 * [first, first + count) of a launch that has finished, in slices of bounded size, and
 * lists the sites whose write (reads: whose first read) the cells keep, in the order first
 * met. Returns the number of sites in *hits, which the caller frees, or -1 where a read
 * fails. */
long shadow_scan(cl_command_queue queue, cl_mem cells, cl_mem aux, uint64_t first, uint64_t count,
		 bool reads, struct shadow_hit **hits);

#endif
