/* clexec.c - runs a case's launches through the OpenCL API on one device. */
#include "config.h"

#include "exec/clexec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "exec/buildlog.h"
#include "exec/devname.h"
#include "exec/guard.h"
#include "exec/ocl.h"
#include "exec/progcache.h"

struct cached_program {
	char *path;
	char *options;
	cl_program program;
	char *log; /* the build log of a failed build, kept to report it again */
	/* Where and under which key the program cache keeps it (no dir: it keeps none). */
	char *cache_dir;
	struct strbuf key;
};

/* clexec_keep_programs_whole: store every program at the session's close. */
static bool keep_whole;

void clexec_keep_programs_whole(bool keep)
{
	keep_whole = keep;
}

struct clexec {
	struct target target;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	struct cached_program *programs;
	size_t nprograms;
	cl_kernel *kernels; /* one a step of the case last built */
	size_t nkernels;
	bool *writable; /* per buffer of that case: some kernel may write it */
	size_t guard;	/* bytes of each guard zone around a buffer; 0: none */
	bool built_before_2; /* the case last built asks for OpenCL C 1.x (-cl-std=CL1.x) */
	const struct clexec_hooks *hooks;
	const char *case_options; /* the case last built's own, for hooks->source */
};

void clexec_set_hooks(struct clexec *cx, const struct clexec_hooks *hooks)
{
	cx->hooks = hooks;
}

cl_device_type clexec_device_type(const struct clexec *cx)
{
	cl_device_type type = 0;
	clGetDeviceInfo(cx->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
	return type;
}

int clexec_open(const struct target *target, bool guarded, struct clexec **out, char **cause)
{
	cl_platform_id platform;
	cl_device_id device;
	if (ocl_find_target(target, &platform, &device, cause) < 0)
		return -1;
	cl_int err;
	cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
	cl_context context = clCreateContext(props, 1, &device, NULL, NULL, &err);
	if (context == NULL) {
		*cause = xasprintf("clCreateContext on %s: %s (%d)", target->name,
				   ocl_error_name(err), err);
		return -1;
	}
	cl_command_queue queue =
		clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
	if (queue == NULL) {
		*cause = xasprintf("clCreateCommandQueue on %s: %s (%d)", target->name,
				   ocl_error_name(err), err);
		clReleaseContext(context);
		return -1;
	}
	struct clexec *cx = xcalloc(1, sizeof *cx);
	cx->device = device;
	cx->context = context;
	cx->queue = queue;
	cx->guard = guarded ? guard_zone_bytes(device) : 0;
	cx->target = (struct target){
		.name = xstrdup(target->name),
		.opencl = target->opencl ? xstrdup(target->opencl) : NULL,
		.device = target->device ? xstrdup(target->device) : NULL,
		.platform = target->platform ? xstrdup(target->platform) : NULL,
		.driver = target->driver ? xstrdup(target->driver) : NULL,
		.limits = target->limits,
	};
	*out = cx;
	return 0;
}

static void release_kernels(struct clexec *cx)
{
	for (size_t k = 0; k < cx->nkernels; k++)
		if (cx->kernels[k])
			clReleaseKernel(cx->kernels[k]);
	free(cx->kernels);
	free(cx->writable);
	cx->kernels = NULL;
	cx->writable = NULL;
	cx->nkernels = 0;
}

/* Marks the buffers some kernel may write: any buffer argument not declared const, or
 * every one where the driver keeps no argument info. Repeated launches re-upload only
 * these, since the others cannot have changed. */
static void find_writable(struct clexec *cx, const struct test_case *tc)
{
	cx->writable = xcalloc(tc->nbuffers ? tc->nbuffers : 1, sizeof *cx->writable);
	for (size_t s = 0; s < tc->nsteps; s++) {
		for (size_t a = 0; a < tc->steps[s].nargs; a++) {
			const struct arg *arg = &tc->steps[s].args[a];
			if (arg->kind != ARG_BUFFER)
				continue;
			cl_kernel_arg_type_qualifier q = 0;
			cl_int err = clGetKernelArgInfo(cx->kernels[s], (cl_uint)a,
							CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q,
							NULL);
			if (err != CL_SUCCESS || !(q & CL_KERNEL_ARG_TYPE_CONST))
				cx->writable[arg->buffer] = true;
		}
	}
}

/* Reports a failed build at the first error the log names, in the kernel's own file;
 * the whole log goes along as the detail. */
static void build_failed(struct result *failure, const char *kernel_path, const char *target,
			 cl_int err, const char *log)
{
	int line = 0, col = 0;
	char *first = NULL;
	if (buildlog_first_error(log, &line, &col, &first)) {
		char *hint = buildlog_hint(first);
		result_set_diag(failure, VERDICT_BUILD_ERROR, kernel_path, line, col,
				"%s (build failed on %s: %s (%d))%s%s", first, target,
				ocl_error_name(err), err, hint ? "; " : "", hint ? hint : "");
		free(hint);
	} else
		result_set_diag(failure, VERDICT_BUILD_ERROR, kernel_path, 0, 0,
				"kernel file failed to build on %s: %s (%d)", target,
				ocl_error_name(err), err);
	free(first);
	free(failure->detail);
	failure->detail = buildlog_name_source(log, kernel_path);
}

/* A program of `source` built with `options` from the binary a build on this target left in
 * the program cache; NULL where there is none or it does not load. *seen: whether the
 * cache has met the program before, with or without its binary. */
static cl_program program_from_cache(struct clexec *cx, const char *cache, struct strbuf *key,
				     const char *options, bool *seen)
{
	size_t len;
	unsigned char *binary = progcache_load(cache, key, &len, seen);
	if (binary == NULL)
		return NULL;
	cl_int err, status;
	const unsigned char *binaries[] = { binary };
	cl_program program = clCreateProgramWithBinary(cx->context, 1, &cx->device, &len,
						       binaries, &status, &err);
	free(binary);
	if (program == NULL)
		return NULL;
	if (status != CL_SUCCESS ||
	    clBuildProgram(program, 1, &cx->device, options, NULL, NULL) != CL_SUCCESS) {
		clReleaseProgram(program);
		return NULL;
	}
	return program;
}

/* Keeps the binary of a program just built from source, for the next run. */
static void program_to_cache(cl_program program, const char *cache, const struct strbuf *key)
{
	size_t len = 0;
	if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) !=
		    CL_SUCCESS ||
	    len == 0)
		return;
	unsigned char *binary = xmalloc(len);
	unsigned char *binaries[] = { binary };
	if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL) ==
	    CL_SUCCESS)
		progcache_store(cache, key, binary, len);
	free(binary);
}

