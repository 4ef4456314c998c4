/* sandbox.c - confines a worker that runs kernels for someone else (sandbox.h). */
#include "config.h"

#include "exec/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/directives.h"
#include "base/util.h"
#include "exec/icd.h"
#include "exec/linkbroker.h"
#include "exec/progcache.h"

/* Landlock, declared here in full: Debian's kernel headers stop at its second ABI, and
 * the kernels that run this may offer up to the seventh. A field the running kernel does
 * not know must be zero (sandbox_enter asks its ABI first). */
struct landlock_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;	     /* ABI 6 */
};

struct landlock_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH	  1
#define LL_FS_EXECUTE		  (1ull << 0)
#define LL_FS_WRITE_FILE	  (1ull << 1)
#define LL_FS_READ_FILE		  (1ull << 2)
#define LL_FS_READ_DIR		  (1ull << 3)
#define LL_FS_REMOVE_DIR	  (1ull << 4)
#define LL_FS_REMOVE_FILE	  (1ull << 5)
#define LL_FS_MAKE_CHAR		  (1ull << 6)
#define LL_FS_MAKE_DIR		  (1ull << 7)
#define LL_FS_MAKE_REG		  (1ull << 8)
#define LL_FS_MAKE_SOCK		  (1ull << 9)
#define LL_FS_MAKE_FIFO		  (1ull << 10)
#define LL_FS_MAKE_BLOCK	  (1ull << 11)
#define LL_FS_MAKE_SYM		  (1ull << 12)
#define LL_FS_REFER		  (1ull << 13) /* ABI 2 */
#define LL_FS_TRUNCATE		  (1ull << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV		  (1ull << 15) /* ABI 5 */
#define LL_NET_BIND_TCP		  (1ull << 0)  /* ABI 4 */
#define LL_NET_CONNECT_TCP	  (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX	  (1ull << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL		  (1ull << 1)

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule	    445
#define SYS_landlock_restrict_self  446
#endif

/* What SECCOMP_RET_DATA tells the SIGSYS handler about the filter that stopped a call:
 * libseccomp's TRAP carries none, so the filter of forbidden calls says 0; where both
 * filters stop a call, the later one, of late code, is the one that speaks. */
#define STOP_FORBIDDEN 0 /* a call no driver makes once loaded */
#define STOP_LATE_CODE 2 /* any call, made from code mapped after the seal */
#define STOP_MARK      "clharness-sandbox: stopped system call "

static bool entered;

bool sandbox_active(void)
{
	return entered;
}

bool sandbox_switched_off(void)
{
	const char *own = getenv("CLHARNESS_SANDBOX");
	return own && strcmp(own, "off") == 0;
}

bool sandbox_wanted(bool confines, bool unsandboxed)
{
	return confines && !unsandboxed && !sandbox_switched_off();
}

void sandbox_policy_add(struct sandbox_policy *p, enum sandbox_access what, const char *path)
{
	if (path == NULL || *path == '\0' || access(path, F_OK) != 0)
		return;
	for (size_t i = 0; i < p->count; i++)
		if (p->rules[i].access == what && strcmp(p->rules[i].path, path) == 0)
			return;
	p->rules = xreallocarray(p->rules, p->count + 1, sizeof *p->rules);
	p->rules[p->count++] = (struct sandbox_rule){ xstrdup(path), what };
}

void sandbox_policy_free(struct sandbox_policy *p)
{
	for (size_t i = 0; p && i < p->count; i++)
		free(p->rules[i].path);
	if (p)
		free(p->rules);
}

/* A driver's cache: the value of the variable `own` where it is set, else `xdg_beneath`
 * under $XDG_CACHE_HOME or `home_beneath` under $HOME (each may be NULL). Caller frees. */
