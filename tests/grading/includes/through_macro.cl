/* Names the file through a macro, which no reading short of the compiler's can check. */
#define STOLEN "/etc/hostname"
#include STOLEN
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out) {}
