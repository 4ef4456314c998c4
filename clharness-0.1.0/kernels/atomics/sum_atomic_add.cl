/* A whole-array sum in one launch: every item adds its element to one global counter with
 * atomic_add, so no update is lost whatever the order. Right, and simple, but every item
 * contends for one address. */
kernel void sum_atomic(global const int *in, volatile global int *total)
{
	atomic_add(total, in[get_global_id(0)]);
}
