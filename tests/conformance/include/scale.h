/* scale.h - the helper needs_an_include.cl finds through -I include. */
float scale(float x)
{
	return 2.0f * x;
}