/* Whether a binary of the target's costs a build of its own to hand out: PoCL's does
 * where it specialises work-group functions to launch shapes, as it then first compiles
 * a generic work-group function of every kernel for the binary, which its launches never
 * use. Storing it after each first build cost a cold catalogue run a fifth of its time
 * (tools/bench-catalogue: the PoCL part 35 s against 27 s), so there a program's first
 * build leaves only a mark, and the binary is stored when the program is built again:
 * the second run of a catalogue, a grader's second check of a submission. Where PoCL
 * compiles generic functions alone (backend_device.c), its launches use the ones the
 * binary's make compiled. */
static bool binary_costs_a_build(const struct target *t)
{
	/* The short name starts with the platform's word (devname.c); the type is not kept
	 * here, nor needed. */
	if (t->name == NULL || !devname_matches("pocl", t->name, ""))
		return false;
	const char *specialise = getenv("POCL_WORK_GROUP_SPECIALIZATION");
	return specialise == NULL || strtol(specialise, NULL, 10) != 0;
}

/* Returns the program for one step: built before in this process, loaded from the program
 * cache (counted in *cached) or built from source (counted in *built); NULL after filling
 * `failure` with the build error and its log. */
static cl_program program_for(struct clexec *cx, const char *kernel_path, const char *options,
			      unsigned *built, unsigned *cached, struct result *failure)
{
	for (size_t i = 0; i < cx->nprograms; i++) {
		struct cached_program *cp = &cx->programs[i];
		if (strcmp(cp->path, kernel_path) != 0 || strcmp(cp->options, options) != 0)
			continue;
		if (cp->program == NULL)
			build_failed(failure, kernel_path, cx->target.name,
				     CL_BUILD_PROGRAM_FAILURE, cp->log);
		return cp->program;
	}

	size_t len;
	char *source;
	if (cx->hooks && cx->hooks->source) {
		const char *text = cx->hooks->source(cx->hooks->ctx, kernel_path, cx->case_options,
						     &len, failure);
		if (text == NULL)
			return NULL;
		source = xstrndup(text, len);
	} else if ((source = read_file(kernel_path, &len)) == NULL) {
		result_set_diag(failure, VERDICT_CASE_ERROR, kernel_path, 0, 0,
				"cannot read the kernel file: %s", file_error(errno));
		return NULL;
	}
	/* A run with a cache of its own stores there, and reads the shared one too. */
	char *shared = progcache_dir();
	const char *own = progcache_private_dir();
	char *cache = own ? xstrdup(own) : shared ? xstrdup(shared) : NULL;
	struct strbuf key = { 0 };
	cl_program program = NULL;
	bool seen = false;
	if (cache) {
		char *target_id = xasprintf("%s\n%s\n%s", cx->target.device ? cx->target.device : "",
					    cx->target.platform ? cx->target.platform : "",
					    cx->target.driver ? cx->target.driver : "");
		bool keyed = progcache_key(&key, target_id, kernel_path, source, len, options);
		free(target_id);
		if (keyed) {
			program = program_from_cache(cx, cache, &key, options, &seen);
			bool shared_seen;
			if (program == NULL && own && shared)
				program = program_from_cache(cx, shared, &key, options,
							     &shared_seen);
		} else {
			free(cache);
			cache = NULL;
		}
	}
	free(shared);
	cl_int err = CL_SUCCESS;
	if (program) {
		(*cached)++;
	} else {
		const char *sources[] = { source };
		program = clCreateProgramWithSource(cx->context, 1, sources, &len, &err);
		if (program == NULL) {
			result_set_diag(failure, VERDICT_BUILD_ERROR, kernel_path, 0, 0,
					"clCreateProgramWithSource: %s (%d)", ocl_error_name(err),
					err);
			free(source);
			free(cache);
			strbuf_free(&key);
			return NULL;
		}
		err = clBuildProgram(program, 1, &cx->device, options, NULL, NULL);
		(*built)++;
		if (err == CL_SUCCESS && cache) {
			if (seen || !binary_costs_a_build(&cx->target))
				program_to_cache(program, cache, &key);
			else
				progcache_mark(cache, &key);
		}
	}
	free(source);

	cx->programs = xreallocarray(cx->programs, cx->nprograms + 1, sizeof *cx->programs);
	struct cached_program *cp = &cx->programs[cx->nprograms++];
	*cp = (struct cached_program){ .path = xstrdup(kernel_path),
				       .options = xstrdup(options),
				       .cache_dir = cache,
				       .key = key };
	if (err != CL_SUCCESS) {
		cp->log = ocl_build_log(program, cx->device);
		clReleaseProgram(program);
		build_failed(failure, kernel_path, cx->target.name, err, cp->log);
		return NULL;
	}
	cp->program = program;
	return program;
}

