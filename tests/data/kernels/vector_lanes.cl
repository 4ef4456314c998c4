/* Two work-items write the two lanes of one float2: no byte is written twice, so no race,
 * as the simulator, which tracks bytes, says, and racecheck, which checks a write of a
 * vector's components as the bytes they take. */
kernel void lanes(global float2 *v)
{
	size_t i = get_global_id(0);
	if (i == 0)
		v[0].x = 1.0f;
	if (i == 1)
		v[0].y = 2.0f;
}
