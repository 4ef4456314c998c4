/* Multiply, then reduce: each work-item stores one product in local memory, then a tree
 * in which item t adds its partner t + s while (t & mask) == 0, the mask widening each
 * level. One partial sum per work-group; the host finishes the sum. The work-group size
 * must be a power of two. */
kernel void dot_bitmask(global const float *a, global const float *b, local float *prods,
			global float *partials)
{
	size_t tnum = get_local_id(0);
	size_t size = get_local_size(0);

	prods[tnum] = a[get_global_id(0)] * b[get_global_id(0)];
	for (size_t s = 1; s < size; s <<= 1) {
		size_t mask = 2 * s - 1;
		/* Every partner's value from the level before must be in place. */
		barrier(CLK_LOCAL_MEM_FENCE);
		if ((tnum & mask) == 0)
			prods[tnum] += prods[tnum + s];
	}
	/* Item 0 wrote prods[0] last itself: no barrier needed to read it. */
	if (tnum == 0)
		partials[get_group_id(0)] = prods[0];
}
