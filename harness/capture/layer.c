/* layer.c - the capture layer: an OpenCL layer (cl_layer.h) that the ICD loader puts
 * between an application and its drivers when OPENCL_LAYERS names it. It passes every
 * call on unchanged and records each distinct kernel launch whole, as rawlaunch.h says:
 * the program's source and build options, the launch's shape, every argument, and each
 * buffer's bytes just before and just after the launch.
 *
 * It runs inside someone else's program, so it links nothing but libc and pthreads, never
 * exits or prints to stdout, and says what it could not capture in the notes file. */
#include "config.h"

#include <CL/cl_layer.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/rawlaunch.h"

/* The layer's entry points: the loader finds them by name. */
CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
					       void *param_value, size_t *param_value_size_ret);
CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch *target,
					    cl_uint *num_entries_ret,
					    const cl_icd_dispatch **layer_dispatch_ret);

static const struct _cl_icd_dispatch *next;
static struct _cl_icd_dispatch ours;

/* Everything below is shared by the application's threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct program_rec {
	cl_program program;
	unsigned id;
	bool from_source; /* else a binary, IL, built-in kernels or a link: not replayable */
	const char *origin; /* for a note where it is not from source */
};

struct arg_rec {
	bool set;
	bool svm; /* clSetKernelArgSVMPointer */
	size_t size;
	unsigned char *bytes; /* NULL for local memory */
};

struct kernel_rec {
	cl_kernel kernel;
	cl_program program;
	char *name;
	cl_uint nargs;
	struct arg_rec *args;
};

/* A launch already captured: its program, kernel and shape. */
struct launch_key {
	unsigned program;
	char *kernel;
	cl_uint dims;
	size_t global[3], local[3], offset[3];
	bool local_given;
};

static struct {
	bool configured, enabled;
	char *dir;
	char **kernels; /* the names to capture; NULL: all */
	size_t nkernels;
	unsigned max_launches;
	unsigned long long max_bytes, bytes_written;
	unsigned next_program, next_launch;
	struct program_rec *programs;
	size_t nprograms;
	struct kernel_rec *kernels_seen;
	size_t nkernels_seen;
	struct launch_key *launches;
	size_t nlaunches;
	char **full; /* kernels whose further launches went uncaptured, said once each */
	size_t nfull;
} st;

/* --- small helpers that never fail the application --- */

static void *grow(void *p, size_t n, size_t size)
{
	void *q = realloc(p, n * size);
	return q ? q : p;
}

static char *copy_string(const char *s)
{
	char *c = malloc(strlen(s) + 1);
	return c ? strcpy(c, s) : NULL;
}

static char *path_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *path_of(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = NULL;
	if (vasprintf(&p, fmt, ap) < 0)
		p = NULL;
	va_end(ap);
	return p;
}

static bool write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_whole(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	bool ok = write_all(fd, data, len);
	return close(fd) == 0 && ok;
}

/* A buffer's bytes as rawlaunch.h lays them out: room for a header, then the bytes.
 * Mapped, not read into a copy: on a CPU device the map is the buffer itself, and the
 * bytes go to the file once. */
static bool save_buffer(cl_command_queue queue, cl_mem mem, size_t size, const char *path)
{
	static const unsigned char room[RAWLAUNCH_BYTES_AT];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	bool ok = write_all(fd, room, sizeof room);
	cl_int err = CL_SUCCESS;
	void *bytes = size == 0 ? NULL
				: next->clEnqueueMapBuffer(queue, mem, CL_TRUE, CL_MAP_READ, 0,
							   size, 0, NULL, NULL, &err);
	if (bytes && err == CL_SUCCESS) {
		ok = ok && write_all(fd, bytes, size);
		cl_event unmapped = NULL;
		/* Waited for: on an out-of-order queue the kernel must not start before. */
		if (next->clEnqueueUnmapMemObject(queue, mem, bytes, 0, NULL, &unmapped) !=
			    CL_SUCCESS ||
		    next->clWaitForEvents(1, &unmapped) != CL_SUCCESS)
			ok = false;
		if (unmapped)
			next->clReleaseEvent(unmapped);
	} else if (size) {
		/* A buffer that cannot be mapped (made with CL_MEM_HOST_NO_ACCESS) is read. */
		unsigned char *copy = malloc(size);
		ok = ok && copy &&
		     next->clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, copy, 0, NULL, NULL) ==
			     CL_SUCCESS &&
		     write_all(fd, copy, size);
		free(copy);
	}
	return close(fd) == 0 && ok;
}

