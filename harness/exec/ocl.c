/* ocl.c - OpenCL plumbing: error names, info queries, devices. */
#include "config.h"

#include "exec/ocl.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "exec/devname.h"

const char *ocl_error_name(cl_int err)
{
	switch (err) {
#define NAME(code)                                                                                 \
	case code:                                                                                 \
		return #code;
		NAME(CL_SUCCESS)
		NAME(CL_DEVICE_NOT_FOUND)
		NAME(CL_DEVICE_NOT_AVAILABLE)
		NAME(CL_COMPILER_NOT_AVAILABLE)
		NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
		NAME(CL_OUT_OF_RESOURCES)
		NAME(CL_OUT_OF_HOST_MEMORY)
		NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
		NAME(CL_MEM_COPY_OVERLAP)
		NAME(CL_IMAGE_FORMAT_MISMATCH)
		NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
		NAME(CL_BUILD_PROGRAM_FAILURE)
		NAME(CL_MAP_FAILURE)
		NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
		NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
		NAME(CL_COMPILE_PROGRAM_FAILURE)
		NAME(CL_LINKER_NOT_AVAILABLE)
		NAME(CL_LINK_PROGRAM_FAILURE)
		NAME(CL_DEVICE_PARTITION_FAILED)
		NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
		NAME(CL_INVALID_VALUE)
		NAME(CL_INVALID_DEVICE_TYPE)
		NAME(CL_INVALID_PLATFORM)
		NAME(CL_INVALID_DEVICE)
		NAME(CL_INVALID_CONTEXT)
		NAME(CL_INVALID_QUEUE_PROPERTIES)
		NAME(CL_INVALID_COMMAND_QUEUE)
		NAME(CL_INVALID_HOST_PTR)
		NAME(CL_INVALID_MEM_OBJECT)
		NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
		NAME(CL_INVALID_IMAGE_SIZE)
		NAME(CL_INVALID_SAMPLER)
		NAME(CL_INVALID_BINARY)
		NAME(CL_INVALID_BUILD_OPTIONS)
		NAME(CL_INVALID_PROGRAM)
		NAME(CL_INVALID_PROGRAM_EXECUTABLE)
		NAME(CL_INVALID_KERNEL_NAME)
		NAME(CL_INVALID_KERNEL_DEFINITION)
		NAME(CL_INVALID_KERNEL)
		NAME(CL_INVALID_ARG_INDEX)
		NAME(CL_INVALID_ARG_VALUE)
		NAME(CL_INVALID_ARG_SIZE)
		NAME(CL_INVALID_KERNEL_ARGS)
		NAME(CL_INVALID_WORK_DIMENSION)
		NAME(CL_INVALID_WORK_GROUP_SIZE)
		NAME(CL_INVALID_WORK_ITEM_SIZE)
		NAME(CL_INVALID_GLOBAL_OFFSET)
		NAME(CL_INVALID_EVENT_WAIT_LIST)
		NAME(CL_INVALID_EVENT)
		NAME(CL_INVALID_OPERATION)
		NAME(CL_INVALID_GL_OBJECT)
		NAME(CL_INVALID_BUFFER_SIZE)
		NAME(CL_INVALID_MIP_LEVEL)
		NAME(CL_INVALID_GLOBAL_WORK_SIZE)
		NAME(CL_INVALID_PROPERTY)
		NAME(CL_INVALID_IMAGE_DESCRIPTOR)
		NAME(CL_INVALID_COMPILER_OPTIONS)
		NAME(CL_INVALID_LINKER_OPTIONS)
		NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef NAME
	case -1001:
		return "CL_PLATFORM_NOT_FOUND_KHR";
	}
	return "an unknown OpenCL error";
}

/* One string property of a platform, a device, or a program's build on a device. */
struct info_query {
	cl_platform_id platform;
	cl_device_id device;
	cl_program program;
	cl_uint param;
	bool of_program; /* the program's own property, not its build's on a device */
};

static cl_int query(const struct info_query *q, size_t size, void *value, size_t *needed)
{
	if (q->program && q->of_program)
		return clGetProgramInfo(q->program, q->param, size, value, needed);
	if (q->program)
		return clGetProgramBuildInfo(q->program, q->device, q->param, size, value, needed);
	if (q->device)
		return clGetDeviceInfo(q->device, q->param, size, value, needed);
	return clGetPlatformInfo(q->platform, q->param, size, value, needed);
}

/* The two-call size query: ask for the size, then for the string. */
static char *query_string(const struct info_query *q, cl_int *err)
{
	size_t size = 0;
	*err = query(q, 0, NULL, &size);
	if (*err != CL_SUCCESS)
		return NULL;
	char *s = xcalloc(size + 1, 1);
	*err = query(q, size, s, NULL);
	if (*err != CL_SUCCESS) {
		free(s);
		return NULL;
	}
	return s;
}

char *ocl_platform_string(cl_platform_id platform, cl_platform_info param, cl_int *err)
{
	return query_string(&(struct info_query){ .platform = platform, .param = param }, err);
}

