/* backend.h - what every backend provides: targets to run on, and a way to build a case's
 * programs and execute its launches there. Adding a backend is adding a file and a line
 * to the registry in backend.c. */
#ifndef CLH_BACKEND_H
#define CLH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "case/plan.h"
#include "case/testcase.h"
#include "results/result.h"

/* What a device can run: a plan over these is a skip with its reason, not an OpenCL
 * error. A zero says the device did not tell. */
struct device_limits {
	unsigned compute_units;
	uint64_t max_work_group;
	uint64_t max_work_item[3]; /* per dimension */
	uint64_t local_mem;
	uint64_t global_mem;
	uint64_t max_alloc;
	uint64_t max_constant; /* bytes of one __constant buffer */
	unsigned max_constant_args;
	bool fp64; /* double */
	bool fp16; /* half arithmetic (cl_khr_fp16) */
	/* The -cl-std a program needs for launches whose global size is no multiple of the
	 * work-group size (20: CL2.0, 30: CL3.0); 0 where the device cannot launch them. */
	unsigned non_uniform_std;
};

/* One device a backend can run on, described without OpenCL types so the parent process
 * (which never touches OpenCL) can hold it. */
struct target {
	char *name;	/* stable short name: pocl-cpu, nvidia-h100 */
	char *type;	/* cpu, gpu, accelerator */
	char *device;	/* the device's own name */
	char *platform; /* platform name and version */
	char *driver;	/* driver version */
	char *opencl;	/* the device's OpenCL version */
	struct device_limits limits;
	unsigned platform_index; /* where the backend finds the device again in a new process */
	unsigned device_index;
	/* Its backend's capabilities (enum capability), set where the target is listed, so
	 * that whoever holds a target asks what it can do through target_can(). */
	unsigned capabilities;
};

/* What a backend can do. Code that treats targets differently asks for one of these
 * through backend_can() or target_can(), never a backend's name or a target's type, so
 * that a new backend is a set of these and a file. */
enum capability {
	/* Runs each case at its sim_sizes and sim_local, not its sizes: a launch costs it
	 * 10^3 to 10^4 times a device's, so launches are shrunk for it. */
	CAN_ONLY_SMALL_SIZES = 1u << 0,
	/* Its results carry findings (races, divergence, invalid accesses), each run judged
	 * against its golden's findings. */
	CAN_FIND = 1u << 1,
	/* Its kernel times are the kernel's own on the device, for bench and grading's speed
	 * checks; a simulation's or an instrumented kernel's are not. */
	CAN_TIME = 1u << 2,
	/* Runs each case in a session of its own, and in a fresh worker process unless
	 * renew() says the one the case before ran in will do, so that nothing one case
	 * leaves (Oclgrind's error budget is per process) changes what another reports. */
	CAN_ONLY_FRESH_SESSIONS = 1u << 3,
	/* Its drivers compile kernels inside the worker and may run them there as the
	 * machine's own code (a CPU device): its workers are confined (sandbox.h) unless the
	 * run's options say otherwise. A simulator interprets kernels, and runs none. */
	CAN_RUN_NATIVE_CODE = 1u << 4,
	/* Runs every work-item in one order, the same each run: a racy kernel's output is
	 * as much a part of its golden as its findings. A device's, instrumented or not,
	 * varies from run to run. */
	CAN_REPEAT = 1u << 5,
};

/* One parameter of a kernel, as the driver describes it (clGetKernelArgInfo). */
struct kernel_param {
	char *name;
	char *type;	    /* the driver's spelling: "float*", "uint" */
	enum arg_kind kind; /* a global or constant pointer is a buffer; local; or a scalar */
	bool read_only;	    /* a pointer to const or to constant memory: only read */
	bool constant;	    /* a pointer to constant memory */
};

struct kernel_sig {
	struct kernel_param *params;
	size_t count;
	/* The work-group size the kernel requires (reqd_work_group_size), a dimension each;
	 * all 0 where it requires none. */
	size_t reqd_local[3];
};

void kernel_sig_free(struct kernel_sig *sig);

struct backend_session;

/* What a worker is set up for, before its backend's first call there. */
struct worker_setup {
	bool timed; /* run_options.timed */
	/* run_options.private_cache: a folder of the run's own, where the drivers compile
	 * and the program cache keeps what the run builds; the shared caches are only read.
	 * NULL: the shared caches. */
	const char *private_cache;
};

#define BACKEND_LOST (-2)

