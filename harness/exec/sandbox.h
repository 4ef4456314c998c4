/* sandbox.h - confines a worker process that runs kernels for someone else: it can no
 * longer start a process, open a socket, trace or signal another process, or open a file
 * outside what its driver and its cases need.
 *
 * Two mechanisms of the Linux kernel, each doing what the other cannot:
 * - Landlock, for paths: reading beneath the system's libraries, the drivers' own files
 *   and the cases' kernel folders, writing beneath the drivers' caches, nothing else; no
 *   TCP; no signal and no abstract socket reaching outside the worker. Landlock confines
 *   the thread that asks and the threads it starts later, so it goes up first thing in
 *   the worker, before a driver starts its threads (sandbox_enter).
 * - seccomp-bpf, through libseccomp, for system calls: those no driver makes once loaded
 *   (execve, fork, socket, ptrace, kill of another process, ...) stop the worker
 *   (sandbox_enter); once the driver is set up, so is any system call made by code mapped
 *   after that, which is a kernel's own code, inline assembly and all (sandbox_seal).
 * A call the sandbox forbids stops the worker with a line on its output that
 * sandbox_stop_message reads back into the run's verdict.
 *
 * PoCL links each work-group function with the system linker, a process of its own: the
 * worker hands those links to a broker started before the sandbox (linkbroker.h). */
#ifndef CLH_SANDBOX_H
#define CLH_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/filter.h>

/* What a rule lets the worker do beneath a path. */
enum sandbox_access {
	SANDBOX_READ,	 /* read files, list folders */
	SANDBOX_WRITE,	 /* read, create, write, rename and remove */
	SANDBOX_DEVICE,	 /* read, write and control a device file (ioctl) */
	SANDBOX_EXECUTE, /* run a file (the link broker's linker alone) */
};

struct sandbox_rule {
	char *path;
	enum sandbox_access access;
};

struct sandbox_policy {
	struct sandbox_rule *rules;
	size_t count;
};

/* Adds a rule; a path that does not exist is left out (a rule needs a file to hold). */
void sandbox_policy_add(struct sandbox_policy *p, enum sandbox_access access, const char *path);
/* Adds what any worker's driver needs, whichever driver it is: the system's libraries,
 * the ICD loader's list of drivers, this process's own /proc, the device files and the
 * caches of the drivers this machine has (PoCL's kernel cache, NVIDIA's compute cache),
 * and the harness's program cache, which only a private one is written beside where the
 * worker has one (progcache_set_private). Creates the caches' folders where missing,
 * since a rule needs a folder to hold and a driver makes its cache only once confined. */
void sandbox_policy_add_system(struct sandbox_policy *p);
/* Adds reading the kernel file at `kernel_path` and beneath the folders an -I in
 * `options` names; with `folders`, also beneath the kernel's own folder and the working
 * folder, where a build looks for an #include it names relative to either. A grader
 * leaves them out: a submission lying beside the class's others may read its own file and
 * the folder the grader names with -I, its own, and nothing else. */
void sandbox_policy_add_sources(struct sandbox_policy *p, const char *kernel_path,
				const char *options, bool folders);
void sandbox_policy_free(struct sandbox_policy *p);

/* What this machine can confine a worker with. */
struct sandbox_support {
	bool seccomp;	  /* the kernel takes seccomp filters (and this build has libseccomp) */
	int landlock_abi; /* Landlock's ABI version; 0: none */
};

void sandbox_probe(struct sandbox_support *s);
/* NULL where workers are confined in full; else what is missing and what follows from it,
 * a sentence for a note ("this kernel has no Landlock (...), so a kernel may read and
 * write every file the harness can"). Caller frees. */
char *sandbox_shortfall(const struct sandbox_support *s);

/* In a fresh worker, before any driver call: starts the link broker (where a linker is
 * installed), then confines this process, and every process and thread it starts, for the
 * rest of its life, as far as the machine allows (sandbox_probe). Returns 0, or -1 with
 * *cause when a step the machine supports fails. */
int sandbox_enter(const struct sandbox_policy *p, char **cause);

/* In a worker confined by sandbox_enter, once its driver is set up (its libraries all
 * loaded) and before any kernel runs: from now on a system call made from code mapped
 * after this point stops the worker, whatever the call. A kernel compiled to native code
 * is mapped later; the driver's and the C library's code, which make the system calls a
 * driver needs, are mapped already. Returns 0, or -1 with *cause. */
int sandbox_seal(char **cause);

/* In the link broker (linkbroker.c), which runs the linker: confines it as sandbox_enter
 * does a worker, but for starting a process, with `p` (the worker's policy and the
 * linker's right to run) under Landlock ABI `abi` (0: none). */
int sandbox_confine_broker(const struct sandbox_policy *p, int abi, char **cause);

/* Whether a worker of a backend that confines its workers (`confines`) is confined: not
 * where the run's options ask for none (`unsandboxed`), nor under CLHARNESS_SANDBOX=off. */
bool sandbox_wanted(bool confines, bool unsandboxed);
/* Whether CLHARNESS_SANDBOX=off asks every command to run kernels unconfined. */
bool sandbox_switched_off(void);

/* An executable mapping: code the seal lets call the kernel. */
struct sandbox_code_range {
	uint64_t start, end; /* [start, end) */
};

/* The seal's filter (exposed for the unit suite): classic BPF over struct seccomp_data
 * that allows a call whose instruction pointer lies in one of the `n` ranges and traps any
 * other. Returns its *len instructions; caller frees. */
struct sock_filter *sandbox_code_filter(const struct sandbox_code_range *ranges, size_t n,
					size_t *len);

/* Whether sandbox_enter confined this process. */
bool sandbox_active(void);

/* The exit status of a worker the sandbox stopped. */
#define SANDBOX_EXIT_STATUS 159

/* In the parent: why the sandbox stopped a worker that ended with `exit_status` (-1: it
 * did not exit) or was killed by signal `signal` (0: none), having printed `printed`
 * (NULL: nothing); NULL when the sandbox did not stop it. "the kernel made a system call
 * the sandbox forbids: open (...)". Caller frees. */
char *sandbox_stop_message(int exit_status, int signal, const char *printed);

/* In the parent: the name of the system call for which the sandbox stopped a worker that
 * exited with `exit_status` having printed `printed`, and in *late whether code mapped
 * after the seal made it; NULL when the sandbox did not stop it. Caller frees. */
char *sandbox_stopped_call(int exit_status, const char *printed, bool *late);

/* The name of system call `number` on this machine ("open"), or its number in words.
 * Caller frees. */
char *sandbox_syscall_name(int number);

#endif