char *ocl_program_string(cl_program program, cl_program_info param, cl_int *err)
{
	return query_string(
		&(struct info_query){ .program = program, .param = param, .of_program = true }, err);
}

char *ocl_device_string(cl_device_id device, cl_device_info param, cl_int *err)
{
	return query_string(&(struct info_query){ .device = device, .param = param }, err);
}

char *ocl_build_log(cl_program program, cl_device_id device)
{
	cl_int err;
	char *log = query_string(&(struct info_query){ .program = program,
						       .device = device,
						       .param = CL_PROGRAM_BUILD_LOG },
				 &err);
	if (log == NULL)
		return xstrdup("(no build log)");
	/* Drivers pad logs with blank lines; trailing whitespace only spaces out reports. */
	size_t len = strlen(log);
	while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' ' || log[len - 1] == '\r'))
		log[--len] = '\0';
	return log;
}

/* CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, an OpenCL 3.0 query: the harness builds
 * against 1.2 so that it runs on every 1.2 driver. */
#define DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT 0x1065

/* OpenCL 2.x launches non-uniform work-groups for programs built as CL2.0; 3.0 leaves
 * them optional and says so in a query a 1.2 or 2.x driver may not answer. */
static unsigned non_uniform_std(cl_device_id device, const char *version)
{
	int major = 0, minor = 0;
	if (version == NULL || sscanf(version, "OpenCL %d.%d", &major, &minor) != 2)
		return 0;
	if (major == 2)
		return 20;
	cl_bool supported = CL_FALSE;
	if (major >= 3 && clGetDeviceInfo(device, DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
					  sizeof supported, &supported, NULL) == CL_SUCCESS &&
	    supported)
		return 30;
	return 0;
}

static const char *type_word(cl_device_type type)
{
	if (type & CL_DEVICE_TYPE_GPU)
		return "gpu";
	if (type & CL_DEVICE_TYPE_CPU)
		return "cpu";
	if (type & CL_DEVICE_TYPE_ACCELERATOR)
		return "accelerator";
	return "custom";
}

/* Fills one target from its device; returns the failing error code or CL_SUCCESS. */
static cl_int describe(cl_platform_id platform, cl_device_id device, struct target *t)
{
	cl_int err;
	char *vendor = ocl_platform_string(platform, CL_PLATFORM_VENDOR, &err);
	char *pname = ocl_platform_string(platform, CL_PLATFORM_NAME, &err);
	char *pversion = ocl_platform_string(platform, CL_PLATFORM_VERSION, &err);
	cl_device_type type = 0;
	cl_uint units = 0;
	size_t max_wg = 0;
	cl_ulong local_mem = 0, global_mem = 0, max_alloc = 0, max_constant = 0;
	cl_uint max_constant_args = 0;
	cl_device_fp_config fp64 = 0;

	/* The device's fixed-size limits, read in one table-driven loop. */
	const struct {
		cl_device_info param;
		void *value;
		size_t size;
	} limits[] = {
		{ CL_DEVICE_TYPE, &type, sizeof type },
		{ CL_DEVICE_MAX_COMPUTE_UNITS, &units, sizeof units },
		{ CL_DEVICE_MAX_WORK_GROUP_SIZE, &max_wg, sizeof max_wg },
		{ CL_DEVICE_LOCAL_MEM_SIZE, &local_mem, sizeof local_mem },
		{ CL_DEVICE_GLOBAL_MEM_SIZE, &global_mem, sizeof global_mem },
		{ CL_DEVICE_MAX_MEM_ALLOC_SIZE, &max_alloc, sizeof max_alloc },
		{ CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, &max_constant, sizeof max_constant },
		{ CL_DEVICE_MAX_CONSTANT_ARGS, &max_constant_args, sizeof max_constant_args },
	};
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		err = clGetDeviceInfo(device, limits[i].param, limits[i].size, limits[i].value,
				      NULL);
		if (err != CL_SUCCESS)
			break;
	}
	t->device = ocl_device_string(device, CL_DEVICE_NAME, &err);
	t->driver = ocl_device_string(device, CL_DRIVER_VERSION, &err);
	t->opencl = ocl_device_string(device, CL_DEVICE_VERSION, &err);
	t->type = xstrdup(type_word(type));
	t->platform = xasprintf("%s (%s)", pname ? pname : "?", pversion ? pversion : "?");
	t->name = devname_short(vendor, pname, t->device, t->type);
	/* A device may have more than three dimensions; the harness launches at most three. */
	size_t items[16] = { 0 };
	clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
	/* OpenCL 1.2 makes double optional: a device without it may refuse the query. */
	clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
	cl_int ext_err;
	char *extensions = ocl_device_string(device, CL_DEVICE_EXTENSIONS, &ext_err);
	t->limits = (struct device_limits){
		.compute_units = units,
		.max_work_group = max_wg,
		.max_work_item = { items[0], items[1], items[2] },
		.local_mem = local_mem,
		.global_mem = global_mem,
		.max_alloc = max_alloc,
		.max_constant = max_constant,
		.max_constant_args = max_constant_args,
		.fp64 = fp64 != 0,
		.fp16 = extensions && strstr(extensions, "cl_khr_fp16") != NULL,
		/* Oclgrind says OpenCL 1.2 of its API, yet builds OpenCL C 2.0 and then
		 * launches a smaller last work-group as a 2.x device does. */
		.non_uniform_std = pname && strstr(pname, "Oclgrind")
					   ? 20
					   : non_uniform_std(device, t->opencl),
	};
	free(extensions);
	free(vendor);
	free(pname);
	free(pversion);
	if (t->device == NULL)
		t->device = xstrdup("?");
	if (t->driver == NULL)
		t->driver = xstrdup("?");
	if (t->opencl == NULL)
		t->opencl = xstrdup("?");
	return CL_SUCCESS;
}