static char *cache_folder(const char *own, const char *xdg_beneath, const char *home_beneath)
{
	const char *set = own ? getenv(own) : NULL;
	if (set && *set == '/')
		return xstrdup(set);
	const char *xdg = getenv("XDG_CACHE_HOME");
	if (xdg_beneath && xdg && *xdg == '/')
		return xasprintf("%s/%s", xdg, xdg_beneath);
	const char *home = getenv("HOME");
	if (home_beneath && home && *home == '/')
		return xasprintf("%s/%s", home, home_beneath);
	return NULL;
}

/* What every driver may read, whichever it is, and why. */
static const struct {
	const char *path;
	const char *why;
} system_reads[] = {
	{ "/usr", "libraries, the drivers' data, compilers' headers" },
	{ "/lib", "libraries, where /lib is no link to /usr/lib" },
	{ "/lib64", "the dynamic linker" },
	{ "/lib32", "libraries of other word sizes" },
	{ "/libx32", "libraries of other word sizes" },
	{ "/etc/ld.so.cache", "where the dynamic linker finds a library a driver loads" },
	{ "/etc/OpenCL", "the ICD loader's vendor files" },
	{ "/etc/localtime", "the C library's time zone" },
	{ "/etc/nvidia", "NVIDIA's application profiles" },
	{ "/sys/devices", "cores, caches, memory and PCI devices (PoCL's hwloc, NVIDIA)" },
	{ "/sys/bus", "PCI devices, by bus" },
	{ "/sys/class", "devices, by class" },
	{ "/sys/fs/cgroup", "the cores and memory this process may use" },
	{ "/sys/kernel/mm", "huge pages" },
	{ "/proc/self", "this process's own maps, status and limits" },
	{ "/proc/cpuinfo", "the processor's features" },
	{ "/proc/meminfo", "memory" },
	{ "/proc/stat", "cores" },
	{ "/proc/devices", "device numbers (NVIDIA)" },
	{ "/proc/sys/kernel", "the kernel's settings" },
	{ "/proc/sys/vm", "the kernel's memory settings" },
	{ "/proc/driver", "drivers' parameters (NVIDIA)" },
	{ "/dev/urandom", "random numbers" },
};

/* Reading beneath the folder a driver library named by path lies in, two levels down
 * (/opt/rocm-6.0 for /opt/rocm-6.0/lib/libamdocl64.so), where its data lies too. */
static void add_driver_folder(const char *library, void *ctx)
{
	if (library[0] != '/')
		return; /* found through the dynamic linker, beneath /usr or /lib */
	const char *second = strchr(library + 1, '/');
	const char *third = second ? strchr(second + 1, '/') : NULL;
	char *top = xstrndup(library, third ? (size_t)(third - library) : strlen(library));
	sandbox_policy_add(ctx, SANDBOX_READ, top);
	free(top);
}

void sandbox_policy_add_system(struct sandbox_policy *p)
{
	for (size_t i = 0; i < sizeof system_reads / sizeof *system_reads; i++)
		sandbox_policy_add(p, SANDBOX_READ, system_reads[i].path);
	sandbox_policy_add(p, SANDBOX_READ, icd_vendors_dir());
	icd_each_library(add_driver_folder, p);
	sandbox_policy_add(p, SANDBOX_DEVICE, "/dev/null");

	/* PoCL's kernel cache, where it compiles and links each kernel, as PoCL 3 names it. */
	char *pocl = cache_folder("POCL_CACHE_DIR", "pocl/kcache", ".cache/pocl/kcache");
	if (pocl) {
		(void)make_dirs(pocl);
		sandbox_policy_add(p, SANDBOX_WRITE, pocl);
		free(pocl);
	}
	/* NVIDIA's driver: its device files and the compute cache where it keeps the code it
	 * compiled, on a machine that has them. */
	if (access("/dev/nvidiactl", F_OK) == 0) {
		glob_t found;
		if (glob("/dev/nvidia*", 0, NULL, &found) == 0) {
			for (size_t i = 0; i < found.gl_pathc; i++)
				sandbox_policy_add(p, SANDBOX_DEVICE, found.gl_pathv[i]);
			globfree(&found);
		}
		const char *home = getenv("HOME");
		if (home && *home == '/') {
			char *profiles = xasprintf("%s/.nv", home); /* its user's profiles */
			sandbox_policy_add(p, SANDBOX_READ, profiles);
			free(profiles);
		}
		char *nv = cache_folder("CUDA_CACHE_PATH", NULL, ".nv/ComputeCache");
		if (nv) {
			(void)make_dirs(nv);
			sandbox_policy_add(p, SANDBOX_WRITE, nv);
			free(nv);
		}
	}
	/* The program cache: a run with one of its own writes there alone, and only reads
	 * the shared one, so that what it leaves reaches no other run. */
	char *programs = progcache_dir();
	const char *own = progcache_private_dir();
	if (programs) {
		(void)make_dirs(programs);
		sandbox_policy_add(p, own ? SANDBOX_READ : SANDBOX_WRITE, programs);
		free(programs);
	}
	if (own) {
		(void)make_dirs(own);
		sandbox_policy_add(p, SANDBOX_WRITE, own);
	}
}

