/* shadowscan.c - a launch's shadow read back after it ran (shadowscan.h). */
#include "config.h"

#include <stdlib.h>

#include "base/util.h"
#include "exec/shadowscan.h"

/* Granules a slice: 2 MiB of cells and as much of aux words, whatever the buffer's size. */
#define SLICE_GRANULES ((uint64_t)1 << 17)

/* The cell word's item and the aux word's site, as the runtime lays them (shadowrt.c):
 * item + 1 in the cell's high half; a write's site in its aux word's high half, a first
 * read's in the low. */
static uint32_t cell_item(uint64_t cell)
{
	return (uint32_t)(cell >> 32) - 1;
}

static uint32_t aux_site(uint64_t word, bool reads)
{
	return reads ? (uint32_t)word : (uint32_t)(word >> 32);
}

static void count_hit(struct shadow_hit **hits, size_t *nhits, uint32_t site, uint32_t item)
{
	for (size_t i = 0; i < *nhits; i++)
		if ((*hits)[i].site == site) {
			(*hits)[i].granules++;
			return;
		}
	*hits = xreallocarray(*hits, *nhits + 1, sizeof **hits);
	(*hits)[(*nhits)++] = (struct shadow_hit){ .site = site, .item = item, .granules = 1 };
}

long shadow_scan(cl_command_queue queue, cl_mem cells, cl_mem aux, uint64_t first, uint64_t count,
		 bool reads, struct shadow_hit **hits)
{
	uint64_t slice = count < SLICE_GRANULES ? count : SLICE_GRANULES;
	uint64_t *cell = xmalloc((slice ? slice : 1) * 2 * sizeof *cell);
	uint64_t *word = xmalloc((slice ? slice : 1) * 2 * sizeof *word);
	size_t nhits = 0;
	*hits = NULL;
	unsigned which = reads ? 1 : 0;
	for (uint64_t at = 0; at < count; at += slice) {
		uint64_t n = count - at < slice ? count - at : slice;
		size_t offset = (size_t)((first + at) * 2 * sizeof *cell);
		size_t bytes = (size_t)(n * 2 * sizeof *cell);
		if (clEnqueueReadBuffer(queue, cells, CL_TRUE, offset, bytes, cell, 0, NULL,
					NULL) != CL_SUCCESS)
			goto failed;
		bool any = false;
		for (uint64_t g = 0; g < n && !any; g++)
			any = cell[2 * g + which] != 0;
		/* A buffer's flags are mostly kept: the aux words are read only where a
		 * slice holds what they forbid. */
		if (!any)
			continue;
		if (clEnqueueReadBuffer(queue, aux, CL_TRUE, offset, bytes, word, 0, NULL, NULL) !=
		    CL_SUCCESS)
			goto failed;
		for (uint64_t g = 0; g < n; g++) {
			uint64_t c = cell[2 * g + which];
			uint32_t site = aux_site(word[2 * g + which], reads);
			if (c && site)
				count_hit(hits, &nhits, site, cell_item(c));
		}
	}
	free(cell);
	free(word);
	return (long)nhits;
failed:
	free(cell);
	free(word);
	free(*hits);
	*hits = NULL;
	return -1;
}