/* The address space and type a case argument needs, for comparing with the kernel's. */
static void expected_arg(const struct test_case *tc, const struct arg *arg, cl_uint *space,
			 char *type, size_t size)
{
	bool buffer = arg->kind == ARG_BUFFER;
	enum elem_type et = buffer ? tc->buffers[arg->buffer].type : arg->type;
	unsigned lanes = buffer ? tc->buffers[arg->buffer].lanes : arg->lanes;
	*space = buffer && tc->buffers[arg->buffer].constant ? CL_KERNEL_ARG_ADDRESS_CONSTANT
		 : buffer				     ? CL_KERNEL_ARG_ADDRESS_GLOBAL
		 : arg->kind == ARG_LOCAL		     ? CL_KERNEL_ARG_ADDRESS_LOCAL
							     : CL_KERNEL_ARG_ADDRESS_PRIVATE;
	const struct record *rec = buffer ? tc->buffers[arg->buffer].record : arg->record;
	char name[ELEM_NAME_MAX];
	snprintf(type, size, "%s%s", rec ? "struct" : elem_type_text(et, lanes, name),
		 arg->kind == ARG_SCALAR ? "" : "*");
}

static const char *space_name(cl_uint space)
{
	switch (space) {
	case CL_KERNEL_ARG_ADDRESS_GLOBAL:
		return "a global buffer";
	case CL_KERNEL_ARG_ADDRESS_LOCAL:
		return "a local buffer";
	case CL_KERNEL_ARG_ADDRESS_CONSTANT:
		return "a constant buffer";
	default:
		return "a scalar";
	}
}

/* What a program defines, for the message of a kernel name it does not: "; it defines
 * reduce_sum and reduce_max; did you mean 'reduce_sum'?", or "" where the driver does
 * not say. The caller frees it. */
static char *kernels_defined(cl_program program, const char *wanted)
{
	cl_int err;
	char *names = ocl_program_string(program, CL_PROGRAM_KERNEL_NAMES, &err);
	if (names == NULL || *names == '\0') {
		free(names);
		return xstrdup("");
	}
	struct strbuf out = { 0 };
	const char **each = NULL;
	size_t count = 0;
	for (char *save = NULL, *name = strtok_r(names, ";", &save); name;
	     name = strtok_r(NULL, ";", &save)) {
		strbuf_printf(&out, "%s%s", count ? ", " : "; it defines ", name);
		each = xreallocarray(each, count + 1, sizeof *each);
		each[count++] = name;
	}
	const char *nearest = nearest_name(wanted, each, count);
	if (nearest)
		strbuf_printf(&out, "; did you mean '%s'?", nearest);
	free(each);
	char *text = strbuf_take(&out);
	free(names);
	return text ? text : xstrdup("");
}

/* Checks the case's arguments against the kernel's signature, so a mismatch is reported
 * at the case line that causes it rather than as wrong output or a driver crash. */
