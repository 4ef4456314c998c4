/* A kernel that does not compile: the harness must report build-error with the log. */
kernel void broken(global int *out)
{
	out[get_global_id(0)] = undeclared_name;
}
