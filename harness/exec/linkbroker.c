/* linkbroker.c - runs the system linker for a sandboxed worker's driver (linkbroker.h). */
#include "config.h"

#include "exec/linkbroker.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

extern char **environ;

/* The largest request or reply: a link's arguments are a few hundred bytes. */
#define MESSAGE_MAX   (256 * 1024)
#define BROKERED_MAX  64
#define REQUEST_SPAWN 'S'
#define REQUEST_WAIT  'W'

/* In the worker: its ends of the broker's pipes (-1: no broker), the processes the broker
 * started for it, and a lock, since a driver may link from several threads. */
static int request_fd = -1, reply_fd = -1;
static pid_t brokered[BROKERED_MAX];
static size_t nbrokered;
static pthread_mutex_t broker_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the real path `real` is one of `dirs` or lies beneath one. */
static bool real_within(const char *real, char *const *dirs, size_t ndirs)
{
	for (size_t i = 0; real && i < ndirs; i++) {
		size_t len = strlen(dirs[i]);
		if (strncmp(real, dirs[i], len) == 0 && (real[len] == '\0' || real[len] == '/'))
			return true;
	}
	return false;
}

/* Whether `path`, which may not exist yet, names a file inside one of `dirs` (real
 * paths): its folder's real path lies beneath one, and it is no symbolic link. */
static bool lies_within(const char *path, char *const *dirs, size_t ndirs)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return false;
	char *copy = xstrdup(path);
	char *slash = strrchr(copy, '/');
	char *folder = slash == NULL   ? realpath(".", NULL)
		       : slash == copy ? xstrdup("/")
				       : (*slash = '\0', realpath(copy, NULL));
	free(copy);
	bool within = real_within(folder, dirs, ndirs);
	free(folder);
	return within;
}

/* Whether `word` is made only of the characters of a library's or an emulation's name. */
static bool plain_name(const char *word)
{
	if (*word == '\0')
		return false;
	for (const char *c = word; *c; c++)
		if (!(('a' <= *c && *c <= 'z') || ('A' <= *c && *c <= 'Z') ||
		      ('0' <= *c && *c <= '9') || strchr("_.+-", *c)))
			return false;
	return true;
}

/* Options of a driver's link that take no argument and change only the library made. */
static const char *const plain_options[] = {
	"-shared",
	"--as-needed",
	"--no-as-needed",
	"--build-id",
	"--eh-frame-hdr",
	"--hash-style=both",
	"--hash-style=gnu",
	"--hash-style=sysv",
	"-Bsymbolic",
	"--no-undefined",
	"--enable-new-dtags",
	"--disable-new-dtags",
	"-pie",
	"--no-relax",
	"-s",
	"--strip-all",
};

/* Keywords -z takes that only shape the library made. */
static const char *const z_keywords[] = { "relro",	 "norelro", "now",	"lazy",
					  "noexecstack", "defs",    "nodelete", "text" };

static bool listed(const char *word, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, list[i]) == 0)
			return true;
	return false;
}

char *linkbroker_refusal(const char *linker, const char *path, char *const argv[],
			 char *const *write_dirs, size_t nwrite)
{
	char *real = path ? realpath(path, NULL) : NULL;
	bool is_linker = real && linker && strcmp(real, linker) == 0;
	free(real);
	if (!is_linker)
		return xasprintf(
			"the sandbox lets a driver run the system linker (%s) and no other "
			"program, and %s was asked for",
			LINKBROKER_LINKER, path ? path : "no program");
	for (size_t i = 1; argv[i]; i++) {
		const char *a = argv[i];
		const char *next = argv[i + 1];
		if (listed(a, plain_options, sizeof plain_options / sizeof *plain_options))
			continue;
		if (strcmp(a, "-m") == 0 && next && plain_name(next)) {
			i++;
			continue;
		}
		if (strcmp(a, "-z") == 0 && next &&
		    listed(next, z_keywords, sizeof z_keywords / sizeof *z_keywords)) {
			i++;
			continue;
		}
		if (strcmp(a, "-o") == 0 && next) {
			if (!lies_within(next, write_dirs, nwrite))
				return xasprintf("the linker may write only into the driver's "
						 "cache, and was asked to write %s",
						 next);
			i++;
			continue;
		}
		if (strncmp(a, "-l", 2) == 0 && plain_name(a + 2))
			continue;
		if (strncmp(a, "-L", 2) == 0 && a[2] != '\0') {
			/* A folder the worker writes could hold a linker script of its making. */
			char *dir = realpath(a + 2, NULL);
			bool written = real_within(dir, write_dirs, nwrite);
			free(dir);
			if (written)
				return xasprintf(
					"the linker may not look for libraries in a folder "
					"the worker writes (%s)",
					a + 2);
			continue;
		}
		if (a[0] != '-' && a[0] != '@') {
			if (lies_within(a, write_dirs, nwrite))
				continue;
			return xasprintf("the linker may read objects only from the driver's "
					 "cache, and was given %s",
					 a);
		}
		return xasprintf("the linker was given an option a driver's link does not take "
				 "(%s), which the sandbox refuses",
				 a);
	}
	return NULL;
}

