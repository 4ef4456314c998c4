/* vectors_of_every_width.cl - buffers of 2-, 3-, 4-, 8- and 16-lane vectors, a 3-vector
 * taking the room of four lanes.
 */
kernel void widths(global const char2 *a, global const short3 *b, global const int4 *c,
		   global const long8 *d, global const float16 *e, global double *out)
{
	size_t i = get_global_id(0);
	out[i] = a[i].y + b[i].z + c[i].w + d[i].s7 + e[i].sf;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel widths --global 16 --local 4 --device pocl,oclgrind
 */
