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
 * second through a sub-buffer and its parent, two views that share bytes; with
 * "heavy", launches 4096 items that each loop long; with
 * "include DIR", builds a kernel whose header is in DIR with -I DIR; with
 * "square", sums L x L items, so that the block sums are as many as a group's items; with
 * "twice", passes one buffer as a kernel's read-only and its written argument; with
 * "unreplayable", launches what no case can hold (an image, a sampler, a shared virtual
 * memory pointer, a program made from a binary) and exits 0. */
#ifndef CL_TARGET_OPENCL_VERSION /* shared virtual memory is OpenCL 2.0's */
#define CL_TARGET_OPENCL_VERSION 200
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, clCreateSampler */
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
	"}\n"
	"kernel void double_from(global const int *from, global int *to)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	to[i] = from[i] * 2;\n"
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

/* A kernel whose program includes a header from the folder `dir`, built with -I dir. */
static int with_header(cl_context context, cl_device_id device, cl_command_queue queue,
		       const char *dir)
{
	static const char *header_source = "#include \"scale_factor.h\"\n"
					   "kernel void times(global int *a)\n"
					   "{\n"
					   "	a[get_global_id(0)] *= SCALE_FACTOR;\n"
					   "}\n";
	char options[4096];
	snprintf(options, sizeof options, "-I %s", dir);
	cl_int err;
	cl_program program = clCreateProgramWithSource(context, 1, &header_source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, options, NULL, NULL));
	int values[64];
	for (int i = 0; i < 64; i++)
		values[i] = i;
	cl_mem a = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof values, values, &err);
	CHECK(err);
	cl_kernel times = clCreateKernel(program, "times", &err);
	CHECK(err);
	CHECK(clSetKernelArg(times, 0, sizeof a, &a));
	size_t global = 64, local = 16;
	CHECK(clEnqueueNDRangeKernel(queue, times, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL));
	printf("race_host: a[1] is %d\n", values[1]);
	return values[1] == 6 ? 0 : 1;
}

/* A launch of 4096 items, each looping long: cheap on a device, too costly for the
 * simulator to replay whole. */
static int heavy(cl_context context, cl_device_id device, cl_command_queue queue)
{
	static const char *heavy_source =
		"kernel void heavy(global const float *in, global float *out, uint n)\n"
		"{\n"
		"	size_t i = get_global_id(0);\n"
		"	float acc = 0;\n"
		"	for (int k = 0; k < 3000; k++)\n"
		"		acc += in[(i + k) % n] * 0.5f;\n"
		"	out[i] = acc;\n"
		"}\n";
	enum { ITEMS = 4096 };
	cl_int err;
	cl_program program = clCreateProgramWithSource(context, 1, &heavy_source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
	static float values[ITEMS];
	for (int i = 0; i < ITEMS; i++)
		values[i] = (float)(i % 5);
	cl_mem in = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof values, values, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof values, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(program, "heavy", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof in, &in));
	CHECK(clSetKernelArg(k, 1, sizeof out, &out));
	cl_uint n = ITEMS;
	CHECK(clSetKernelArg(k, 2, sizeof n, &n));
	size_t global = ITEMS, local = 64;
	CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clFinish(queue));
	return 0;
}

