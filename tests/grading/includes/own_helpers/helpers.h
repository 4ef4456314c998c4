/* Halves the live part of the work-group's slots until part[0] holds their sum. */
void tree_sum(local int *part, size_t lid)
{
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}