/* The program interpreter an ELF executable names (its dynamic loader), or NULL. */
static char *elf_interpreter(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *interp = NULL;
	Elf64_Ehdr eh;
	if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh.e_phentsize == sizeof(Elf64_Phdr)) {
		for (unsigned i = 0; i < eh.e_phnum && interp == NULL; i++) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) !=
			    (ssize_t)sizeof ph)
				break;
			if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz > PATH_MAX)
				continue;
			interp = xcalloc(ph.p_filesz + 1, 1);
			if (pread(fd, interp, ph.p_filesz, (off_t)ph.p_offset) !=
			    (ssize_t)ph.p_filesz) {
				free(interp);
				interp = NULL;
			}
		}
	}
	close(fd);
	return interp;
}

/* Sends one message: its length, then its bytes. */
static bool send_message(int fd, const struct strbuf *m)
{
	uint32_t len = (uint32_t)m->len;
	return write_all(fd, &len, sizeof len) && write_all(fd, m->data, m->len);
}

/* Receives one message into *m; false at the end of the pipe or on a malformed one. */
static bool receive_message(int fd, struct strbuf *m)
{
	uint32_t len;
	m->len = 0;
	if (!read_all(fd, &len, sizeof len) || len > MESSAGE_MAX)
		return false;
	char *buf = xmalloc(len ? len : 1);
	bool ok = read_all(fd, buf, len);
	if (ok)
		strbuf_append(m, buf, len);
	free(buf);
	return ok;
}

/* What the broker knows: the linker, and the folders a link may write. */
struct broker {
	char *linker;
	char **write_dirs;
	size_t nwrite;
	pid_t children[BROKERED_MAX];
	size_t nchildren;
};

/* In the broker: runs a spawn request (the path, then each argument, NUL-terminated)
 * and writes the reply: the pid or -errno, then why it refused. */
