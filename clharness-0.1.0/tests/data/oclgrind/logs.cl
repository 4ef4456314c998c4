/* The kernels whose Oclgrind 21.10 logs are kept beside this file, for the parser's unit
 * tests. Each log was captured with OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1
 * OCLGRIND_CHECK_API=1 OCLGRIND_NUM_THREADS=1, built with -cl-opt-disable, run at global
 * 64, local 32 with the arguments (in, scratch, out), unless its name says otherwise. */

/* race_global_ww.log: every item of a group writes the group's slot, each a different value. */
kernel void write_group_slot(global float *in, local float *scratch, global float *out)
{
	out[get_group_id(0)] = in[get_global_id(0)];
}

/* race_global_rw.log: a global fence cannot order work-groups. */
kernel void shift_after_global_barrier(global float *in, local float *scratch, global float *out)
{
	size_t g = get_global_id(0), n = get_global_size(0);
	in[g] = g;
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[g] = in[(g + 1) % n];
}

/* divergence_barrier.log: half of each group skips the barrier. */
kernel void half_barrier(global float *in, local float *scratch, global float *out)
{
	size_t l = get_local_id(0);
	scratch[l] = in[get_global_id(0)];
	if (l < 16)
		barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = scratch[l];
}

/* divergence_two_barriers.log: odd and even items wait at different barriers. */
kernel void two_barriers(global float *in, local float *scratch, global float *out)
{
	size_t l = get_local_id(0);
	scratch[l] = in[l];
	if (l % 2)
		barrier(CLK_LOCAL_MEM_FENCE);
	else
		barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = scratch[l];
}

/* oob_global_read.log: the last item reads one past the end. */
kernel void read_next(global float *in, local float *scratch, global float *out)
{
	size_t g = get_global_id(0);
	out[g] = in[g + 1];
}

/* private_index.log: a private array of 4 indexed up to 7. */
kernel void private_past_end(global float *in, local float *scratch, global float *out)
{
	float p[4];
	for (int i = 0; i < 4; i++)
		p[i] = i;
	size_t g = get_global_id(0);
	out[g] = p[g % 8];
}

/* uninit_suppressed.log (OCLGRIND_MAX_ERRORS=3): branching on local memory never written. */
kernel void branch_on_unset(global float *in, local float *scratch, global float *out)
{
	size_t l = get_local_id(0);
	if (scratch[l] > 0)
		out[get_global_id(0)] = 1;
	else
		out[get_global_id(0)] = 2;
}

/* fatal_unreachable.log (built without -cl-opt-disable): Oclgrind 21.10 stops at an
 * unreachable instruction the optimiser leaves behind. */
int pick(int k)
{
	switch (k & 3) {
	case 0: return 1;
	case 1: return 2;
	case 2: return 3;
	case 3: return 4;
	}
	__builtin_unreachable();
}
kernel void switch_table(global float *in, local float *scratch, global float *out)
{
	size_t g = get_global_id(0);
	out[g] = in[g] * pick(g);
}

/* race_local_rw.log is kernels/reduce/halving_nobarrier.cl at global 256, local 32.
 * api_error.stderr: Oclgrind prints API errors to stderr, not to its log; these come
 * from clSetKernelArg given a 3-byte buffer argument, then a launch of global 60 with
 * local 16. */
