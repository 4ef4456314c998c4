/* read_constant.cl - copies from a constant buffer, used by the harness's own tests of
 * constant memory's limit. */
__kernel void read_constant(__constant int *table, __global int *out)
{
	size_t i = get_global_id(0);
	out[i] = table[i];
}