static void serve_spawn(struct broker *b, const char *payload, size_t len, struct strbuf *reply)
{
	char **argv = xcalloc(len + 2, sizeof *argv);
	size_t argc = 0;
	const char *path = payload;
	size_t at = strnlen(payload, len) + 1;
	while (at < len) {
		size_t n = strnlen(payload + at, len - at);
		argv[argc++] = xstrndup(payload + at, n);
		at += n + 1;
	}
	char *why = argc == 0 ? xstrdup("the request named no program")
		    : b->nchildren == BROKERED_MAX
			    ? xstrdup("too many links at once")
			    : linkbroker_refusal(b->linker, path, argv, b->write_dirs, b->nwrite);
	int32_t result;
	if (why) {
		result = -EPERM;
	} else {
		pid_t pid = fork();
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			execve(b->linker, argv, environ);
			_exit(127);
		}
		result = pid < 0 ? -errno : pid;
		if (pid > 0)
			b->children[b->nchildren++] = pid;
	}
	strbuf_append(reply, (const char *)&result, sizeof result);
	if (why)
		strbuf_puts(reply, why);
	free(why);
	for (size_t i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* In the broker: waits for one of its children, as wait4 would, and writes the reply:
 * the pid or -errno, then the status. */
static void serve_wait(struct broker *b, const char *payload, size_t len, struct strbuf *reply)
{
	int32_t pid = 0, options = 0, status = 0, result;
	if (len == 2 * sizeof(int32_t)) {
		memcpy(&pid, payload, sizeof pid);
		memcpy(&options, payload + sizeof pid, sizeof options);
	}
	size_t k = 0;
	while (k < b->nchildren && b->children[k] != pid)
		k++;
	if (pid <= 0 || k == b->nchildren) {
		result = -ECHILD;
	} else {
		int got;
		while ((got = waitpid(pid, &status, options & WNOHANG)) < 0 && errno == EINTR)
			;
		result = got < 0 ? -errno : got;
		if (got == pid)
			b->children[k] = b->children[--b->nchildren];
	}
	strbuf_append(reply, (const char *)&result, sizeof result);
	strbuf_append(reply, (const char *)&status, sizeof status);
}

/* The broker's life: requests until the worker closes its end, then its children end. */
static void serve(struct broker *b, int requests, int replies)
{
	struct strbuf request = { 0 }, reply = { 0 };
	while (receive_message(requests, &request) && request.len > 0) {
		reply.len = 0;
		if (request.data[0] == REQUEST_SPAWN)
			serve_spawn(b, request.data + 1, request.len - 1, &reply);
		else if (request.data[0] == REQUEST_WAIT)
			serve_wait(b, request.data + 1, request.len - 1, &reply);
		else
			break;
		if (!send_message(replies, &reply))
			break;
	}
	for (size_t i = 0; i < b->nchildren; i++)
		kill(b->children[i], SIGKILL);
	_exit(0);
}

int linkbroker_start(const struct sandbox_policy *p, int landlock_abi, char **cause)
{
	char *linker = realpath(LINKBROKER_LINKER, NULL);
	if (linker == NULL)
		return 0; /* a driver that links says it cannot */
	char *interp = elf_interpreter(linker);
	char *interp_real = interp ? realpath(interp, NULL) : NULL;
	free(interp);
	int req[2], rep[2];
	if (pipe2(req, O_CLOEXEC) < 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		free(linker);
		free(interp_real);
		return -1;
	}
	if (pipe2(rep, O_CLOEXEC) < 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		close(req[0]);
		close(req[1]);
		free(linker);
		free(interp_real);
		return -1;
	}
	pid_t worker = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		*cause = xasprintf("cannot start the link broker: fork: %s", strerror(errno));
		close(req[0]);
		close(req[1]);
		close(rep[0]);
		close(rep[1]);
		free(linker);
		free(interp_real);
		return -1;
	}
	if (pid == 0) {
		/* It ends with the worker, and holds none of the worker's pipes, whose end the
		 * harness waits for. */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != worker)
			_exit(0);
		int requests = 3, replies = 4;
		int rep_write = rep[1] == requests ? fcntl(rep[1], F_DUPFD_CLOEXEC, 5) : rep[1];
		if (dup3(req[0], requests, O_CLOEXEC) < 0 && req[0] != requests)
			_exit(1);
		if (dup3(rep_write, replies, O_CLOEXEC) < 0 && rep_write != replies)
			_exit(1);
		if (syscall(SYS_close_range, 5u, ~0u, 0u) < 0)
			for (int fd = 5; fd < 1024; fd++)
				close(fd);
		struct broker b = { .linker = linker };
		struct sandbox_policy own = { 0 };
		for (size_t i = 0; i < p->count; i++) {
			sandbox_policy_add(&own, p->rules[i].access, p->rules[i].path);
			if (p->rules[i].access != SANDBOX_WRITE)
				continue;
			char *dir = realpath(p->rules[i].path, NULL);
			if (dir) {
				b.write_dirs = xreallocarray(b.write_dirs, b.nwrite + 1,
							     sizeof *b.write_dirs);
				b.write_dirs[b.nwrite++] = dir;
			}
		}
		sandbox_policy_add(&own, SANDBOX_EXECUTE, linker);
		sandbox_policy_add(&own, SANDBOX_EXECUTE, interp_real);
		char *why = NULL;
		if (sandbox_confine_broker(&own, landlock_abi, &why) < 0) {
			fprintf(stderr, "clharness: the link broker could not be confined: %s\n",
				why);
			_exit(1);
		}
		sandbox_policy_free(&own);
		serve(&b, requests, replies);
	}
	free(linker);
	free(interp_real);
	close(req[0]);
	close(rep[1]);
	request_fd = req[1];
	reply_fd = rep[0];
	/* A broker that died must fail the link, not end the worker. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* Sends a request and reads its reply, under the lock. */