struct backend {
	const char *name;
	unsigned capabilities; /* enum capability, or'ed */
	/* The name its one target has, for a backend that knows it without listing (NULL:
	 * names come from listing); lets --device name a backend that is unavailable. */
	const char *fixed_target;
	const char *fixed_type; /* that target's type, which --device may name too */
	/* Its targets are run only where a --device pattern names the backend
	 * (pocl-cpu+racecheck, racecheck): a plain run, `all` or a device's own name leaves
	 * them out, as they are each device again. */
	bool named_only;
	/* NULL when the backend can run here, else why not, saying what to install or set.
	 * Called in the parent, so it touches no OpenCL. NULL function: always available. */
	const char *(*unavailable)(void);
	/* Maps the backend's libraries into the parent, before it forks any worker, without
	 * calling anything in them (NULL: nothing to map): each fresh worker then finds them
	 * loaded and linked instead of linking them again, which for a simulator that starts
	 * a worker a case was a third of its time. */
	void (*preload)(void);
	/* Called first in each worker, before any other call of the backend there: sets what
	 * its drivers read from the environment for the run `setup` describes. NULL: nothing
	 * to set. */
	void (*prepare_worker)(const struct worker_setup *setup);
	/* Called in the parent with the cases a dispatcher will run, before any of its
	 * workers starts, for work a confined worker cannot do (NULL: none). */
	void (*prepare_cases)(struct test_case *const *cases, size_t ncases);
	/* The same for one kernel file built with a case's `options`, before a worker
	 * inspects it (NULL: nothing to do). */
	void (*prepare_file)(const char *path, const char *options);
	/* Undoes what preload made, when the dispatcher that called it closes (NULL:
	 * nothing to undo). */
	void (*unload)(void);
	/* Lists this backend's targets. Called in a worker process: the parent never loads an
	 * OpenCL driver, so a driver that crashes takes only a worker with it. */
	int (*list_targets)(struct target **targets, size_t *count, char **cause);
	/* Opens a target for a run of cases (context, queue, program cache). */
	int (*open)(const struct target *target, struct backend_session **session, char **cause);
	/* Builds every program of a case, once per target however many sizes run. Returns
	 * how many programs it compiled (0 when all were built before) and adds to *cached
	 * how many it loaded from the program cache, or returns -1 after filling `failure`
	 * (build-error with the log, or case-error). */
	int (*build)(struct backend_session *session, const struct test_case *tc,
		     unsigned *cached, struct result *failure);
	/* Runs the plan's launches `repeat` times, each from the initial contents `initial[b]`
	 * of every buffer b; afterwards `final[b]` holds what the device left in each output
	 * buffer. Adds each round's device time (from profiling events, all its launches) to
	 * round_ns[round], an array of `repeat` the caller zeroes. On failure fills `failure` and
	 * returns -1, or BACKEND_LOST when the session can run nothing more (a device fault
	 * leaves some drivers' contexts unusable): its worker then ends and a new one goes on
	 * with the next run. `settled` lists findings other runs have already shown as errors
	 * (NULL: none), which a simulator need not run again to classify. */
	int (*execute)(struct backend_session *session, const struct test_case *tc,
		       const struct plan *plan, void *const *initial, void **final, unsigned repeat,
		       uint64_t *round_ns, const struct finding_list *settled,
		       struct result *failure);
	/* Builds the program in `path` with build `options` besides the backend's own, and
	 * describes the parameters of its `kernel`, for checks that generate the arguments a
	 * user leaves out. Returns 0, or -1 after filling `failure` (build-error with the log,
	 * or case-error for a missing kernel). */
	int (*inspect)(struct backend_session *session, const char *path, const char *kernel,
		       const char *options, struct kernel_sig *sig, struct result *failure);
	void (*close)(struct backend_session *session);
	/* Readies this process for another session after this one, where it can: returns
	 * whether a later session here reports what it would in a fresh process, so that a
	 * simulator's next case may run here rather than in a fresh one (NULL: never). Called
	 * before close. */
	bool (*renew)(struct backend_session *session);
	/* Whether the session can check nothing more in this process (NULL: it always can):
	 * Oclgrind stops reporting for good once a process has met its diagnostics cap. The
	 * worker then ends after the run, and a fresh one goes on with the next. */
	bool (*spent)(const struct backend_session *session);
};

extern const struct backend backend_device;
extern const struct backend backend_oclgrind;
extern const struct backend backend_racecheck;

/* Every backend, in the order a run visits them. */
extern const struct backend *const backends[];
extern const size_t backend_count;

void target_free(struct target *t);

/* Whether backend b, or the backend target t was listed by, can do `what`. */
bool backend_can(const struct backend *b, enum capability what);
bool target_can(const struct target *t, enum capability what);

#endif
