/* struct_array_field_past_end.cl - a struct with an array field, indexed one past the
 * array: inside the buffer for every record but the last, past the end for it. The
 * simulator reports the index past the array for every item, the read past the buffer
 * for the last, and the value that read stored as uninitialised.
 */
typedef struct {
	int id;
	float w[3];
} item;

kernel void last_weight(global const item *items, global float *out)
{
	size_t i = get_global_id(0);
	out[i] = items[i].w[3];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel last_weight --global 16 --local 8
 * expect: error out-of-bounds index global 14
 * expect: error out-of-bounds read global 14
 * expect: error uninitialized value-written global 14
 */