static int check_args(const struct test_case *tc, const struct step *st, cl_kernel kernel,
		      unsigned extra_args, struct result *failure)
{
	cl_uint nargs = 0;
	clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
	if (nargs != st->nargs + extra_args) {
		result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, st->args_pos.line,
				st->args_pos.col,
				"kernel %s takes %u argument%s, but the case gives %zu",
				st->kernel_name, nargs, nargs == 1 ? "" : "s", st->nargs);
		return -1;
	}
	for (cl_uint a = 0; a < st->nargs; a++) {
		cl_kernel_arg_address_qualifier space;
		if (clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space,
				       &space, NULL) != CL_SUCCESS)
			return 0; /* the driver keeps no argument info: the count is all we can
				     check */
		char type[256] = "";
		clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, NULL);
		char name[256] = "";
		clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_NAME, sizeof name - 1, name, NULL);

		const struct arg *arg = &st->args[a];
		cl_uint want_space;
		char want_type[32];
		expected_arg(tc, arg, &want_space, want_type, sizeof want_type);
		bool null_pointer =
			arg->kind == ARG_BUFFER && tc->buffers[arg->buffer].null_pointer;
		if (null_pointer && space != CL_KERNEL_ARG_ADDRESS_LOCAL &&
		    space != CL_KERNEL_ARG_ADDRESS_PRIVATE)
			continue; /* NULL is any pointer's value */
		bool constant_ok = space == CL_KERNEL_ARG_ADDRESS_CONSTANT &&
				   want_space == CL_KERNEL_ARG_ADDRESS_GLOBAL;
		if (space != want_space && !constant_ok) {
			result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, arg->pos.line,
					arg->pos.col,
					"argument %u of %s (%s %s) is %s, but the case gives %s",
					a + 1, st->kernel_name, type, name, space_name(space),
					space_name(want_space));
			return -1;
		}
		/* Drivers spell the type "uint" or "unsigned int": either is the case's uint. */
		struct strbuf got_normal = { 0 }, want_normal = { 0 };
		kernel_type_normal(&got_normal, type);
		kernel_type_normal(&want_normal, want_type);
		bool same = strcmp(got_normal.data, want_normal.data) == 0;
		/* A struct's parameter type is its tag or typedef, which the case does not
		 * name: any type that is no scalar or vector of OpenCL C takes it. So does a
		 * scalar's typedef (real_arg for float), which drivers report by its name. */
		if (!same) {
			char *star = strchr(got_normal.data, '*');
			if (star)
				*star = '\0';
			enum elem_type et;
			unsigned lanes;
			same = elem_type_parse(got_normal.data, &et, &lanes) < 0 &&
			       strcmp(got_normal.data, "bool") != 0 &&
			       (star != NULL) == (strchr(want_type, '*') != NULL);
		}
		strbuf_free(&got_normal);
		strbuf_free(&want_normal);
		if (!same) {
			result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, arg->pos.line,
					arg->pos.col,
					"argument %u of %s (%s) has type %s, but the case gives %s",
					a + 1, st->kernel_name, name, type, want_type);
			return -1;
		}
	}
	return 0;
}

int clexec_build(struct clexec *cx, const struct test_case *tc, const char *options,
		 unsigned *cached, struct result *failure)
{
	release_kernels(cx);
	/* A smaller last work-group is launched only for programs built as CL2.0 or later;
	 * an -cl-std the case gives is the case's choice. */
	unsigned std = cx->target.limits.non_uniform_std;
	bool std_given = (options && strstr(options, "-cl-std=")) ||
			 (tc->options && strstr(tc->options, "-cl-std="));
	char std_option[24] = "";
	if (tc->non_uniform && std && !std_given)
		snprintf(std_option, sizeof std_option, " -cl-std=CL%u.%u", std / 10, std % 10);
	cx->built_before_2 = (options && strstr(options, "-cl-std=CL1.")) ||
			     (tc->options && strstr(tc->options, "-cl-std=CL1."));
	/* -cl-kernel-arg-info lets check_args name the kernel's own parameters. */
	char *all = xasprintf("-cl-kernel-arg-info%s%s%s%s%s", std_option,
			      options && *options ? " " : "", options ? options : "",
			      tc->options ? " " : "", tc->options ? tc->options : "");
	cx->case_options = tc->options ? tc->options : "";
	cx->kernels = xcalloc(tc->nsteps, sizeof *cx->kernels);
	cx->nkernels = tc->nsteps;
	int status = 0;
	unsigned built = 0;
	for (size_t s = 0; s < tc->nsteps && status == 0; s++) {
		const struct step *st = &tc->steps[s];
		cl_program program =
			program_for(cx, st->kernel_path, all, &built, cached, failure);
		if (program == NULL) {
			status = -1;
			break;
		}
		cl_int err;
		cx->kernels[s] = clCreateKernel(program, st->kernel_name, &err);
		if (cx->kernels[s] == NULL) {
			char *defined = kernels_defined(program, st->kernel_name);
			result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, st->name_pos.line,
					st->name_pos.col, "no kernel named '%s' in %s (%s (%d))%s",
					st->kernel_name, st->kernel_file, ocl_error_name(err), err,
					defined);
			free(defined);
			status = -1;
			break;
		}
		status = check_args(tc, st, cx->kernels[s],
				    cx->hooks ? cx->hooks->extra_args : 0, failure);
	}
	free(all);
	if (status < 0) {
		release_kernels(cx);
		return -1;
	}
	find_writable(cx, tc);
	return (int)built;
}