/* One line appended to the notes, in one write so threads' lines never mix. */
static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void note(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
	line[len++] = '\n';
	char *path = path_of("%s/raw/notes", st.dir);
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	if (fd >= 0) {
		ssize_t ignored = write(fd, line, len);
		(void)ignored;
		close(fd);
	}
	free(path);
}

static unsigned long long env_number(const char *name, unsigned long long fallback)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n = v && *v ? strtoull(v, &end, 10) : 0;
	return v && *v && *end == '\0' && n > 0 ? n : fallback;
}

/* Reads the settings once, under the lock; without a folder the layer only passes calls
 * on. */
static void configure(void)
{
	if (st.configured)
		return;
	st.configured = true;
	const char *dir = getenv(RAWLAUNCH_ENV_DIR);
	if (dir == NULL || *dir == '\0')
		return;
	st.dir = copy_string(dir);
	char *raw = path_of("%s/raw", dir), *programs = path_of("%s/raw/programs", dir),
	     *launches = path_of("%s/raw/launches", dir);
	st.enabled = st.dir && raw && programs && launches &&
		     (mkdir(raw, 0755) == 0 || errno == EEXIST) &&
		     (mkdir(programs, 0755) == 0 || errno == EEXIST) &&
		     (mkdir(launches, 0755) == 0 || errno == EEXIST);
	free(raw);
	free(programs);
	free(launches);
	st.max_launches =
		(unsigned)env_number(RAWLAUNCH_ENV_MAX_LAUNCHES, RAWLAUNCH_DEFAULT_LAUNCHES);
	st.max_bytes = env_number(RAWLAUNCH_ENV_MAX_BYTES, RAWLAUNCH_DEFAULT_BYTES);
	const char *names = getenv(RAWLAUNCH_ENV_KERNELS);
	if (names && *names) {
		char *all = copy_string(names), *save = NULL;
		for (char *n = all ? strtok_r(all, ",", &save) : NULL; n;
		     n = strtok_r(NULL, ",", &save)) {
			st.kernels = grow(st.kernels, st.nkernels + 1, sizeof *st.kernels);
			st.kernels[st.nkernels] = copy_string(n);
			if (st.kernels[st.nkernels])
				st.nkernels++;
		}
		free(all);
	}
}

/* --- what the application made --- */

static struct program_rec *program_find(cl_program program)
{
	for (size_t i = st.nprograms; i-- > 0;)
		if (st.programs[i].program == program)
			return &st.programs[i];
	return NULL;
}

/* A new record for `program`: a handle the driver reuses after a release is a new
 * program. */
static struct program_rec *program_add(cl_program program, bool from_source, const char *origin)
{
	st.programs = grow(st.programs, st.nprograms + 1, sizeof *st.programs);
	struct program_rec *p = &st.programs[st.nprograms++];
	*p = (struct program_rec){ program, ++st.next_program, from_source, origin };
	return p;
}

static struct kernel_rec *kernel_find(cl_kernel kernel)
{
	for (size_t i = st.nkernels_seen; i-- > 0;)
		if (st.kernels_seen[i].kernel == kernel)
			return &st.kernels_seen[i];
	return NULL;
}