void sandbox_policy_add_sources(struct sandbox_policy *p, const char *kernel_path,
				const char *options, bool folders)
{
	sandbox_policy_add(p, SANDBOX_READ, kernel_path);
	if (folders) {
		char *dir = xstrdup(kernel_path);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		sandbox_policy_add(p, SANDBOX_READ, slash ? (*dir ? dir : "/") : ".");
		sandbox_policy_add(p, SANDBOX_READ, ".");
		free(dir);
	}
	char **dirs;
	size_t n = directives_include_folders(options, &dirs);
	for (size_t i = 0; i < n; i++)
		sandbox_policy_add(p, SANDBOX_READ, dirs[i]);
	strings_free(dirs, (long)n);
}

/* The Landlock ABI of the running kernel; 0 where it has none or has it switched off. */
static int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
	return abi > 0 ? (int)abi : 0;
}

void sandbox_probe(struct sandbox_support *s)
{
	/* PR_GET_SECCOMP fails with EINVAL on a kernel built without seccomp. */
	s->seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp_api_get() >= 1;
	s->landlock_abi = landlock_abi();
}

char *sandbox_shortfall(const struct sandbox_support *s)
{
	if (!s->seccomp && s->landlock_abi == 0)
		return xstrdup(
			"this Linux kernel offers neither seccomp filters nor Landlock, so a "
			"kernel compiled to native code runs with every right the harness "
			"has: it may read and write its files, start processes and reach "
			"the network");
	if (!s->seccomp)
		return xstrdup("this Linux kernel takes no seccomp filters, so a kernel compiled "
			       "to native code may start processes, open sockets and signal "
			       "other processes (Landlock still keeps it from the harness's "
			       "files)");
	if (s->landlock_abi == 0)
		return xstrdup("this Linux kernel has no Landlock (Linux 5.13 or later, with "
			       "landlock in its lsm= list), so a kernel compiled to native code "
			       "may read and write every file the harness can (seccomp still "
			       "keeps it from starting processes and reaching the network)");
	return NULL;
}

/* The Landlock rights a rule's kind gives, of those the ABI handles; a file takes only
 * the rights that apply to files. */
static uint64_t rule_rights(enum sandbox_access access, bool is_dir, uint64_t handled)
{
	const uint64_t read = LL_FS_READ_FILE | LL_FS_READ_DIR;
	const uint64_t write = read | LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE |
			       LL_FS_MAKE_DIR | LL_FS_MAKE_REG | LL_FS_REFER | LL_FS_TRUNCATE;
	uint64_t rights = access == SANDBOX_READ      ? read
			  : access == SANDBOX_WRITE   ? write
			  : access == SANDBOX_EXECUTE ? LL_FS_EXECUTE | LL_FS_READ_FILE
						      : LL_FS_READ_FILE | LL_FS_WRITE_FILE |
								LL_FS_TRUNCATE | LL_FS_IOCTL_DEV;
	if (!is_dir)
		rights &= LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE |
			  LL_FS_IOCTL_DEV;
	return rights & handled;
}

