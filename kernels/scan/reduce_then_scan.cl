/* The fast whole-array scan: reduce, then scan. A grid sized to the device (a few
 * work-groups a compute unit) splits the array into one contiguous chunk a work-group.
 * The first launch sums each chunk; the second, one work-group, turns the chunk sums
 * into each chunk's offset; the third reads each chunk again and scans it from its
 * offset, a tile of four floats an item at a time, carrying the tile's total to the
 * next. The array is read twice and written once, 3n floats moved, where a scan of
 * blocks writes its output, then reads and writes it again to add the block sums.
 *
 * Items load four floats at once: buffers start aligned to the device's base address
 * alignment and every vector starts at a multiple of four floats, so the cast to float4
 * is aligned; only a last vector that n cuts short is loaded a float at a time. */

/* Vector i of the array (four floats from 4 i), zeros past n. */
static float4 load_vector(global const float *data, size_t i, size_t n)
{
	if (4 * i + 3 < n)
		return ((global const float4 *)data)[i];
	float4 v = (float4)(0.0f);
	if (4 * i < n)
		v.x = data[4 * i];
	if (4 * i + 1 < n)
		v.y = data[4 * i + 1];
	if (4 * i + 2 < n)
		v.z = data[4 * i + 2];
	return v;
}

/* Stores vector i, as much of it as lies before n. */
static void store_vector(global float *data, size_t i, size_t n, float4 v)
{
	if (4 * i + 3 < n) {
		((global float4 *)data)[i] = v;
		return;
	}
	if (4 * i < n)
		data[4 * i] = v.x;
	if (4 * i + 1 < n)
		data[4 * i + 1] = v.y;
	if (4 * i + 2 < n)
		data[4 * i + 2] = v.z;
}

/* The sum of the values of the items before this one in the work-group, by a scan of
 * log2 L steps (each item adds the value s items back, s doubling) between two halves of
 * scratch (2 L floats), so that no step reads what it writes; *total gets the sum over
 * the whole group. Every item of the group must call it. */
static float exclusive_scan_items(float x, local float *scratch, float *total)
{
	size_t lid = get_local_id(0);
	size_t size = get_local_size(0);
	local float *from = scratch, *to = scratch + size;
	from[lid] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = 1; s < size; s <<= 1) {
		to[lid] = lid >= s ? from[lid] + from[lid - s] : from[lid];
		barrier(CLK_LOCAL_MEM_FENCE);
		local float *swap = from;
		from = to;
		to = swap;
	}
	float before = lid > 0 ? from[lid - 1] : 0.0f;
	*total = from[size - 1];
	/* The next call writes scratch again: every item must have read it first. */
	barrier(CLK_LOCAL_MEM_FENCE);
	return before;
}

/* Launch 1: partials[g] = the sum of chunk g, `chunk` vectors from g * chunk. */
kernel void scan_reduce_chunks(global const float *in, uint n, uint chunk, local float *scratch,
			       global float *partials)
{
	size_t lid = get_local_id(0);
	size_t vectors = ((size_t)n + 3) / 4;
	size_t begin = get_group_id(0) * (size_t)chunk;
	size_t end = min(begin + chunk, vectors);
	float sum = 0.0f;
	for (size_t i = begin + lid; i < end; i += get_local_size(0)) {
		float4 v = load_vector(in, i, n);
		sum += (v.x + v.y) + (v.z + v.w);
	}
	scratch[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partials[get_group_id(0)] = scratch[0];
}

/* Launch 2, one work-group: replaces the `count` chunk sums by their exclusive scan,
 * each chunk's offset, a tile of L sums at a time. */
kernel void scan_partials(global float *partials, uint count, local float *scratch)
{
	size_t lid = get_local_id(0);
	float carry = 0.0f;
	for (size_t base = 0; base < count; base += get_local_size(0)) {
		size_t i = base + lid;
		float x = i < count ? partials[i] : 0.0f;
		float total;
		float before = exclusive_scan_items(x, scratch, &total);
		if (i < count)
			partials[i] = carry + before;
		carry += total;
	}
}

/* Launch 3: scans chunk g from offsets[g]. Each item scans its four floats in turn, the
 * group scans the items' totals, and the chunk's carry grows by each tile's total. */
kernel void scan_chunks(global const float *in, global float *out, uint n, uint chunk,
			global const float *offsets, local float *scratch)
{
	size_t vectors = ((size_t)n + 3) / 4;
	size_t begin = get_group_id(0) * (size_t)chunk;
	size_t end = min(begin + chunk, vectors);
	float carry = offsets[get_group_id(0)];
	/* Every item runs every tile, past `end` too: the scan's barriers need the whole
	 * group. */
	for (size_t base = begin; base < end; base += get_local_size(0)) {
		size_t i = base + get_local_id(0);
		float4 v = i < end ? load_vector(in, i, n) : (float4)(0.0f);
		v.y += v.x;
		v.z += v.y;
		v.w += v.z;
		float total;
		float before = carry + exclusive_scan_items(v.w, scratch, &total);
		if (i < end)
			store_vector(out, i, n, v + before);
		carry += total;
	}
}
