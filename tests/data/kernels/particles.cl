/* particles.cl - buffers of structs and a struct passed by value, used by the harness's
 * own tests. A particle is 32 bytes: pos at 0, mass at 16, then padding to float4's
 * alignment. */
typedef struct {
	float4 pos;
	float mass;
} particle;

struct params {
	float scale;
	int shift;
};

__kernel void scale_particles(__global const particle *in, __global particle *out,
			      struct params p)
{
	size_t i = get_global_id(0);
	out[i].pos = in[i].pos * p.scale;
	out[i].mass = in[i].mass + p.shift;
}

__kernel void scale_particles_serial(__global const particle *in, __global particle *out,
				     struct params p)
{
	for (size_t i = 0; i < get_global_size(0) * 64; i++) {
		out[i].pos = in[i].pos * p.scale;
		out[i].mass = in[i].mass + p.shift;
	}
}

/* Forgets the shift: a reference with a mistake in one field. */
__kernel void scale_particles_wrong(__global const particle *in, __global particle *out,
				    struct params p)
{
	for (size_t i = 0; i < get_global_size(0) * 64; i++) {
		out[i].pos = in[i].pos * p.scale;
		out[i].mass = in[i].mass;
	}
}

/* Writes what it reads of a struct passed by value, to check the struct's layout against
 * known values; `expect` is never read. */
__kernel void echo_params(__global const float *expect, __global float *out, struct params p)
{
	out[get_global_id(0)] = p.scale * 1000 + p.shift;
}

__kernel void mass_of(__global const particle *in, __global float *mass)
{
	size_t i = get_global_id(0);
	mass[i] = in[i].mass;
}
