/* race_host.c - an OpenCL application of the harness's own for tests/capture.sh: it
 * scales a vector, sums it in work-group blocks with a kernel whose tree lacks a barrier
 * (a race the replay must find under Oclgrind, at the kernel's own line), and passes the
 * forms a capture must keep: build options with -D, a struct by value, local memory, a
 * sub-buffer, one buffer passed twice, an integer and a float output. Runs on the first
 * device of the first platform (PoCL in make check). Exits 3, so the test sees the exit
 * status passed on; with an argument "abort", dies of SIGABRT after its second launch;
 * with "threads", launches a copy kernel from four threads at once, each with its own
 * queue, kernel and buffers, at sizes of its own; with "big", sums 65536 items in blocks,
 * too many to simulate in time; with "overlap", adds the first half of ints into its
 * second through a sub-buffer and its parent, two views that share bytes. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
	"typedef struct { float scale; int shift; } params;\n"
	"kernel void scale(global const float *in, global float *out, params p)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	out[i] = in[i] * p.scale + p.shift;\n"
	"}\n"
	"kernel void block_sum(global const int *in, global int *sums, local int *s)\n"
	"{\n"
	"	size_t lid = get_local_id(0);\n"
	"	s[lid] = in[get_global_id(0)];\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {\n"
	"		if (lid < stride)\n"
	"			s[lid] += s[lid + stride];\n"
	"	}\n"
	"	if (lid == 0)\n"
	"		sums[get_group_id(0)] = s[0] * FACTOR;\n"
	"}\n"
	"kernel void add_into(global int *a, global const int *b)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	a[i] = a[i] + b[i];\n"
	"}\n";

#define CHECK(call)                                                                        \
	do {                                                                               \
		cl_int err_ = (call);                                                      \
		if (err_ != CL_SUCCESS) {                                                  \
			fprintf(stderr, "race_host: %s failed: %d\n", #call, err_);        \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

struct worker {
	cl_context context;
	cl_device_id device;
	cl_program program;
	size_t items;
	int ok;
};

/* One thread's launches: a copy of its own buffer, four times at its own size. */
static void *copy_from_thread(void *arg)
{
	struct worker *w = arg;
	cl_int err;
	cl_command_queue queue = clCreateCommandQueue(w->context, w->device, 0, &err);
	cl_kernel copy = clCreateKernel(w->program, "copy", &err);
	int *host = malloc(w->items * sizeof *host);
	for (size_t i = 0; i < w->items; i++)
		host[i] = (int)(i * w->items);
	cl_mem from = clCreateBuffer(w->context, CL_MEM_COPY_HOST_PTR, w->items * sizeof *host,
				     host, &err);
	cl_mem to = clCreateBuffer(w->context, CL_MEM_READ_WRITE, w->items * sizeof *host, NULL,
				   &err);
	clSetKernelArg(copy, 0, sizeof to, &to);
	clSetKernelArg(copy, 1, sizeof from, &from);
	for (int r = 0; r < 4; r++)
		clEnqueueNDRangeKernel(queue, copy, 1, NULL, &w->items, NULL, 0, NULL, NULL);
	clEnqueueReadBuffer(queue, to, CL_TRUE, 0, w->items * sizeof *host, host, 0, NULL, NULL);
	w->ok = host[w->items - 1] == (int)((w->items - 1) * w->items);
	clReleaseMemObject(from);
	clReleaseMemObject(to);
	clReleaseKernel(copy);
	clReleaseCommandQueue(queue);
	free(host);
	return NULL;
}

static int threads(cl_context context, cl_device_id device)
{
	static const char *copy_source =
		"kernel void copy(global int *to, global const int *from)\n"
		"{\n"
		"	to[get_global_id(0)] = from[get_global_id(0)];\n"
		"}\n";
	cl_int err;
	cl_program program = clCreateProgramWithSource(context, 1, &copy_source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
	struct worker workers[4];
	pthread_t ids[4];
	for (int t = 0; t < 4; t++) {
		workers[t] = (struct worker){ context, device, program, 256u << t, 0 };
		pthread_create(&ids[t], NULL, copy_from_thread, &workers[t]);
	}
	int ok = 1;
	for (int t = 0; t < 4; t++) {
		pthread_join(ids[t], NULL);
		ok &= workers[t].ok;
	}
	printf("race_host: four threads copied %s\n", ok ? "right" : "wrong");
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
	cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
	CHECK(err);
	if (argc > 1 && strcmp(argv[1], "threads") == 0)
		return threads(context, device);
	cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, "-DFACTOR=2", NULL, NULL));

	enum { L = 64 };
	size_t N = argc > 1 && strcmp(argv[1], "big") == 0 ? 65536 : 1024;
	float *x = malloc(N * sizeof *x);
	int *v = malloc(N * sizeof *v);
	for (size_t i = 0; i < N; i++) {
		x[i] = (float)(i % 17) * 0.25f;
		v[i] = i % 7;
	}
	cl_mem in = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, N * sizeof *x, x, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *x, NULL, &err);
	CHECK(err);
	cl_mem ints = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, N * sizeof *v, v, &err);
	CHECK(err);
	cl_mem sums = clCreateBuffer(context, CL_MEM_READ_WRITE, N / L * sizeof(int), NULL, &err);
	CHECK(err);

	cl_kernel scale = clCreateKernel(program, "scale", &err);
	CHECK(err);
	struct {
		float scale;
		int shift;
	} params = { 1.5f, 2 };
	CHECK(clSetKernelArg(scale, 0, sizeof in, &in));
	CHECK(clSetKernelArg(scale, 1, sizeof out, &out));
	CHECK(clSetKernelArg(scale, 2, sizeof params, &params));
	size_t global = N, local = L;
	/* The same launch twice: one case. */
	for (int r = 0; r < 2; r++)
		CHECK(clEnqueueNDRangeKernel(queue, scale, 1, NULL, &global, &local, 0, NULL, NULL));

	cl_kernel block_sum = clCreateKernel(program, "block_sum", &err);
	CHECK(err);
	CHECK(clSetKernelArg(block_sum, 0, sizeof ints, &ints));
	CHECK(clSetKernelArg(block_sum, 1, sizeof sums, &sums));
	CHECK(clSetKernelArg(block_sum, 2, L * sizeof(int), NULL));
	CHECK(clEnqueueNDRangeKernel(queue, block_sum, 1, NULL, &global, &local, 0, NULL, NULL));
	if (argc > 1 && strcmp(argv[1], "abort") == 0) {
		clFinish(queue);
		abort();
	}

	/* The second half of ints added into itself through a sub-buffer, and a buffer passed
	 * as both arguments. */
	cl_buffer_region half = { N / 2 * sizeof(int), N / 2 * sizeof(int) };
	cl_mem upper = clCreateSubBuffer(ints, 0, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
	CHECK(err);
	cl_kernel add_into = clCreateKernel(program, "add_into", &err);
	CHECK(err);
	size_t half_global = N / 2;
	cl_mem addend = argc > 1 && strcmp(argv[1], "overlap") == 0 ? ints : upper;
	CHECK(clSetKernelArg(add_into, 0, sizeof upper, &upper));
	CHECK(clSetKernelArg(add_into, 1, sizeof addend, &addend));
	CHECK(clEnqueueNDRangeKernel(queue, add_into, 1, NULL, &half_global, &local, 0, NULL, NULL));

	int got[1];
	CHECK(clEnqueueReadBuffer(queue, sums, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
	clReleaseMemObject(upper);
	printf("race_host: first block sum %d\n", got[0]);
	free(x);
	free(v);
	return 3;
}
