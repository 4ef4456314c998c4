/* A segmented scan, one segment per column of a row-major matrix: item c walks down column
 * c adding as it goes. Neighbouring items read neighbouring columns of the same row, so
 * each row is read in one coalesced sweep; the columns are independent and need no
 * barrier. */
kernel void scan_columns(global const int *in, global int *out, uint rows, uint columns)
{
	size_t c = get_global_id(0);
	int sum = 0;

	if (c >= columns)
		return;
	for (size_t r = 0; r < rows; r++) {
		sum += in[r * columns + c];
		out[r * columns + c] = sum;
	}
}
