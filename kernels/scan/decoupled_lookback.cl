/* A single-pass scan by decoupled look-back: the array is read once and written once, 2n
 * floats moved, where reduce-then-scan moves 3n. Each work-group takes the next tile in
 * the order groups start (a ticket from a counter, so every tile before it belongs to a
 * group already running), scans its tile, and publishes the tile's aggregate at once;
 * then it looks back over the tiles before it, adding aggregates, until it finds one whose
 * inclusive prefix is published, and publishes its own inclusive prefix. No group waits
 * for the whole scan before it, only for the nearest published prefix.
 *
 * A tile's status is one 64-bit word, its state (0 nothing yet, 1 aggregate, 2 inclusive
 * prefix) in the high half and the value's bits in the low half, written and read whole
 * by 64-bit atomics: a reader that sees the state sees the value written with it, on any
 * device and whatever its fences are worth. (A flag and a value in two words need a fence
 * between them at device scope, which OpenCL 1.2 cannot ask for: its global mem_fence
 * orders accesses for the work-group only, and NVIDIA's compiler makes it membar.cta.)
 * Two twins build from this file and write the halves apart, as two words:
 * -D FENCE_MISSING stores the value plainly and then the state, with no fence between,
 * and -D UNORDERED_READ reads a predecessor's value plainly before its state, without
 * the order the state needs.
 *
 * A tile is ROWS rows of L vectors of four floats; item i loads vector i of each row, so
 * that neighbouring items load neighbouring vectors. The group scans the items' row totals
 * as one float4 a item, a lane a row. */

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define ROWS 4
#define TILE_NOTHING 0u
#define TILE_AGGREGATE 1u
#define TILE_PREFIX 2u
/* Tiles a look-back step reads at once, an item each. */
#define LOOKBACK_WINDOW 32

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

/* Publishes a tile's state and value. */
static void publish(volatile global ulong *status, uint state, float value)
{
#ifdef FENCE_MISSING
	/* The twin: the halves written apart, the value plainly, nothing ordering it
	 * before the state. */
	global uint *halves = (global uint *)status;
	halves[0] = as_uint(value);
	atomic_xchg((volatile global uint *)&halves[1], state);
#else
	atom_xchg(status, (ulong)state << 32 | as_uint(value));
#endif
}

/* A tile's state once it has one, and its value in *value. */
static uint read_status(volatile global ulong *status, float *value)
{
#ifdef UNORDERED_READ
	/* The twin: the value read plainly, before the state that says it is there. */
	volatile global uint *halves = (volatile global uint *)status;
	float early = as_float(*(global uint *)&halves[0]);
	uint state;
	while ((state = atomic_add(&halves[1], 0)) == TILE_NOTHING)
		;
	*value = early;
	return state;
#else
	ulong word;
	while ((uint)((word = atom_add(status, 0)) >> 32) == TILE_NOTHING)
		;
	*value = as_float((uint)word);
	return (uint)(word >> 32);
#endif
}

/* Zeroes the ticket counter and every tile's status, as each scan needs. */
kernel void lookback_init(global uint *ticket, global ulong *status, uint tiles)
{
	size_t i = get_global_id(0);
	if (i == 0)
		*ticket = 0;
	if (i < tiles)
		status[i] = 0;
}

/* The sum of the items' values before this one in the work-group, a lane a row, by a
 * scan of log2 L steps between two halves of scratch (2 L float4s); *total gets the
 * group's sums. Every item of the group must call it. */
static float4 exclusive_scan_items(float4 x, local float4 *scratch, float4 *total)
{
	size_t lid = get_local_id(0);
	size_t size = get_local_size(0);
	local float4 *from = scratch, *to = scratch + size;
	from[lid] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = 1; s < size; s <<= 1) {
		to[lid] = lid >= s ? from[lid] + from[lid - s] : from[lid];
		barrier(CLK_LOCAL_MEM_FENCE);
		local float4 *swap = from;
		from = to;
		to = swap;
	}
	*total = from[size - 1];
	return lid > 0 ? from[lid - 1] : (float4)(0.0f);
}

