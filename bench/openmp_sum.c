/* openmp_sum.c - the CPU's own figure for bench/openmp-compare: a float sum of N
 * elements by OpenMP over every core (a reduction clause, each thread a contiguous
 * share), the median of 10 timed rounds after a warm-up, as GB/s of the N floats read.
 * Prints "sum N GB/s" lines. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		long n = atol(argv[a]);
		float *x = malloc((size_t)n * sizeof *x);
		if (x == NULL)
			return 2;
#pragma omp parallel for
		for (long i = 0; i < n; i++)
			x[i] = (float)(i % 17) - 8.0f;
		double ms[11];
		volatile float sink = 0;
		for (int r = 0; r < 11; r++) {
			double t0 = omp_get_wtime();
			float sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
			for (long i = 0; i < n; i++)
				sum += x[i];
			ms[r] = (omp_get_wtime() - t0) * 1e3;
			sink += sum;
		}
		qsort(ms + 1, 10, sizeof *ms, compare); /* round 0 is the warm-up */
		double median = (ms[5] + ms[6]) / 2;
		printf("sum %ld %.2f\n", n, n * 4.0 / (median * 1e-3) / 1e9);
		free(x);
	}
	return 0;
}