static bool ask_broker(const struct strbuf *request, struct strbuf *reply)
{
	return send_message(request_fd, request) && receive_message(reply_fd, reply);
}

/* The C library's own function of that name. */
static void *libc_function(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		const posix_spawnattr_t *attributes, char *const argv[], char *const envp[])
{
	if (!sandbox_active()) {
		int (*own)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			   const posix_spawnattr_t *, char *const[], char *const[]) =
			libc_function("posix_spawn");
		return own ? own(pid, path, actions, attributes, argv, envp) : ENOSYS;
	}
	if (request_fd < 0) {
		fprintf(stderr,
			"clharness: the sandbox cannot run %s: the only program a driver may run "
			"is the system linker (%s), and it is not installed\n",
			path, LINKBROKER_LINKER);
		return EPERM;
	}
	if (actions != NULL) {
		fprintf(stderr,
			"clharness: the sandbox's link broker runs %s with the worker's own "
			"output only, and was asked to redirect it\n",
			path);
		return ENOTSUP;
	}
	struct strbuf request = { 0 }, reply = { 0 };
	strbuf_append(&request, (const char[]){ REQUEST_SPAWN }, 1);
	strbuf_append(&request, path, strlen(path) + 1);
	for (size_t i = 0; argv[i]; i++)
		strbuf_append(&request, argv[i], strlen(argv[i]) + 1);
	pthread_mutex_lock(&broker_lock);
	int32_t result = -EPIPE;
	if (ask_broker(&request, &reply) && reply.len >= sizeof result) {
		memcpy(&result, reply.data, sizeof result);
		if (result > 0 && nbrokered < BROKERED_MAX)
			brokered[nbrokered++] = result;
	}
	pthread_mutex_unlock(&broker_lock);
	if (result < 0 && reply.len > sizeof result)
		fprintf(stderr, "clharness: %.*s\n", (int)(reply.len - sizeof result),
			reply.data + sizeof result);
	strbuf_free(&request);
	strbuf_free(&reply);
	if (result < 0)
		return -result;
	*pid = result;
	return 0;
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
	bool ours = false;
	pthread_mutex_lock(&broker_lock);
	for (size_t i = 0; i < nbrokered && !ours; i++)
		ours = brokered[i] == pid;
	pthread_mutex_unlock(&broker_lock);
	if (!ours || request_fd < 0) {
		pid_t (*own)(pid_t, int *, int, struct rusage *) = libc_function("wait4");
		if (own == NULL) {
			errno = ENOSYS;
			return -1;
		}
		return own(pid, status, options, usage);
	}
	struct strbuf request = { 0 }, reply = { 0 };
	int32_t fields[2] = { pid, options };
	strbuf_append(&request, (const char[]){ REQUEST_WAIT }, 1);
	strbuf_append(&request, (const char *)fields, sizeof fields);
	int32_t result = -EPIPE, got_status = 0;
	pthread_mutex_lock(&broker_lock);
	if (ask_broker(&request, &reply) && reply.len == 2 * sizeof result) {
		memcpy(&result, reply.data, sizeof result);
		memcpy(&got_status, reply.data + sizeof result, sizeof got_status);
	}
	if (result == pid)
		for (size_t i = 0; i < nbrokered; i++)
			if (brokered[i] == pid) {
				brokered[i] = brokered[--nbrokered];
				break;
			}
	pthread_mutex_unlock(&broker_lock);
	strbuf_free(&request);
	strbuf_free(&reply);
	if (result < 0) {
		errno = -result;
		return -1;
	}
	if (status)
		*status = got_status;
	if (usage)
		memset(usage, 0, sizeof *usage);
	return result;
}
