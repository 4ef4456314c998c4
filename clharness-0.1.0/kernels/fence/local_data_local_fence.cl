/* Each item reads its neighbour's slot of a local tile. CLK_LOCAL_MEM_FENCE is the fence
 * local data needs: the barrier makes every item's write to the tile visible to the whole
 * work-group before any item reads. */
kernel void neighbour_local(global const int *in, local int *tile, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);

	tile[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tile[(lid + 1) % size];
}