/* The sum of every tile before `tile`: the aggregates back to the nearest tile whose
 * inclusive prefix is published, and that prefix, LOOKBACK_WINDOW tiles read at once by
 * as many items, into *before (local memory: it lives across barriers in a loop, where
 * PoCL lost a private variable's value). Waits only on tiles of groups already running.
 * Every item of the group must call it. */
static void look_back(size_t tile, volatile global ulong *status, local uint *window_state,
		      local float *window_value, local uint *window_done, local float *before)
{
	size_t lid = get_local_id(0);
	size_t width = min((size_t)LOOKBACK_WINDOW, get_local_size(0));
	if (lid == 0)
		*before = 0.0f;
	/* A window a turn, the loop's condition the same for every item (barriers inside). */
	size_t end = tile;
	while (end > 0) {
		/* Item j reads tile end - 1 - j, the nearest first. */
		if (lid < width && lid < end) {
			float value;
			window_state[lid] = read_status(&status[end - 1 - lid], &value);
			window_value[lid] = value;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid == 0) {
			*window_done = 0;
			for (size_t j = 0; j < width && j < end && !*window_done; j++) {
				*before = window_value[j] + *before;
				*window_done = window_state[j] == TILE_PREFIX;
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		end = *window_done || end <= width ? 0 : end - width;
	}
}

/* One tile a work-group, ROWS * L vectors. Launch at least
 * ceildiv(ceildiv(n, 4), ROWS * L) groups; status holds one word a group, zeroed by
 * lookback_init. */
kernel void scan_lookback(global const float *in, global float *out, uint n,
			  volatile global uint *ticket, volatile global ulong *status,
			  local float4 *scratch)
{
	local uint tile_of_group;
	local float tile_before;
	local uint window_state[LOOKBACK_WINDOW], window_done;
	local float window_value[LOOKBACK_WINDOW];
	size_t lid = get_local_id(0);
	size_t size = get_local_size(0);
	if (lid == 0)
		tile_of_group = atomic_inc(ticket);
	barrier(CLK_LOCAL_MEM_FENCE);
	size_t tile = tile_of_group;
	size_t vectors = ((size_t)n + 3) / 4;
	size_t first = tile * ROWS * size + lid;

	/* Each row's vector scanned across its lanes; its total a lane of `totals`. */
	float4 v[ROWS];
	float totals[ROWS];
	for (int r = 0; r < ROWS; r++) {
		size_t i = first + r * size;
		v[r] = i < vectors ? load_vector(in, i, n) : (float4)(0.0f);
		v[r].y += v[r].x;
		v[r].z += v[r].y;
		v[r].w += v[r].z;
		totals[r] = v[r].w;
	}
	float4 row_sums;
	float4 before_item = exclusive_scan_items(
		(float4)(totals[0], totals[1], totals[2], totals[3]), scratch, &row_sums);
	/* Where each row starts within the tile. */
	float row_start[ROWS] = { 0.0f, row_sums.x, row_sums.x + row_sums.y,
				  row_sums.x + row_sums.y + row_sums.z };
	float aggregate = row_start[3] + row_sums.w;

	if (lid == 0)
		publish(&status[tile], tile == 0 ? TILE_PREFIX : TILE_AGGREGATE, aggregate);
	look_back(tile, status, window_state, window_value, &window_done, &tile_before);
	if (lid == 0 && tile > 0)
		publish(&status[tile], TILE_PREFIX, tile_before + aggregate);
	barrier(CLK_LOCAL_MEM_FENCE);
	float offsets[ROWS] = { before_item.x, before_item.y, before_item.z, before_item.w };
	for (int r = 0; r < ROWS; r++) {
		size_t i = first + r * size;
		if (i < vectors)
			store_vector(out, i, n, v[r] + (tile_before + (row_start[r] + offsets[r])));
	}
}
