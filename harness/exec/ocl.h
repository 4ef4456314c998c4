/* ocl.h - OpenCL plumbing: error names, info queries, devices, program builds. */
#ifndef CLH_OCL_H
#define CLH_OCL_H

#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include "exec/backend.h"

/* The symbolic name of an OpenCL error code, e.g. "CL_BUILD_PROGRAM_FAILURE". The one
 * place error codes become names. */
const char *ocl_error_name(cl_int err);

/* The two-call size query, written once: returns a NUL-terminated copy of a string
 * property, or NULL with *err set. */
char *ocl_platform_string(cl_platform_id platform, cl_platform_info param, cl_int *err);
char *ocl_device_string(cl_device_id device, cl_device_info param, cl_int *err);
char *ocl_program_string(cl_program program, cl_program_info param, cl_int *err);
/* A program's build log on a device, trailing blank lines removed; never NULL. */
char *ocl_build_log(cl_program program, cl_device_id device);

/* Lists every device of every platform whose name passes `keep` (NULL keeps all), as
 * targets with stable short names; names that would repeat get -1, -2 ... by order.
 * No platform, or no device, is an empty list, not an error. */
int ocl_list_targets(int (*keep)(const char *platform_name), struct target **targets, size_t *count,
		     char **cause);

/* Finds the platform and device a target names, checking that its short name still
 * matches (the ICD's order could differ between processes only if the system changed). */
int ocl_find_target(const struct target *t, cl_platform_id *platform, cl_device_id *device,
		    char **cause);

#endif