/* Confines this thread, and those it starts, to the policy's paths; no TCP, and on
 * kernels that scope them, no signal or abstract socket reaching outside. */
static int landlock_confine(const struct sandbox_policy *p, int abi, char **cause)
{
	struct landlock_attr attr = { 0 };
	attr.handled_access_fs = LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE |
				 LL_FS_READ_DIR | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE |
				 LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR | LL_FS_MAKE_REG |
				 LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK |
				 LL_FS_MAKE_SYM;
	if (abi >= 2)
		attr.handled_access_fs |= LL_FS_REFER;
	if (abi >= 3)
		attr.handled_access_fs |= LL_FS_TRUNCATE;
	if (abi >= 4)
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
	if (abi >= 5)
		attr.handled_access_fs |= LL_FS_IOCTL_DEV;
	if (abi >= 6)
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
	int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (ruleset < 0) {
		*cause = xasprintf("Landlock refused a ruleset: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < p->count; i++) {
		int fd = open(p->rules[i].path, O_PATH | O_CLOEXEC);
		if (fd < 0)
			continue; /* gone since it was added: nothing there to reach */
		struct stat st;
		bool is_dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
		struct landlock_beneath rule = {
			rule_rights(p->rules[i].access, is_dir, attr.handled_access_fs), fd
		};
		long added = rule.allowed_access ? syscall(SYS_landlock_add_rule, ruleset,
							   LL_RULE_PATH_BENEATH, &rule, 0)
						 : 0;
		int saved = errno;
		close(fd);
		if (added < 0) {
			*cause = xasprintf("Landlock refused a rule for %s: %s", p->rules[i].path,
					   strerror(saved));
			close(ruleset);
			return -1;
		}
	}
	long confined = syscall(SYS_landlock_restrict_self, ruleset, 0);
	int saved = errno;
	close(ruleset);
	if (confined < 0) {
		*cause = xasprintf("Landlock could not confine the worker: %s", strerror(saved));
		return -1;
	}
	return 0;
}

/* System calls no driver makes once loaded, each a way out of the worker: starting a
 * program or a process, a socket, reaching into or signalling another process, the
 * kernel's own administration, and io_uring, whose requests no filter sees. open and creat
 * are the old calls the C library no longer makes (it opens with openat), so only code
 * of its own makes them. */
static const int forbidden_calls[] = {
	SCMP_SYS(execve),
	SCMP_SYS(execveat),
	SCMP_SYS(fork),
	SCMP_SYS(vfork),
	SCMP_SYS(open),
	SCMP_SYS(creat),
	SCMP_SYS(ptrace),
	SCMP_SYS(process_vm_readv),
	SCMP_SYS(process_vm_writev),
	SCMP_SYS(pidfd_getfd),
	SCMP_SYS(pidfd_send_signal),
	SCMP_SYS(kcmp),
	SCMP_SYS(tkill),
	SCMP_SYS(setsid),
	SCMP_SYS(setpgid),
	SCMP_SYS(mount),
	SCMP_SYS(umount2),
	SCMP_SYS(pivot_root),
	SCMP_SYS(chroot),
	SCMP_SYS(unshare),
	SCMP_SYS(setns),
	SCMP_SYS(swapon),
	SCMP_SYS(swapoff),
	SCMP_SYS(reboot),
	SCMP_SYS(kexec_load),
	SCMP_SYS(kexec_file_load),
	SCMP_SYS(init_module),
	SCMP_SYS(finit_module),
	SCMP_SYS(delete_module),
	SCMP_SYS(bpf),
	SCMP_SYS(perf_event_open),
	SCMP_SYS(userfaultfd),
	SCMP_SYS(keyctl),
	SCMP_SYS(add_key),
	SCMP_SYS(request_key),
	SCMP_SYS(io_uring_setup),
	SCMP_SYS(io_uring_enter),
	SCMP_SYS(io_uring_register),
	SCMP_SYS(acct),
	SCMP_SYS(quotactl),
	SCMP_SYS(syslog),
	SCMP_SYS(settimeofday),
	SCMP_SYS(clock_settime),
	SCMP_SYS(clock_adjtime),
	SCMP_SYS(adjtimex),
	SCMP_SYS(sethostname),
	SCMP_SYS(setdomainname),
	SCMP_SYS(iopl),
	SCMP_SYS(ioperm),
	SCMP_SYS(open_by_handle_at),
	SCMP_SYS(name_to_handle_at),
	SCMP_SYS(fanotify_init),
	SCMP_SYS(mknod),
	SCMP_SYS(mknodat),
};

/* The SIGSYS a filter raises: says which call was stopped, and by which filter, on the
 * worker's output, and ends the worker. Only async-signal-safe calls. */
static void on_stopped_call(int signo, siginfo_t *info, void *context)
{
	(void)signo;
	(void)context;
	char line[96];
	size_t len = strlen(STOP_MARK);
	memcpy(line, STOP_MARK, len);
	char digits[16];
	size_t n = 0;
	unsigned number = info->si_syscall < 0 ? 0 : (unsigned)info->si_syscall;
	do
		digits[n++] = (char)('0' + number % 10);
	while ((number /= 10) > 0 && n < sizeof digits);
	while (n > 0)
		line[len++] = digits[--n];
	const char *from = info->si_errno == STOP_LATE_CODE ? " from late code\n" : " forbidden\n";
	size_t from_len = strlen(from);
	memcpy(line + len, from, from_len);
	len += from_len;
	/* A line of its own, whatever the driver printed last. */
	(void)!write(STDERR_FILENO, "\n", 1);
	(void)!write(STDERR_FILENO, line, len);
	syscall(SYS_exit_group, SANDBOX_EXIT_STATUS);
}

static int catch_stopped_calls(char **cause)
{
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_stopped_call;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) < 0) {
		*cause = xasprintf("cannot catch SIGSYS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* A comparison of a call's first argument, every field set (libseccomp's SCMP_A0 leaves
 * one to the compiler, which -Wextra names). */
static struct scmp_arg_cmp first_arg(enum scmp_compare op, uint64_t a, uint64_t b)
{
	return (struct scmp_arg_cmp){ .arg = 0, .op = op, .datum_a = a, .datum_b = b };
}

/* Loads the filter of forbidden calls, for this process and those it starts. `broker`:
 * the link broker's, which starts the linker and so may fork and execve. */
static int seccomp_confine(bool broker, char **cause)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL) {
		*cause = xstrdup("libseccomp could not make a filter");
		return -1;
	}
	const uint32_t stop = SCMP_ACT_TRAP;
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, stop);
	/* A tree of system call numbers rather than a list: every call a driver makes passes
	 * the filter, NVIDIA's thousands of ioctls among them. */
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	pid_t self = getpid();
	for (size_t i = 0; rc == 0 && i < sizeof forbidden_calls / sizeof *forbidden_calls; i++) {
		int call = forbidden_calls[i];
		if (broker &&
		    (call == SCMP_SYS(execve) || call == SCMP_SYS(fork) || call == SCMP_SYS(vfork)))
			continue;
		if (call < 0)
			continue; /* not on this architecture */
		rc = seccomp_rule_add(ctx, stop, call, 0);
	}
	/* A process of its own, not a thread: what starts a program. clone3 hides its flags
	 * from the filter, so it fails as if the kernel lacked it and the C library falls back
	 * to clone for its threads. */
	if (rc == 0 && !broker)
		rc = seccomp_rule_add(ctx, stop, SCMP_SYS(clone), 1,
				      first_arg(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	/* Sockets fail as if refused: NVIDIA's driver asks for one as it sets itself up, to
	 * reach an MPS daemon, and goes on without. A kernel's own call stops the worker
	 * (sandbox_seal). */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 0);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socketpair), 0);
	/* Signals to itself only: a driver raises some at its own threads. */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, stop, SCMP_SYS(kill), 1,
				      first_arg(SCMP_CMP_NE, self, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, stop, SCMP_SYS(tgkill), 1,
				      first_arg(SCMP_CMP_NE, self, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, stop, SCMP_SYS(rt_sigqueueinfo), 1,
				      first_arg(SCMP_CMP_NE, self, 0));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, stop, SCMP_SYS(rt_tgsigqueueinfo), 1,
				      first_arg(SCMP_CMP_NE, self, 0));
	/* The handler that names a stopped call stays, whoever asks to replace it: code that
	 * did could go on after a stopped call. LLVM asks, as it takes every fatal signal to
	 * print its stack, so the call succeeds without doing anything. */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(0), SCMP_SYS(rt_sigaction), 1,
				      first_arg(SCMP_CMP_EQ, SIGSYS, 0));
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0) {
		*cause = xasprintf("cannot make or load the seccomp filter: %s", strerror(-rc));
		return -1;
	}
	return 0;
}