/* A result that says the target cannot run this plan: skip, with the reason. */
static int unsupported(struct result *failure, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int unsupported(struct result *failure, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	result_set_diag(failure, VERDICT_SKIP, NULL, 0, 0, "%s", msg);
	free(msg);
	return -1;
}

/* Checks the plan against the device's limits before any launch, so an impossible
 * shape is a skip with its reason instead of an OpenCL error. */
static int check_limits(struct clexec *cx, const struct test_case *tc, const struct plan *plan,
			struct result *failure)
{
	if (plan->non_uniform && cx->built_before_2) {
		char at[SHAPE_RUN_TEXT_MAX];
		return unsupported(failure,
				   "at %s the last work-group is smaller than the others, which a "
				   "program built as OpenCL C 1.x (its -cl-std) cannot launch: build "
				   "it as CL2.0 or later",
				   shape_run_text(&plan->n, &plan->l, ", ", at));
	}
	if (plan->non_uniform && cx->target.limits.non_uniform_std == 0) {
		char at[SHAPE_RUN_TEXT_MAX];
		return unsupported(failure,
				   "at %s the last work-group is smaller than the others, which "
				   "%s (%s) cannot launch: non-uniform work-groups need an "
				   "OpenCL 2.x device, or a 3.0 device that supports them",
				   shape_run_text(&plan->n, &plan->l, ", ", at), cx->target.name,
				   cx->target.opencl);
	}
	/* The buffers' sizes the runner checked before it made their host copies. */
	for (size_t i = 0; i < plan->nlaunches; i++) {
		const struct plan_launch *launch = &plan->launches[i];
		size_t kernel_max = 0;
		clGetKernelWorkGroupInfo(cx->kernels[launch->step], cx->device,
					 CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max, &kernel_max,
					 NULL);
		const struct device_limits *lim = &cx->target.limits;
		struct shape local = shape_of_sizes(launch->local, launch->dims);
		char text[SHAPE_TEXT_MAX];
		size_t items = (size_t)shape_volume(&local);
		if (items > lim->max_work_group || (kernel_max && items > kernel_max))
			return unsupported(failure,
					   "work-group size %s is over %s's limit of %zu for %s",
					   shape_format(&local, text), cx->target.name,
					   kernel_max ? kernel_max : (size_t)lim->max_work_group,
					   tc->steps[launch->step].kernel_name);
		for (unsigned d = 0; d < launch->dims; d++)
			if (lim->max_work_item[d] && launch->local[d] > lim->max_work_item[d])
				return unsupported(failure,
						   "work-group size %s is over %s's limit of "
						   "%llu work-items in dimension %u",
						   shape_format(&local, text), cx->target.name,
						   (unsigned long long)lim->max_work_item[d], d);
		/* A device holds its constant arguments together in one constant space. */
		uint64_t constant_bytes = 0;
		unsigned constants = 0;
		const char *first_constant = NULL;
		for (size_t a = 0; a < tc->steps[launch->step].nargs; a++) {
			const struct plan_arg *pa = &launch->args[a];
			if (pa->kind != ARG_BUFFER || !tc->buffers[pa->buffer].constant)
				continue;
			constant_bytes += plan_buffer_bytes(tc, plan, pa->buffer);
			constants++;
			first_constant =
				first_constant ? first_constant : tc->buffers[pa->buffer].name;
		}
		if (lim->max_constant && constant_bytes > lim->max_constant)
			return unsupported(failure,
					   "constant buffer%s %s%s need%s %llu bytes of constant "
					   "memory; %s has %llu",
					   constants > 1 ? "s" : "", first_constant,
					   constants > 1 ? " and others" : "",
					   constants > 1 ? "" : "s",
					   (unsigned long long)constant_bytes, cx->target.name,
					   (unsigned long long)lim->max_constant);
		if (lim->max_constant_args && constants > lim->max_constant_args)
			return unsupported(failure, "%s takes %u constant buffers; %s allows %u",
					   tc->steps[launch->step].kernel_name, constants,
					   cx->target.name, lim->max_constant_args);
		uint64_t local_bytes = 0;
		for (size_t a = 0; a < tc->steps[launch->step].nargs; a++)
			local_bytes +=
				launch->args[a].kind == ARG_LOCAL ? launch->args[a].local_bytes : 0;
		if (local_bytes > cx->target.limits.local_mem)
			return unsupported(failure,
					   "%s needs %llu bytes of local memory; %s has %llu",
					   tc->steps[launch->step].kernel_name,
					   (unsigned long long)local_bytes, cx->target.name,
					   (unsigned long long)cx->target.limits.local_mem);
	}
	return 0;
}

/* Stores a scalar's value in the lanes of a scalar or vector of `type` at p (a 3-vector's
 * padding lane zero); an integer wraps to its type as the kernel's own conversion would. */
static void store_lanes(unsigned char *p, enum elem_type type, unsigned lanes,
			const struct plan_value *v)
{
	for (unsigned lane = 0; lane < lanes; lane++) {
		const struct lane_number *n = &v->lane[v->count > 1 && lane < v->count ? lane : 0];
		if (n->fractional)
			elem_set(type, p, lane, n->number);
		else if (elem_is_float(type))
			elem_set(type, p, lane, (double)n->whole);
		else
			elem_set_bits(type, p, lane, (uint64_t)n->whole);
	}
}

static size_t scalar_size(const struct plan_arg *pa)
{
	return pa->record ? pa->record->size : elem_size(pa->type) * elem_stride(pa->lanes);
}

/* A scalar argument's bytes as the kernel takes them: a struct's fields at their offsets,
 * its padding zero. Caller frees. */
static unsigned char *scalar_bytes(const struct plan_arg *pa)
{
	unsigned char *bytes = xcalloc(1, scalar_size(pa));
	if (pa->record == NULL) {
		store_lanes(bytes, pa->type, pa->lanes, &pa->value);
		return bytes;
	}
	for (size_t f = 0; f < pa->record->nfields; f++) {
		const struct record_field *field = &pa->record->fields[f];
		store_lanes(bytes + field->offset, field->type, field->lanes, &pa->fields[f]);
	}
	return bytes;
}

static int set_args(cl_kernel kernel, const struct test_case *tc, const struct plan_launch *launch,
		    const cl_mem *mems, struct result *failure)
{
	const struct step *st = &tc->steps[launch->step];
	for (size_t a = 0; a < st->nargs; a++) {
		const struct plan_arg *pa = &launch->args[a];
		cl_int err;
		if (pa->kind == ARG_BUFFER) {
			err = clSetKernelArg(kernel, (cl_uint)a, sizeof(cl_mem), &mems[pa->buffer]);
		} else if (pa->kind == ARG_LOCAL) {
			err = clSetKernelArg(kernel, (cl_uint)a, pa->local_bytes, NULL);
		} else {
			unsigned char *value = scalar_bytes(pa);
			err = clSetKernelArg(kernel, (cl_uint)a, scalar_size(pa), value);
			free(value);
		}
		if (err != CL_SUCCESS) {
			result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, st->args[a].pos.line,
					st->args[a].pos.col,
					"clSetKernelArg for argument %zu of %s: %s (%d)", a + 1,
					st->kernel_name, ocl_error_name(err), err);
			return -1;
		}
	}
	return 0;
}

