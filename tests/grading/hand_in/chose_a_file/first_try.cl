/* A first try the student kept beside the kernel handed in: it defines no kernel the
 * assignment asks for, so the other file is graded, with a note. */
int add_pair(int a, int b)
{
	return a + b;
}