static void kernel_add(cl_kernel kernel, cl_program program)
{
	char name[256] = "";
	cl_uint nargs = 0;
	next->clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, NULL);
	next->clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
	struct kernel_rec *k = kernel_find(kernel);
	if (k == NULL) {
		st.kernels_seen = grow(st.kernels_seen, st.nkernels_seen + 1, sizeof *st.kernels_seen);
		k = &st.kernels_seen[st.nkernels_seen++];
	} else {
		for (cl_uint a = 0; a < k->nargs; a++)
			free(k->args[a].bytes);
		free(k->args);
		free(k->name);
	}
	*k = (struct kernel_rec){ kernel, program, copy_string(name), nargs,
				  calloc(nargs ? nargs : 1, sizeof *k->args) };
	if (k->args == NULL)
		k->nargs = 0;
}

/* --- the calls the layer watches --- */

static cl_program CL_API_CALL capture_create_program_with_source(cl_context context, cl_uint count,
								 const char **strings,
								 const size_t *lengths,
								 cl_int *errcode_ret)
{
	cl_program program =
		next->clCreateProgramWithSource(context, count, strings, lengths, errcode_ret);
	pthread_mutex_lock(&lock);
	configure();
	if (program && st.enabled) {
		struct program_rec *p = program_add(program, true, NULL);
		size_t total = 0;
		for (cl_uint i = 0; i < count; i++)
			total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
		char *source = malloc(total + 1);
		char *path = path_of("%s/raw/programs/%u.cl", st.dir, p->id);
		if (source && path) {
			size_t at = 0;
			for (cl_uint i = 0; i < count; i++) {
				size_t len = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
				memcpy(source + at, strings[i], len);
				at += len;
			}
			if (!write_whole(path, source, at))
				p->from_source = false, p->origin = "a source the layer could not save";
		}
		free(source);
		free(path);
	}
	pthread_mutex_unlock(&lock);
	return program;
}

static void watch_other_program(cl_program program, const char *origin)
{
	pthread_mutex_lock(&lock);
	configure();
	if (program && st.enabled)
		program_add(program, false, origin);
	pthread_mutex_unlock(&lock);
}

static cl_program CL_API_CALL capture_create_program_with_binary(
	cl_context context, cl_uint num_devices, const cl_device_id *devices, const size_t *lengths,
	const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret)
{
	cl_program program = next->clCreateProgramWithBinary(context, num_devices, devices, lengths,
							     binaries, binary_status, errcode_ret);
	watch_other_program(program, "a binary");
	return program;
}

static cl_program CL_API_CALL capture_create_program_with_il(cl_context context, const void *il,
							    size_t length, cl_int *errcode_ret)
{
	cl_program program = next->clCreateProgramWithIL(context, il, length, errcode_ret);
	watch_other_program(program, "intermediate language (SPIR-V)");
	return program;
}

static cl_program CL_API_CALL capture_create_program_with_built_in_kernels(
	cl_context context, cl_uint num_devices, const cl_device_id *devices,
	const char *kernel_names, cl_int *errcode_ret)
{
	cl_program program = next->clCreateProgramWithBuiltInKernels(context, num_devices, devices,
								     kernel_names, errcode_ret);
	watch_other_program(program, "the driver's built-in kernels");
	return program;
}

static cl_program CL_API_CALL capture_link_program(cl_context context, cl_uint num_devices,
						   const cl_device_id *devices, const char *options,
						   cl_uint num_programs, const cl_program *programs,
						   void(CL_CALLBACK *notify)(cl_program, void *),
						   void *user_data, cl_int *errcode_ret)
{
	cl_program program = next->clLinkProgram(context, num_devices, devices, options,
						 num_programs, programs, notify, user_data,
						 errcode_ret);
	watch_other_program(program, "programs compiled apart and linked (clLinkProgram)");
	return program;
}

/* The application's options, with -cl-kernel-arg-info added where they lack it: without
 * it a driver need not say a parameter's name or type, which the case is written from.
 * It changes nothing the kernel computes. */