/* Enqueues the plan's launches once and waits for them, adding their device time to
 * *kernel_ns. Returns 0; -1 after filling `failure` when the case shaped a launch the
 * driver refuses; or BACKEND_LOST with the failing code in *err when the device faulted
 * while running them. */
static int launch_once(struct clexec *cx, const struct test_case *tc, const struct plan *plan,
		       const cl_mem *mems, uint64_t *kernel_ns, struct result *failure, cl_int *err)
{
	int status = 0;
	size_t enqueued = 0;
	cl_event *events = xcalloc(plan->nlaunches, sizeof *events);
	for (; enqueued < plan->nlaunches; enqueued++) {
		const struct plan_launch *launch = &plan->launches[enqueued];
		cl_kernel kernel = cx->kernels[launch->step];
		if (set_args(kernel, tc, launch, mems, failure) < 0 ||
		    (cx->hooks && cx->hooks->before_launch(cx->hooks->ctx, cx->context, cx->queue,
							   kernel, tc, plan, enqueued,
							   failure) < 0)) {
			status = -1;
			break;
		}
		bool offset = false;
		for (unsigned d = 0; d < launch->dims; d++)
			offset |= launch->offset[d] != 0;
		cl_int refused = clEnqueueNDRangeKernel(
			cx->queue, kernel, launch->dims, offset ? launch->offset : NULL,
			launch->global, launch->local, 0, NULL, &events[enqueued]);
		if (refused != CL_SUCCESS) {
			const struct step *st = &tc->steps[launch->step];
			struct shape global = shape_of_sizes(launch->global, launch->dims);
			struct shape local = shape_of_sizes(launch->local, launch->dims);
			char gtext[SHAPE_TEXT_MAX], ltext[SHAPE_TEXT_MAX];
			result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, st->global_pos.line,
					st->global_pos.col,
					"launching %s with global %s, local %s: %s (%d)",
					st->kernel_name, shape_format(&global, gtext),
					shape_format(&local, ltext), ocl_error_name(refused),
					refused);
			status = -1;
			break;
		}
		if (cx->hooks && cx->hooks->after_launch(cx->hooks->ctx, cx->queue, enqueued) < 0) {
			enqueued++;
			*err = CL_OUT_OF_RESOURCES;
			status = BACKEND_LOST;
			break;
		}
	}
	/* Drain what was enqueued before its buffers can go, whatever happened. */
	cl_int finished = clFinish(cx->queue);
	for (size_t i = 0; i < enqueued; i++) {
		cl_ulong start = 0, end = 0;
		if (status == 0 &&
		    clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_START, sizeof start,
					    &start, NULL) == CL_SUCCESS &&
		    clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END, sizeof end, &end,
					    NULL) == CL_SUCCESS &&
		    end > start)
			*kernel_ns += end - start;
		clReleaseEvent(events[i]);
	}
	free(events);
	if (status == 0 && finished != CL_SUCCESS) {
		*err = finished;
		status = BACKEND_LOST;
	}
	if (cx->hooks)
		cx->hooks->finished(cx->hooks->ctx, status == 0, tc, plan, failure);
	return status;
}

/* A write a guard zone caught, reaching `bytes` past the end of buffer b (or before its
 * start), as a finding of the run naming the buffer and the farthest element written. */
