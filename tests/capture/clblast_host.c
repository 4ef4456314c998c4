/* clblast_host.c - a small program calling CLBlast's SGEMM, for tests/capture.sh: its
 * kernels come with many -D options and 2-D launches. C = A * B for 64 x 64 matrices of
 * small whole numbers (so every sum is exact), on the first device of the first platform
 * (PoCL in make check). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	enum { M = 64, N = 64, K = 64 };
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
	    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
		fprintf(stderr, "clblast_host: no OpenCL device\n");
		return 1;
	}
	cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
	float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b),
	      *c = calloc(M * N, sizeof *c);
	for (int i = 0; i < M * K; i++)
		a[i] = (float)(i % 5);
	for (int i = 0; i < K * N; i++)
		b[i] = (float)(i % 3);
	cl_mem da = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, M * K * sizeof *a, a, &err);
	cl_mem db = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, K * N * sizeof *b, b, &err);
	cl_mem dc = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, M * N * sizeof *c, c, &err);
	cl_event event = NULL;
	CLBlastStatusCode status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
						CLBlastTransposeNo, M, N, K, 1.0f, da, 0, K, db, 0,
						N, 0.0f, dc, 0, N, &queue, &event);
	if (status != CLBlastSuccess) {
		fprintf(stderr, "clblast_host: CLBlastSgemm failed: %d\n", status);
		return 1;
	}
	clWaitForEvents(1, &event);
	clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, M * N * sizeof *c, c, 0, NULL, NULL);
	float want = 0;
	for (int k = 0; k < K; k++)
		want += a[k] * b[k * N];
	printf("clblast_host: C[0][0] = %g, want %g\n", c[0], want);
	int status_code = c[0] == want ? 0 : 1;
	free(a);
	free(b);
	free(c);
	return status_code;
}