int sandbox_enter(const struct sandbox_policy *p, char **cause)
{
	struct sandbox_support support;
	sandbox_probe(&support);
	if (!support.seccomp && support.landlock_abi == 0)
		return 0;
	/* Both mechanisms ask for it of an unprivileged process, and it keeps a program the
	 * worker could still run from gaining rights. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		*cause = xasprintf("cannot set no_new_privs: %s", strerror(errno));
		return -1;
	}
	if (support.seccomp && catch_stopped_calls(cause) < 0)
		return -1;
	/* Before this process is confined: the broker is confined by a policy of its own. */
	if (linkbroker_start(p, support.landlock_abi, cause) < 0)
		return -1;
	if (support.landlock_abi > 0 && landlock_confine(p, support.landlock_abi, cause) < 0)
		return -1;
	if (support.seccomp && seccomp_confine(false, cause) < 0)
		return -1;
	entered = true;
	return 0;
}

int sandbox_confine_broker(const struct sandbox_policy *p, int abi, char **cause)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		*cause = xasprintf("cannot set no_new_privs: %s", strerror(errno));
		return -1;
	}
	if (abi > 0 && landlock_confine(p, abi, cause) < 0)
		return -1;
	struct sandbox_support support;
	sandbox_probe(&support);
	if (support.seccomp && seccomp_confine(true, cause) < 0)
		return -1;
	return 0;
}