int ocl_list_targets(int (*keep)(const char *platform_name), struct target **targets, size_t *count,
		     char **cause)
{
	*targets = NULL;
	*count = 0;
	cl_uint nplatforms = 0;
	cl_int err = clGetPlatformIDs(0, NULL, &nplatforms);
	if (err == -1001 || nplatforms == 0) /* CL_PLATFORM_NOT_FOUND_KHR: no ICD installed */
		return 0;
	if (err != CL_SUCCESS) {
		*cause = xasprintf("clGetPlatformIDs: %s (%d)", ocl_error_name(err), err);
		return -1;
	}
	cl_platform_id *platforms = xcalloc(nplatforms, sizeof *platforms);
	clGetPlatformIDs(nplatforms, platforms, NULL);

	for (cl_uint p = 0; p < nplatforms; p++) {
		char *pname = ocl_platform_string(platforms[p], CL_PLATFORM_NAME, &err);
		bool wanted = keep == NULL || keep(pname ? pname : "");
		free(pname);
		if (!wanted)
			continue;
		cl_uint ndevices = 0;
		err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndevices);
		if (err == CL_DEVICE_NOT_FOUND || ndevices == 0)
			continue;
		if (err != CL_SUCCESS)
			continue;
		cl_device_id *devices = xcalloc(ndevices, sizeof *devices);
		clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ndevices, devices, NULL);
		for (cl_uint d = 0; d < ndevices; d++) {
			*targets = xreallocarray(*targets, *count + 1, sizeof **targets);
			struct target *t = &(*targets)[(*count)++];
			*t = (struct target){ .platform_index = p, .device_index = d };
			describe(platforms[p], devices[d], t);
		}
		free(devices);
	}
	free(platforms);

	/* Two identical cards get the same model name: number the later ones in the ICD
	 * loader's order, which is stable while the installed drivers are. */
	char **base = xcalloc(*count ? *count : 1, sizeof *base);
	for (size_t i = 0; i < *count; i++)
		base[i] = xstrdup((*targets)[i].name);
	for (size_t i = 0; i < *count; i++) {
		int seen = 0;
		for (size_t j = 0; j < i; j++)
			seen += strcmp(base[j], base[i]) == 0;
		if (seen > 0) {
			free((*targets)[i].name);
			(*targets)[i].name = xasprintf("%s-%d", base[i], seen);
		}
	}
	for (size_t i = 0; i < *count; i++)
		free(base[i]);
	free(base);
	return 0;
}

int ocl_find_target(const struct target *t, cl_platform_id *platform, cl_device_id *device,
		    char **cause)
{
	cl_uint nplatforms = 0;
	cl_int err = clGetPlatformIDs(0, NULL, &nplatforms);
	if (err != CL_SUCCESS || t->platform_index >= nplatforms) {
		*cause = xasprintf("platform %u of %s is gone (%s (%d))", t->platform_index,
				   t->name, ocl_error_name(err), err);
		return -1;
	}
	cl_platform_id *platforms = xcalloc(nplatforms, sizeof *platforms);
	clGetPlatformIDs(nplatforms, platforms, NULL);
	*platform = platforms[t->platform_index];
	free(platforms);

	cl_uint ndevices = 0;
	err = clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 0, NULL, &ndevices);
	if (err != CL_SUCCESS || t->device_index >= ndevices) {
		*cause = xasprintf("device %u of %s is gone (%s (%d))", t->device_index, t->name,
				   ocl_error_name(err), err);
		return -1;
	}
	cl_device_id *devices = xcalloc(ndevices, sizeof *devices);
	clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, ndevices, devices, NULL);
	*device = devices[t->device_index];
	free(devices);

	char *name = ocl_device_string(*device, CL_DEVICE_NAME, &err);
	int ok = name && strcmp(name, t->device) == 0;
	free(name);
	if (!ok) {
		*cause = xasprintf("device %s is no longer where it was listed", t->name);
		return -1;
	}
	return 0;
}