static void add_overrun(const struct test_case *tc, size_t b, const struct plan *plan, size_t bytes,
			bool past_end, struct finding_list *findings)
{
	const struct buffer_decl *buf = &tc->buffers[b];
	size_t count = plan->buffer_counts[b];
	size_t element = count ? plan_buffer_bytes(tc, plan, b) / count : 1;
	long long farthest = past_end ? (long long)(count + (bytes - 1) / element)
				      : -(long long)((bytes + element - 1) / element);
	char type[ELEM_NAME_MAX];
	char *what = xasprintf("write %s %s", past_end ? "past the end of" : "before the start of",
			       buf->name);
	char *info = xasprintf(
		"as far as %s[%lld], %zu byte%s %s its %zu %s%s", buf->name, farthest, bytes,
		bytes == 1 ? "" : "s", past_end ? "past the end of" : "before", count,
		buf->record ? "struct" : elem_type_text(buf->type, buf->lanes, type),
		count == 1 ? "" : "s");
	struct finding_event e = {
		.kind = FINDING_OUT_OF_BOUNDS,
		.severity = DIAG_ERROR,
		.what = what,
		.space = buf->constant ? "constant" : "global",
		.kernel = tc->nsteps == 1 ? tc->steps[0].kernel_name : NULL,
		.file = tc->nsteps == 1 ? tc->steps[0].kernel_path : NULL,
		.info = info,
	};
	finding_list_note(findings, &e);
	free(what);
	free(info);
}

int clexec_execute(struct clexec *cx, const struct test_case *tc, const struct plan *plan,
		   void *const *initial, void **final, unsigned repeat, uint64_t *round_ns,
		   struct result *failure)
{
	if (check_limits(cx, tc, plan, failure) < 0)
		return -1;

	int status = -1;
	cl_int err = CL_SUCCESS;
	const char *doing;
	cl_mem *mems = xcalloc(tc->nbuffers, sizeof *mems);
	cl_mem *parents = xcalloc(tc->nbuffers, sizeof *parents);
	for (size_t b = 0; b < tc->nbuffers; b++) {
		size_t bytes = plan_buffer_bytes(tc, plan, b);
		/* No elements, or buffer: null: the kernel gets a NULL pointer. */
		if (bytes == 0)
			continue;
		static const cl_mem_flags flags[] = { [ACCESS_READ_WRITE] = CL_MEM_READ_WRITE,
						      [ACCESS_READ_ONLY] = CL_MEM_READ_ONLY,
						      [ACCESS_WRITE_ONLY] = CL_MEM_WRITE_ONLY };
		cl_mem_flags access = flags[tc->buffers[b].access];
		/* A buffer too large for its zones too goes without them. */
		size_t max = cx->target.limits.max_alloc;
		if (cx->guard > 0 &&
		    (max == 0 || (max > 2 * cx->guard && bytes <= max - 2 * cx->guard))) {
			mems[b] = guard_create(cx->context, access, bytes, cx->guard, &parents[b],
					       &err);
			if (mems[b] && guard_arm(cx->queue, parents[b], bytes, cx->guard) != 0) {
				clReleaseMemObject(mems[b]);
				clReleaseMemObject(parents[b]);
				mems[b] = parents[b] = NULL;
			}
		}
		if (mems[b] == NULL)
			mems[b] = clCreateBuffer(cx->context, access, bytes, NULL, &err);
		if (mems[b] == NULL) {
			unsupported(failure, "cannot allocate buffer %s (%zu bytes) on %s: %s (%d)",
				    tc->buffers[b].name, bytes, cx->target.name,
				    ocl_error_name(err), err);
			goto out;
		}
	}

	for (unsigned rep = 0; rep < repeat; rep++) {
		/* Every repetition starts from the same inputs: in-place kernels consume them. */
		doing = "clEnqueueWriteBuffer";
		for (size_t b = 0; b < tc->nbuffers; b++) {
			if ((rep > 0 && !cx->writable[b]) || mems[b] == NULL ||
			    tc->buffers[b].init.kind == INIT_NONE)
				continue;
			size_t bytes = plan_buffer_bytes(tc, plan, b);
			err = clEnqueueWriteBuffer(cx->queue, mems[b], CL_FALSE, 0, bytes,
						   initial[b], 0, NULL, NULL);
			if (err != CL_SUCCESS)
				goto device_fault;
		}
		doing = "clFinish";
		status = launch_once(cx, tc, plan, mems, &round_ns[rep], failure, &err);
		if (status == BACKEND_LOST)
			goto device_fault;
		if (status < 0)
			goto out;
	}