static char *with_arg_info(const char *options)
{
	const char *given = options ? options : "";
	if (strstr(given, "-cl-kernel-arg-info"))
		return copy_string(given);
	return path_of("%s%s-cl-kernel-arg-info", given, *given ? " " : "");
}

static void save_options(cl_program program, const char *options)
{
	pthread_mutex_lock(&lock);
	struct program_rec *p = st.enabled ? program_find(program) : NULL;
	if (p && p->from_source) {
		char *path = path_of("%s/raw/programs/%u.options", st.dir, p->id);
		const char *text = options ? options : "";
		if (path)
			write_whole(path, text, strlen(text));
		free(path);
	}
	pthread_mutex_unlock(&lock);
}

static cl_int CL_API_CALL capture_build_program(cl_program program, cl_uint num_devices,
						const cl_device_id *devices, const char *options,
						void(CL_CALLBACK *notify)(cl_program, void *),
						void *user_data)
{
	save_options(program, options);
	char *all = with_arg_info(options);
	cl_int err = next->clBuildProgram(program, num_devices, devices, all ? all : options,
					  notify, user_data);
	free(all);
	return err;
}

static cl_int CL_API_CALL capture_compile_program(
	cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
	cl_uint num_headers, const cl_program *headers, const char **header_names,
	void(CL_CALLBACK *notify)(cl_program, void *), void *user_data)
{
	save_options(program, options);
	char *all = with_arg_info(options);
	cl_int err = next->clCompileProgram(program, num_devices, devices, all ? all : options,
					    num_headers, headers, header_names, notify,
					    user_data);
	free(all);
	return err;
}

static cl_kernel CL_API_CALL capture_create_kernel(cl_program program, const char *name,
						   cl_int *errcode_ret)
{
	cl_kernel kernel = next->clCreateKernel(program, name, errcode_ret);
	pthread_mutex_lock(&lock);
	configure();
	if (kernel && st.enabled)
		kernel_add(kernel, program);
	pthread_mutex_unlock(&lock);
	return kernel;
}

static cl_int CL_API_CALL capture_create_kernels_in_program(cl_program program,
							    cl_uint num_kernels,
							    cl_kernel *kernels,
							    cl_uint *num_kernels_ret)
{
	cl_uint made = 0;
	cl_int err = next->clCreateKernelsInProgram(program, num_kernels, kernels, &made);
	if (num_kernels_ret)
		*num_kernels_ret = made;
	pthread_mutex_lock(&lock);
	configure();
	for (cl_uint i = 0; err == CL_SUCCESS && kernels && i < made && st.enabled; i++)
		kernel_add(kernels[i], program);
	pthread_mutex_unlock(&lock);
	return err;
}

/* A clone keeps the arguments already set (OpenCL 2.1). */
static cl_kernel CL_API_CALL capture_clone_kernel(cl_kernel source, cl_int *errcode_ret)
{
	cl_kernel kernel = next->clCloneKernel(source, errcode_ret);
	pthread_mutex_lock(&lock);
	struct kernel_rec *from = kernel && st.enabled ? kernel_find(source) : NULL;
	if (from) {
		cl_program program = from->program;
		kernel_add(kernel, program);
		struct kernel_rec *to = kernel_find(kernel);
		from = kernel_find(source); /* kernel_add may have moved the records */
		for (cl_uint a = 0; to && from && a < to->nargs && a < from->nargs; a++) {
			to->args[a] = from->args[a];
			if (from->args[a].bytes) {
				to->args[a].bytes = malloc(from->args[a].size ? from->args[a].size : 1);
				if (to->args[a].bytes)
					memcpy(to->args[a].bytes, from->args[a].bytes,
					       from->args[a].size);
				else
					to->args[a].set = false;
			}
		}
	}
	pthread_mutex_unlock(&lock);
	return kernel;
}

