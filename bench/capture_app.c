/* capture_app.c - an OpenCL application for tools/bench-capture: heat spreading along a
 * rod, relaxed on three grids (N, N/2, N/4 points) as a multigrid solver visits them,
 * with a work-group reduction of the largest change every tenth step, read back to
 * decide whether to go on. Its kernels move 2 * 4 bytes a point a step; at the default
 * N = 4194304 and 100 steps a grid that is about 5.9 GB.
 * Usage: capture_app [N] [STEPS]   (N a multiple of 256) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
	"kernel void relax(global const float *from, global float *to, uint n, float alpha)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float left = i > 0 ? from[i - 1] : from[i];\n"
	"	float right = i + 1 < n ? from[i + 1] : from[i];\n"
	"	to[i] = from[i] + alpha * (left - 2.0f * from[i] + right);\n"
	"}\n"
	"kernel void largest_change(global const float *a, global const float *b,\n"
	"			   global float *largest, local float *s)\n"
	"{\n"
	"	size_t lid = get_local_id(0);\n"
	"	s[lid] = fabs(a[get_global_id(0)] - b[get_global_id(0)]);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t width = get_local_size(0) / 2; width > 0; width /= 2) {\n"
	"		if (lid < width)\n"
	"			s[lid] = fmax(s[lid], s[lid + width]);\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (lid == 0)\n"
	"		largest[get_group_id(0)] = s[0];\n"
	"}\n";

#define CHECK(call)                                                                        \
	do {                                                                               \
		cl_int err_ = (call);                                                      \
		if (err_ != CL_SUCCESS) {                                                  \
			fprintf(stderr, "capture_app: %s failed: %d\n", #call, err_);      \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

enum { L = 256 };

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 4194304;
	int steps = argc > 2 ? atoi(argv[2]) : 100;
	if (n < L || n % (4 * L) != 0 || steps < 1) {
		fprintf(stderr, "usage: capture_app [N] [STEPS]   (N a multiple of %d)\n", 4 * L);
		return 2;
	}
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
	cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
	CHECK(err);
	cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
	cl_kernel relax = clCreateKernel(program, "relax", &err);
	CHECK(err);
	cl_kernel largest_change = clCreateKernel(program, "largest_change", &err);
	CHECK(err);

	float *rod = malloc(n * sizeof *rod), *largest = malloc(n / L * sizeof *largest);
	if (rod == NULL || largest == NULL)
		return 1;
	double total = 0;
	for (int level = 0; level < 3; level++) {
		size_t points = n >> level;
		for (size_t i = 0; i < points; i++) /* a hot middle, cold ends */
			rod[i] = (float)(i > points / 4 && i < 3 * points / 4 ? 100 : 0);
		cl_mem a = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, points * sizeof *rod, rod,
					  &err);
		CHECK(err);
		cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, points * sizeof *rod, NULL,
					  &err);
		CHECK(err);
		cl_mem change = clCreateBuffer(context, CL_MEM_WRITE_ONLY,
					       points / L * sizeof *largest, NULL, &err);
		CHECK(err);
		cl_uint count = (cl_uint)points;
		float alpha = 0.25f;
		size_t global = points, local = L;
		float worst = 0;
		cl_mem latest = a;
		int step;
		for (step = 0; step < steps; step++) {
			cl_mem from = step % 2 ? b : a, to = step % 2 ? a : b;
			CHECK(clSetKernelArg(relax, 0, sizeof from, &from));
			CHECK(clSetKernelArg(relax, 1, sizeof to, &to));
			CHECK(clSetKernelArg(relax, 2, sizeof count, &count));
			CHECK(clSetKernelArg(relax, 3, sizeof alpha, &alpha));
			CHECK(clEnqueueNDRangeKernel(queue, relax, 1, NULL, &global, &local, 0, NULL,
						     NULL));
			latest = to;
			if (step % 10 != 9)
				continue;
			CHECK(clSetKernelArg(largest_change, 0, sizeof from, &from));
			CHECK(clSetKernelArg(largest_change, 1, sizeof to, &to));
			CHECK(clSetKernelArg(largest_change, 2, sizeof change, &change));
			CHECK(clSetKernelArg(largest_change, 3, L * sizeof(float), NULL));
			CHECK(clEnqueueNDRangeKernel(queue, largest_change, 1, NULL, &global, &local,
						     0, NULL, NULL));
			CHECK(clEnqueueReadBuffer(queue, change, CL_TRUE, 0,
						  points / L * sizeof *largest, largest, 0, NULL,
						  NULL));
			worst = 0;
			for (size_t g = 0; g < points / L; g++)
				worst = fmaxf(worst, largest[g]);
			if (worst < 1e-3f)
				break;
		}
		CHECK(clEnqueueReadBuffer(queue, latest, CL_TRUE, 0,
					  points * sizeof *rod, rod, 0, NULL, NULL));
		for (size_t i = 0; i < points; i++)
			total += rod[i];
		printf("capture_app: grid of %zu points, %d steps, last largest change %g\n", points,
		       step < steps ? step + 1 : steps, (double)worst);
		clReleaseMemObject(a);
		clReleaseMemObject(b);
		clReleaseMemObject(change);
	}
	printf("capture_app: heat on the three grids %.6g\n", total);
	free(rod);
	free(largest);
	clReleaseKernel(relax);
	clReleaseKernel(largest_change);
	clReleaseProgram(program);
	clReleaseCommandQueue(queue);
	clReleaseContext(context);
	return 0;
}
