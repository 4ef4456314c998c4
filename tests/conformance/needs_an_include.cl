/* needs_an_include.cl - a kernel whose helper comes from a header in another folder.
 */
#include "scale.h"
kernel void scaled(global float *a)
{
	size_t i = get_global_id(0);
	a[i] = scale(a[i]);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel scaled --global 16 --local 4 -I include
 */