static cl_int CL_API_CALL capture_set_kernel_arg(cl_kernel kernel, cl_uint index, size_t size,
						 const void *value)
{
	cl_int err = next->clSetKernelArg(kernel, index, size, value);
	pthread_mutex_lock(&lock);
	struct kernel_rec *k = err == CL_SUCCESS && st.enabled ? kernel_find(kernel) : NULL;
	if (k && index < k->nargs) {
		struct arg_rec *a = &k->args[index];
		free(a->bytes);
		*a = (struct arg_rec){ .set = true, .size = size };
		if (value) {
			a->bytes = malloc(size ? size : 1);
			if (a->bytes)
				memcpy(a->bytes, value, size);
			else
				a->set = false;
		}
	}
	pthread_mutex_unlock(&lock);
	return err;
}

static cl_int CL_API_CALL capture_set_kernel_arg_svm_pointer(cl_kernel kernel, cl_uint index,
							     const void *value)
{
	cl_int err = next->clSetKernelArgSVMPointer(kernel, index, value);
	pthread_mutex_lock(&lock);
	struct kernel_rec *k = err == CL_SUCCESS && st.enabled ? kernel_find(kernel) : NULL;
	if (k && index < k->nargs) {
		free(k->args[index].bytes);
		k->args[index] = (struct arg_rec){ .set = true, .svm = true };
	}
	pthread_mutex_unlock(&lock);
	return err;
}

/* --- the launch --- */

static bool wanted(const char *kernel)
{
	if (st.nkernels == 0)
		return true;
	for (size_t i = 0; i < st.nkernels; i++)
		if (strcmp(st.kernels[i], kernel) == 0)
			return true;
	return false;
}

/* Whether the launch is new and its kernel has room for it; counts it if so. */
static bool first_of_its_shape(const struct program_rec *p, const struct kernel_rec *k,
			       cl_uint dims, const size_t *offset, const size_t *global,
			       const size_t *local)
{
	struct launch_key key = { .program = p->id, .kernel = k->name, .dims = dims,
				  .local_given = local != NULL };
	for (cl_uint d = 0; d < dims && d < 3; d++) {
		key.global[d] = global[d];
		key.local[d] = local ? local[d] : 0;
		key.offset[d] = offset ? offset[d] : 0;
	}
	unsigned of_kernel = 0;
	for (size_t i = 0; i < st.nlaunches; i++) {
		const struct launch_key *l = &st.launches[i];
		if (l->program != key.program || strcmp(l->kernel, key.kernel) != 0)
			continue;
		of_kernel++;
		if (l->dims == key.dims && l->local_given == key.local_given &&
		    memcmp(l->global, key.global, sizeof key.global) == 0 &&
		    memcmp(l->local, key.local, sizeof key.local) == 0 &&
		    memcmp(l->offset, key.offset, sizeof key.offset) == 0)
			return false;
	}
	if (of_kernel >= st.max_launches) {
		for (size_t i = 0; i < st.nfull; i++)
			if (strcmp(st.full[i], k->name) == 0)
				return false;
		st.full = grow(st.full, st.nfull + 1, sizeof *st.full);
		if ((st.full[st.nfull] = copy_string(k->name)) != NULL)
			st.nfull++;
		note("launches of %s (program %u) past its first %u shapes are not captured "
		     "(--max-launches)",
		     k->name, p->id, st.max_launches);
		return false;
	}
	key.kernel = copy_string(k->name);
	st.launches = grow(st.launches, st.nlaunches + 1, sizeof *st.launches);
	if (key.kernel)
		st.launches[st.nlaunches++] = key;
	return key.kernel != NULL;
}

/* What one argument is, as the manifest says it. */
struct arg_view {
	char name[128];
	char type[128]; /* spaces as '~' */
	cl_kernel_arg_address_qualifier space;
	cl_kernel_arg_type_qualifier qualifiers;
	cl_mem mem; /* a buffer: NULL for a NULL buffer */
	size_t size, origin;
	cl_mem parent;
	cl_mem_object_type mem_type;
	bool writable;
};

