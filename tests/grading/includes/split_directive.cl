/* Hides the directive behind a comment and a line continuation. */
/* a comment */ # /* another */ inc\
lude "/etc/passwd"
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out) {}
