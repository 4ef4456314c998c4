/* Climbs out of the student's own folder to a classmate's. */
#include "../own_helpers/helpers.h"
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out) {}