static void arg_info(cl_kernel kernel, cl_uint a, struct arg_view *v)
{
	next->clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_NAME, sizeof v->name - 1, v->name, NULL);
	next->clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_TYPE_NAME, sizeof v->type - 1, v->type,
				 NULL);
	next->clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof v->space,
				 &v->space, NULL);
	next->clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof v->qualifiers,
				 &v->qualifiers, NULL);
	for (char *c = v->type; *c; c++)
		if (*c == ' ')
			*c = '~';
	if (v->name[0] == '\0')
		snprintf(v->name, sizeof v->name, "arg%u", a);
}

/* Why argument a cannot be replayed, or NULL. */
static const char *unreplayable(const struct arg_rec *rec, const struct arg_view *v)
{
	if (!rec->set)
		return "it was never set";
	if (rec->svm)
		return "it is a shared virtual memory pointer (clSetKernelArgSVMPointer), whose "
		       "memory the layer cannot read";
	if (v->qualifiers & CL_KERNEL_ARG_TYPE_PIPE)
		return "it is a pipe";
	if (strncmp(v->type, "image", 5) == 0)
		return "it is an image";
	if (strcmp(v->type, "sampler_t") == 0)
		return "it is a sampler";
	if (v->type[0] == '\0')
		return "the driver does not say its type";
	return NULL;
}

static bool is_buffer(const struct arg_view *v)
{
	return (v->space == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
		v->space == CL_KERNEL_ARG_ADDRESS_CONSTANT) &&
	       strchr(v->type, '*') != NULL;
}

/* Reads a buffer argument's description. */
static void describe_buffer(struct arg_view *v)
{
	next->clGetMemObjectInfo(v->mem, CL_MEM_SIZE, sizeof v->size, &v->size, NULL);
	next->clGetMemObjectInfo(v->mem, CL_MEM_TYPE, sizeof v->mem_type, &v->mem_type, NULL);
	next->clGetMemObjectInfo(v->mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof v->parent, &v->parent,
				 NULL);
	next->clGetMemObjectInfo(v->mem, CL_MEM_OFFSET, sizeof v->origin, &v->origin, NULL);
}

static void hex(FILE *f, const unsigned char *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", bytes[i]);
	if (n == 0)
		fputs("-", f);
}

static void dims_line(FILE *f, const char *what, cl_uint dims, const size_t *v)
{
	fputs(what, f);
	for (cl_uint d = 0; d < dims; d++)
		fprintf(f, " %zu", v ? v[d] : (size_t)0);
	fputc('\n', f);
}

/* Captures one launch whole: the arguments and buffers before it, the launch itself (the
 * application's own call, made here), the buffers after it, then the manifest. Returns
 * the launch's status; *launched says whether the call was made. Called with the lock
 * held, so the application's other threads wait for it. */