/* The executable mappings of this process, merged where they touch. */
static size_t code_ranges(struct sandbox_code_range **out)
{
	*out = NULL;
	FILE *maps = fopen("/proc/self/maps", "r");
	if (maps == NULL)
		return 0;
	size_t n = 0;
	char line[4096];
	while (fgets(line, sizeof line, maps)) {
		unsigned long long start, end;
		char perms[8];
		if (sscanf(line, "%llx-%llx %7s", &start, &end, perms) != 3 || perms[2] != 'x')
			continue;
		if (n > 0 && (*out)[n - 1].end == start) {
			(*out)[n - 1].end = end;
			continue;
		}
		*out = xreallocarray(*out, n + 1, sizeof **out);
		(*out)[n++] = (struct sandbox_code_range){ start, end };
	}
	fclose(maps);
	return n;
}

/* Each range is a block of 11 instructions comparing the instruction pointer's high and
 * low words; jumps are forward, within the block or to the next. */
#define IP_LO	    offsetof(struct seccomp_data, instruction_pointer)
#define IP_HI	    (IP_LO + 4)
#define RANGE_BLOCK 11

struct sock_filter *sandbox_code_filter(const struct sandbox_code_range *ranges, size_t n,
					size_t *len)
{
	struct sock_filter *f = xcalloc(n * RANGE_BLOCK + 1, sizeof *f);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t s_hi = (uint32_t)(ranges[i].start >> 32), s_lo = (uint32_t)ranges[i].start;
		uint32_t e_hi = (uint32_t)(ranges[i].end >> 32), e_lo = (uint32_t)ranges[i].end;
		struct sock_filter block[RANGE_BLOCK] = {
			/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_HI),
			/* 1: hi < s_hi: next */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, s_hi, 0, 9),
			/* 2: hi > e_hi: next */ BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, e_hi, 8, 0),
			/* 3: hi != s_hi: skip the low word's start */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, s_hi, 0, 2),
			/* 4 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO),
			/* 5: lo < s_lo: next */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, s_lo, 0, 5),
			/* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_HI),
			/* 7: hi < e_hi: inside */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, e_hi, 0, 2),
			/* 8 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO),
			/* 9: lo >= e_lo: next */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, e_lo, 1, 0),
			/* 10 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		memcpy(f + k, block, sizeof block);
		k += RANGE_BLOCK;
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP | STOP_LATE_CODE);
	*len = k;
	return f;
}

int sandbox_seal(char **cause)
{
	if (!entered)
		return 0;
	struct sandbox_support support;
	sandbox_probe(&support);
	if (!support.seccomp)
		return 0;
	struct sandbox_code_range *ranges;
	size_t n = code_ranges(&ranges);
	/* The C library's code first: nearly every call comes from it, and the filter then
	 * tests its one range rather than them all, on each of a driver's many calls. */
	uintptr_t libc = (uintptr_t)&syscall;
	for (size_t i = 1; i < n; i++)
		if (ranges[i].start <= libc && libc < ranges[i].end) {
			struct sandbox_code_range first = ranges[i];
			memmove(ranges + 1, ranges, i * sizeof *ranges);
			ranges[0] = first;
			break;
		}
	if (n == 0) {
		*cause = xstrdup("cannot read this process's code mappings in /proc/self/maps");
		return -1;
	}
	size_t len;
	struct sock_filter *filter = sandbox_code_filter(ranges, n, &len);
	free(ranges);
	struct sock_fprog prog = { .len = (unsigned short)len, .filter = filter };
	/* Every thread: the driver's, which run the kernels, were started before. */
	long loaded = len <= BPF_MAXINSNS ? syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
						    SECCOMP_FILTER_FLAG_TSYNC, &prog)
					  : (errno = E2BIG, -1);
	int saved = errno;
	free(filter);
	if (loaded != 0) {
		*cause = loaded > 0
				 ? xasprintf("thread %ld could not take the seccomp filter", loaded)
				 : xasprintf("cannot load the seccomp filter of code ranges: %s",
					     strerror(saved));
		return -1;
	}
	return 0;
}

