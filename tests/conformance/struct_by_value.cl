/* struct_by_value.cl - a struct parameter by value and a buffer of structs.
 */
typedef struct {
	float4 pos;
	float mass;
} particle;
struct params {
	float dt;
	int steps;
};
kernel void move(global particle *ps, struct params p)
{
	size_t i = get_global_id(0);
	ps[i].pos += (float4)(p.dt * (float)p.steps * ps[i].mass);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel move --global 16 --local 4
 */