static cl_int capture_launch(cl_command_queue queue, struct kernel_rec *k,
			     const struct program_rec *p, cl_uint dims, const size_t *offset,
			     const size_t *global, const size_t *local, cl_uint nwait,
			     const cl_event *wait, cl_event *event, bool *launched)
{
	*launched = false;
	struct arg_view *views = calloc(k->nargs ? k->nargs : 1, sizeof *views);
	if (views == NULL)
		return CL_SUCCESS;
	unsigned long long bytes = 0;
	const char *why = NULL;
	cl_uint bad = 0;
	for (cl_uint a = 0; a < k->nargs && why == NULL; a++) {
		arg_info(k->kernel, a, &views[a]);
		why = unreplayable(&k->args[a], &views[a]);
		bad = a;
		if (why == NULL && is_buffer(&views[a]) && k->args[a].bytes &&
		    k->args[a].size == sizeof(cl_mem)) {
			memcpy(&views[a].mem, k->args[a].bytes, sizeof(cl_mem));
			if (views[a].mem) {
				next->clGetMemObjectInfo(views[a].mem, CL_MEM_SIZE,
							 sizeof views[a].size, &views[a].size,
							 NULL);
				views[a].writable =
					views[a].space == CL_KERNEL_ARG_ADDRESS_GLOBAL &&
					!(views[a].qualifiers & CL_KERNEL_ARG_TYPE_CONST);
				bytes += views[a].size * (views[a].writable ? 2 : 1);
			}
		}
	}
	unsigned number = st.next_launch + 1;
	if (why) {
		note("launch of %s (program %u) not captured: argument %u (%s): %s", k->name, p->id,
		     bad, views[bad].name, why);
		free(views);
		return CL_SUCCESS;
	}
	if (st.bytes_written + bytes > st.max_bytes) {
		note("launch of %s (program %u) not captured: its buffers hold %llu bytes before "
		     "and after, and --max-bytes leaves %llu",
		     k->name, p->id, bytes, st.max_bytes - st.bytes_written);
		free(views);
		return CL_SUCCESS;
	}
	st.next_launch = number;
	char *dir = path_of("%s/raw/launches/%06u", st.dir, number);
	bool ok = dir && mkdir(dir, 0755) == 0;
	/* What the launch waits for, then everything before it on the queue, so that the
	 * bytes read are those the kernel will see. */
	if (ok && nwait)
		next->clWaitForEvents(nwait, wait);
	if (ok)
		next->clFinish(queue);
	for (cl_uint a = 0; a < k->nargs && ok; a++) {
		if (views[a].mem == NULL)
			continue;
		describe_buffer(&views[a]);
		if (views[a].mem_type != CL_MEM_OBJECT_BUFFER) {
			note("launch %u of %s not captured: argument %u (%s) is no buffer", number,
			     k->name, a, views[a].name);
			ok = false;
		}
		char *path = path_of("%s/arg%u.before", dir, a);
		ok = ok && path && save_buffer(queue, views[a].mem, views[a].size, path);
		free(path);
	}
	cl_int status = next->clEnqueueNDRangeKernel(queue, k->kernel, dims, offset, global, local,
						     nwait, wait, event);
	*launched = true;
	if (status != CL_SUCCESS || next->clFinish(queue) != CL_SUCCESS)
		ok = false;
	for (cl_uint a = 0; a < k->nargs && ok; a++) {
		if (views[a].mem == NULL || !views[a].writable)
			continue;
		char *path = path_of("%s/arg%u.after", dir, a);
		ok = path && save_buffer(queue, views[a].mem, views[a].size, path);
		free(path);
	}
	char *manifest = path_of("%s/launch.part", dir), *final = path_of("%s/launch", dir);
	FILE *f = ok && manifest ? fopen(manifest, "w") : NULL;
	if (f) {
		fprintf(f, "%s\nprogram %u\nkernel %s\n", RAWLAUNCH_MAGIC, p->id, k->name);
		dims_line(f, "global", dims, global);
		if (local)
			dims_line(f, "local", dims, local);
		else
			fputs("local none\n", f);
		dims_line(f, "offset", dims, offset);
		for (cl_uint a = 0; a < k->nargs; a++) {
			const struct arg_view *v = &views[a];
			const struct arg_rec *r = &k->args[a];
			fprintf(f, "arg %u ", a);
			if (is_buffer(v) && v->mem)
				fprintf(f, "buffer %s %s %s %" PRIxPTR " %zu %" PRIxPTR " %zu %d\n",
					v->name, v->type,
					v->space == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant"
										   : "global",
					(uintptr_t)v->mem, v->size, (uintptr_t)v->parent, v->origin,
					v->writable);
			else if (is_buffer(v))
				fprintf(f, "null %s %s %s\n", v->name, v->type,
					v->space == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant"
										   : "global");
			else if (v->space == CL_KERNEL_ARG_ADDRESS_LOCAL)
				fprintf(f, "local %s %s %zu\n", v->name, v->type, r->size);
			else {
				fprintf(f, "value %s %s ", v->name, v->type);
				hex(f, r->bytes, r->bytes ? r->size : 0);
				fputc('\n', f);
			}
		}
		ok = fclose(f) == 0 && rename(manifest, final) == 0;
	}
	if (ok)
		st.bytes_written += bytes;
	else if (dir)
		note("launch %u of %s (program %u) could not be saved whole in %s", number,
		     k->name, p->id, dir);
	free(views);
	free(manifest);
	free(final);
	free(dir);
	return status;
}