char *sandbox_syscall_name(int number)
{
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
	return name ? name : xasprintf("number %d", number);
}

char *sandbox_stopped_call(int exit_status, const char *printed, bool *late)
{
	if (exit_status != SANDBOX_EXIT_STATUS || printed == NULL)
		return NULL;
	const char *mark = NULL;
	for (const char *at = printed; (at = strstr(at, STOP_MARK)) != NULL; at++)
		mark = at;
	int number;
	char how[16];
	if (mark == NULL || sscanf(mark + strlen(STOP_MARK), "%d %15s", &number, how) != 2)
		return NULL;
	*late = strcmp(how, "from") == 0;
	return sandbox_syscall_name(number);
}

char *sandbox_stop_message(int exit_status, int signal, const char *printed)
{
	if (signal == SIGSYS)
		return xstrdup("the worker was stopped by the sandbox (SIGSYS) for a system call "
			       "it forbids, before it could say which");
	bool late;
	char *name = sandbox_stopped_call(exit_status, printed, &late);
	if (name == NULL)
		return NULL;
	char *message =
		late ? xasprintf("the kernel made a system call the sandbox forbids: %s (from "
				 "its own code, as inline assembly does; a kernel may make no "
				 "system call of its own)",
				 name)
		     : xasprintf("the kernel made a system call the sandbox forbids: %s (a "
				 "kernel's worker may start no process, open no socket and reach "
				 "no other process; if the kernel holds no inline assembly, its "
				 "driver made the call, which the sandbox does not allow for: run "
				 "with CLHARNESS_SANDBOX=off to confirm)",
				 name);
	free(name);
	return message;
}
