/* barrier_in_loop_uneven_trips.cl - a barrier inside a loop whose trip count depends on
 * the work-item: items leave the loop at different barriers.
 */
kernel void steps(global int *x)
{
	size_t lid = get_local_id(0);
	for (size_t k = 0; k < lid % 3; k++) {
		x[get_global_id(0)] += 1;
		barrier(CLK_GLOBAL_MEM_FENCE);
	}
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel steps --global 16 --local 8
 * expect: error barrier-divergence barrier 9
 */