static cl_int CL_API_CALL capture_enqueue_nd_range_kernel(cl_command_queue queue, cl_kernel kernel,
							  cl_uint dims, const size_t *offset,
							  const size_t *global, const size_t *local,
							  cl_uint nwait, const cl_event *wait,
							  cl_event *event)
{
	pthread_mutex_lock(&lock);
	struct kernel_rec *k = st.enabled ? kernel_find(kernel) : NULL;
	const struct program_rec *p = k ? program_find(k->program) : NULL;
	bool take = p && k->name && wanted(k->name) && dims >= 1 && dims <= 3 && global &&
		    first_of_its_shape(p, k, dims, offset, global, local);
	if (take && !p->from_source) {
		note("launch of %s (program %u) not captured: the program was made from %s, "
		     "and a case needs its source",
		     k->name, p->id, p->origin);
		take = false;
	}
	cl_int status = CL_SUCCESS;
	bool launched = false;
	if (take)
		status = capture_launch(queue, k, p, dims, offset, global, local, nwait, wait,
					event, &launched);
	pthread_mutex_unlock(&lock);
	if (!launched)
		status = next->clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local,
						      nwait, wait, event);
	return status;
}

/* --- the layer's own entry points --- */

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
					       void *param_value, size_t *param_value_size_ret)
{
	static const char name[] = "clharness capture";
	const void *value;
	size_t size;
	cl_layer_api_version version = CL_LAYER_API_VERSION_100;
	if (param_name == CL_LAYER_API_VERSION) {
		value = &version;
		size = sizeof version;
	} else if (param_name == CL_LAYER_NAME) {
		value = name;
		size = sizeof name;
	} else {
		return CL_INVALID_VALUE;
	}
	if (param_value && param_value_size < size)
		return CL_INVALID_VALUE;
	if (param_value)
		memcpy(param_value, value, size);
	if (param_value_size_ret)
		*param_value_size_ret = size;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch *target,
					    cl_uint *num_entries_ret,
					    const cl_icd_dispatch **layer_dispatch_ret)
{
	size_t entries = sizeof ours / sizeof(void *);
	if (target == NULL || num_entries_ret == NULL || layer_dispatch_ret == NULL ||
	    num_entries < entries)
		return CL_INVALID_VALUE;
	next = target;
	ours = *target;
	ours.clCreateProgramWithSource = capture_create_program_with_source;
	ours.clCreateProgramWithBinary = capture_create_program_with_binary;
	ours.clCreateProgramWithIL = capture_create_program_with_il;
	ours.clCreateProgramWithBuiltInKernels = capture_create_program_with_built_in_kernels;
	ours.clLinkProgram = capture_link_program;
	ours.clBuildProgram = capture_build_program;
	ours.clCompileProgram = capture_compile_program;
	ours.clCreateKernel = capture_create_kernel;
	ours.clCreateKernelsInProgram = capture_create_kernels_in_program;
	ours.clCloneKernel = capture_clone_kernel;
	ours.clSetKernelArg = capture_set_kernel_arg;
	ours.clSetKernelArgSVMPointer = capture_set_kernel_arg_svm_pointer;
	ours.clEnqueueNDRangeKernel = capture_enqueue_nd_range_kernel;
	*num_entries_ret = (cl_uint)entries;
	*layer_dispatch_ret = &ours;
	return CL_SUCCESS;
}
