// cub_bench.cu - the vendor library's own figures for bench/cub-compare: CUB's
// DeviceReduce::Sum and DeviceScan::InclusiveSum over N floats, the median of 10 timed
// rounds after a warm-up, as GB/s of the bytes each must move (a sum reads N floats; a
// scan reads and writes them). Prints "reduce N GB/s" and "scan N GB/s" lines.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                        \
	do {                                                                               \
		cudaError_t e = (call);                                                    \
		if (e != cudaSuccess) {                                                    \
			fprintf(stderr, "cub_bench: %s: %s\n", #call, cudaGetErrorString(e)); \
			exit(2);                                                           \
		}                                                                          \
	} while (0)

__global__ void fill(float *x, size_t n)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = (float)((i * 2654435761u) % 17) - 8.0f;
}

template <typename Run> static double median_ms(Run run)
{
	cudaEvent_t start, stop;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	run(); // warm-up
	std::vector<float> ms(10);
	for (float &t : ms) {
		CHECK(cudaEventRecord(start));
		run();
		CHECK(cudaEventRecord(stop));
		CHECK(cudaEventSynchronize(stop));
		CHECK(cudaEventElapsedTime(&t, start, stop));
	}
	std::sort(ms.begin(), ms.end());
	return (ms[4] + ms[5]) / 2;
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		size_t n = strtoull(argv[a], nullptr, 10);
		float *in, *out;
		CHECK(cudaMalloc(&in, n * sizeof(float)));
		CHECK(cudaMalloc(&out, n * sizeof(float)));
		fill<<<(n + 255) / 256, 256>>>(in, n);
		size_t reduce_bytes = 0, scan_bytes = 0;
		cub::DeviceReduce::Sum(nullptr, reduce_bytes, in, out, (int)n);
		cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, in, out, (int)n);
		void *temp;
		CHECK(cudaMalloc(&temp, std::max(reduce_bytes, scan_bytes)));
		double reduce = median_ms([&] { cub::DeviceReduce::Sum(temp, reduce_bytes, in, out, (int)n); });
		double scan = median_ms([&] { cub::DeviceScan::InclusiveSum(temp, scan_bytes, in, out, (int)n); });
		printf("reduce %zu %.1f\n", n, n * 4.0 / (reduce * 1e-3) / 1e9);
		printf("scan %zu %.1f\n", n, n * 8.0 / (scan * 1e-3) / 1e9);
		CHECK(cudaFree(temp));
		CHECK(cudaFree(in));
		CHECK(cudaFree(out));
	}
	return 0;
}