	doing = "clEnqueueReadBuffer";
	for (size_t b = 0; b < tc->nbuffers; b++) {
		if (!tc->buffers[b].output || mems[b] == NULL)
			continue;
		size_t bytes = plan_buffer_bytes(tc, plan, b);
		err = clEnqueueReadBuffer(cx->queue, mems[b], CL_TRUE, 0, bytes, final[b], 0, NULL,
					  NULL);
		if (err != CL_SUCCESS)
			goto device_fault;
	}
	doing = "reading a guard zone";
	for (size_t b = 0; b < tc->nbuffers; b++) {
		size_t before, after, bytes = plan_buffer_bytes(tc, plan, b);
		if (parents[b] == NULL)
			continue;
		err = guard_check(cx->queue, parents[b], bytes, cx->guard, &before, &after);
		if (err != CL_SUCCESS)
			goto device_fault;
		if (before)
			add_overrun(tc, b, plan, before, false, &failure->findings);
		if (after)
			add_overrun(tc, b, plan, after, true, &failure->findings);
	}
	status = 0;
	goto out;

device_fault:
	/* A queue that fails a transfer or a finish has met a device fault, which leaves the
	 * context unusable on some drivers (NVIDIA's fails every later build with -9999). */
	result_set_diag(failure, VERDICT_CRASH, tc->path, 0, 0,
			"the device faulted (%s on %s: %s (%d)); an out-of-bounds access is the "
			"usual cause",
			doing, cx->target.name, ocl_error_name(err), err);
	status = BACKEND_LOST;
out:
	for (size_t b = 0; b < tc->nbuffers; b++) {
		if (mems[b])
			clReleaseMemObject(mems[b]);
		if (parents[b])
			clReleaseMemObject(parents[b]);
	}
	free(mems);
	free(parents);
	return status;
}

int clexec_inspect(struct clexec *cx, const char *path, const char *kernel, const char *own_options,
		   const char *options, struct kernel_sig *sig, struct result *failure)
{
	*sig = (struct kernel_sig){ 0 };
	/* Spelt as clexec_build spells a case's options, so that the program built here is
	 * the one a run of the case loads from the cache, not a second build. */
	char *all = xasprintf("-cl-kernel-arg-info%s%s%s%s", *own_options ? " " : "", own_options,
			      *options ? " " : "", options);
	cx->case_options = options;
	unsigned built = 0, cached = 0;
	cl_program program = program_for(cx, path, all, &built, &cached, failure);
	free(all);
	if (program == NULL)
		return -1;
	cl_int err;
	cl_kernel k = clCreateKernel(program, kernel, &err);
	if (k == NULL) {
		char *defined = kernels_defined(program, kernel);
		result_set_diag(failure, VERDICT_CASE_ERROR, path, 0, 0,
				"no kernel named '%s' in %s (%s (%d))%s", kernel, path,
				ocl_error_name(err), err, defined);
		free(defined);
		return -1;
	}
	cl_uint nargs = 0;
	clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
	/* The hooks' source appends its own parameters after the kernel's. */
	unsigned extra = cx->hooks ? cx->hooks->extra_args : 0;
	nargs = nargs > extra ? nargs - extra : 0;
	sig->params = xcalloc(nargs ? nargs : 1, sizeof *sig->params);
	for (cl_uint a = 0; a < nargs; a++) {
		cl_kernel_arg_address_qualifier space = CL_KERNEL_ARG_ADDRESS_PRIVATE;
		cl_kernel_arg_type_qualifier qualifier = 0;
		char type[256] = "", name[256] = "";
		err = clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space,
					 &space, NULL);
		clGetKernelArgInfo(k, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qualifier, &qualifier,
				   NULL);
		clGetKernelArgInfo(k, a, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, NULL);
		clGetKernelArgInfo(k, a, CL_KERNEL_ARG_NAME, sizeof name - 1, name, NULL);
		if (err != CL_SUCCESS) {
			result_set_diag(failure, VERDICT_CASE_ERROR, path, 0, 0,
					"%s keeps no description of %s's arguments (%s (%d)): give "
					"every argument with --arg",
					cx->target.name, kernel, ocl_error_name(err), err);
			clReleaseKernel(k);
			kernel_sig_free(sig);
			return -1;
		}
		sig->params[sig->count++] = (struct kernel_param){
			.name = xstrdup(name),
			.type = xstrdup(type),
			.kind = space == CL_KERNEL_ARG_ADDRESS_LOCAL	 ? ARG_LOCAL
				: space == CL_KERNEL_ARG_ADDRESS_PRIVATE ? ARG_SCALAR
									 : ARG_BUFFER,
			.read_only = space == CL_KERNEL_ARG_ADDRESS_CONSTANT ||
				     (qualifier & CL_KERNEL_ARG_TYPE_CONST),
			.constant = space == CL_KERNEL_ARG_ADDRESS_CONSTANT,
		};
	}
	/* A driver that keeps none leaves the zeros that say "none required". */
	clGetKernelWorkGroupInfo(k, cx->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
				 sizeof sig->reqd_local, sig->reqd_local, NULL);
	clReleaseKernel(k);
	return 0;
}

void clexec_close(struct clexec *cx)
{
	if (cx == NULL)
		return;
	release_kernels(cx);
	for (size_t i = 0; i < cx->nprograms; i++) {
		struct cached_program *cp = &cx->programs[i];
		/* Now that it ran, the binary holds the code compiled for each launch shape. */
		if (keep_whole && cp->program && cp->cache_dir)
			program_to_cache(cp->program, cp->cache_dir, &cp->key);
		if (cp->program)
			clReleaseProgram(cp->program);
		free(cp->path);
		free(cp->options);
		free(cp->log);
		free(cp->cache_dir);
		strbuf_free(&cp->key);
	}
	free(cx->programs);
	clReleaseCommandQueue(cx->queue);
	clReleaseContext(cx->context);
	target_free(&cx->target);
	free(cx);
}
