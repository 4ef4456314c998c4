/* struct_packed.cl - a buffer of packed structs, a char then a float at byte 1: laid out
 * as the device lays it out, five bytes each, or the float would read the wrong bytes and
 * the kernel fault.
 */
typedef struct __attribute__((packed)) {
	char tag;
	float value;
} packed_t;

kernel void p(global packed_t *ps)
{
	size_t i = get_global_id(0);
	ps[i].value += (float)ps[i].tag;
}

/* What tests/conformance_judge runs and expects:
 * check: --device pocl,oclgrind --kernel p --global 16 --local 4
 */
