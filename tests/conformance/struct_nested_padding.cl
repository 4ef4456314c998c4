/* struct_nested_padding.cl - a nested struct whose size pads it (int then char: 8 bytes),
 * so the char after it sits at byte 8, where flattening the fields alone would put it at
 * byte 5: the buffer holds 12 bytes an element, or the last element's writes would run past
 * its end, which the guard zone and the simulator would both report.
 */
struct inner {
	int a;
	char c;
};
struct outer {
	struct inner in;
	char d;
};

kernel void pad(global struct outer *os)
{
	size_t i = get_global_id(0);
	os[i].in.a = (int)i;
	os[i].in.c = 1;
	os[i].d = 2;
}

/* What tests/conformance_judge runs and expects:
 * check: --device pocl,oclgrind --kernel pad --global 16 --local 4
 */
