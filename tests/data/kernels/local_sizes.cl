/* Writes each work-item's work-group size: a ragged last group shows as a smaller one. */
kernel void sizes(global int *out)
{
	out[get_global_id(0)] = (int)get_local_size(0);
}