/* Launches a capture must say it cannot replay, each once. */
static int unreplayable(cl_context context, cl_device_id device, cl_command_queue queue)
{
	static const char *image_source =
		"kernel void brighten(read_only image2d_t img, global float *out)\n"
		"{\n"
		"	int x = get_global_id(0);\n"
		"	out[x] = read_imagef(img, (int2)(x, 0)).x * 2.0f;\n"
		"}\n"
		"kernel void sample(sampler_t s, read_only image2d_t img, global float *out)\n"
		"{\n"
		"	int x = get_global_id(0);\n"
		"	out[x] = read_imagef(img, s, (int2)(x, 0)).x;\n"
		"}\n"
		"kernel void bump(global int *p)\n"
		"{\n"
		"	p[get_global_id(0)] += 1;\n"
		"}\n";
	enum { W = 64 };
	cl_int err;
	cl_program program = clCreateProgramWithSource(context, 1, &image_source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
	float pixels[W];
	for (int i = 0; i < W; i++)
		pixels[i] = (float)i;
	cl_image_format format = { CL_R, CL_FLOAT };
	cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
			       .image_height = 1 };
	cl_mem img = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
				   pixels, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, W * sizeof(float), NULL, &err);
	CHECK(err);
	cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST,
					     &err);
	CHECK(err);
	size_t global = W;

	cl_kernel brighten = clCreateKernel(program, "brighten", &err);
	CHECK(err);
	CHECK(clSetKernelArg(brighten, 0, sizeof img, &img));
	CHECK(clSetKernelArg(brighten, 1, sizeof out, &out));
	CHECK(clEnqueueNDRangeKernel(queue, brighten, 1, NULL, &global, NULL, 0, NULL, NULL));

	cl_kernel sample = clCreateKernel(program, "sample", &err);
	CHECK(err);
	CHECK(clSetKernelArg(sample, 0, sizeof sampler, &sampler));
	CHECK(clSetKernelArg(sample, 1, sizeof img, &img));
	CHECK(clSetKernelArg(sample, 2, sizeof out, &out));
	CHECK(clEnqueueNDRangeKernel(queue, sample, 1, NULL, &global, NULL, 0, NULL, NULL));

	int *shared = clSVMAlloc(context, CL_MEM_READ_WRITE, W * sizeof(int), 0);
	if (shared == NULL) {
		fprintf(stderr, "race_host: clSVMAlloc failed\n");
		return 1;
	}
	CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, shared, W * sizeof(int), 0, NULL, NULL));
	for (int i = 0; i < W; i++)
		shared[i] = i;
	CHECK(clEnqueueSVMUnmap(queue, shared, 0, NULL, NULL));
	cl_kernel bump = clCreateKernel(program, "bump", &err);
	CHECK(err);
	CHECK(clSetKernelArgSVMPointer(bump, 0, shared));
	CHECK(clEnqueueNDRangeKernel(queue, bump, 1, NULL, &global, NULL, 0, NULL, NULL));

	/* The same program again, from the binary the driver made of it. */
	size_t binary_size;
	CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof binary_size, &binary_size,
			       NULL));
	unsigned char *binary = malloc(binary_size);
	CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
	const unsigned char *binaries[] = { binary };
	cl_program from_binary =
		clCreateProgramWithBinary(context, 1, &device, &binary_size, binaries, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(from_binary, 1, &device, "", NULL, NULL));
	cl_mem ints = clCreateBuffer(context, CL_MEM_READ_WRITE, W * sizeof(int), NULL, &err);
	CHECK(err);
	cl_kernel bump_binary = clCreateKernel(from_binary, "bump", &err);
	CHECK(err);
	CHECK(clSetKernelArg(bump_binary, 0, sizeof ints, &ints));
	CHECK(clEnqueueNDRangeKernel(queue, bump_binary, 1, NULL, &global, NULL, 0, NULL, NULL));
	CHECK(clFinish(queue));
	printf("race_host: launched an image, a sampler, shared memory and a binary\n");
	clSVMFree(context, shared);
	free(binary);
	return 0;
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
	if (argc > 1 && strcmp(argv[1], "unreplayable") == 0)
		return unreplayable(context, device, queue);
	if (argc > 2 && strcmp(argv[1], "include") == 0)
		return with_header(context, device, queue, argv[2]);
	if (argc > 1 && strcmp(argv[1], "heavy") == 0)
		return heavy(context, device, queue);
	cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, "-DFACTOR=2", NULL, NULL));

	enum { L = 64 };
	size_t N = argc > 1 && strcmp(argv[1], "big") == 0	 ? 65536
		   : argc > 1 && strcmp(argv[1], "square") == 0 ? (size_t)L * L
								 : 1024;
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

	if (argc > 1 && strcmp(argv[1], "twice") == 0) {
		/* One buffer as a kernel's read-only first argument and its written second. */
		cl_kernel twice = clCreateKernel(program, "double_from", &err);
		CHECK(err);
		CHECK(clSetKernelArg(twice, 0, sizeof ints, &ints));
		CHECK(clSetKernelArg(twice, 1, sizeof ints, &ints));
		CHECK(clEnqueueNDRangeKernel(queue, twice, 1, NULL, &global, &local, 0, NULL, NULL));
		CHECK(clFinish(queue));
		return 0;
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
