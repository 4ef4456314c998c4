kernel void broken(global int *p)
{
	p[0] = q;
}
