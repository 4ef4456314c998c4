/* struct_nested_with_arrays.cl - a struct of a struct with an array, an int and an array
 * whose length and element type come from a macro and a typedef, spaced oddly: by value
 * and in a buffer, each field where the device puts it.
 */
#define NW 4
typedef float weight_t;
struct inner {
	int a;
	float b[3];
};
struct outer { struct inner in; int   count ; weight_t  weights [ NW ]; };

kernel void nested(global struct outer *os, struct outer o, global float *out)
{
	size_t i = get_global_id(0);
	out[i] = os[i].in.b[2] + (float)os[i].count + o.weights[3] + (float)o.in.a;
}

/* What tests/conformance_judge runs and expects:
 * check: --device pocl,oclgrind --kernel nested --global 16 --local 4
 */
