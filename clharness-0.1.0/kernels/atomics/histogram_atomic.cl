/* The histogram with atomic_inc: each increment reads and writes its bin as one
 * indivisible step, so no update is lost and no two items race, whatever the data. */
kernel void histogram_atomic(global const uint *values, global uint *bins)
{
	atomic_inc(&bins[values[get_global_id(0)]]);
}
