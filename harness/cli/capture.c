/* capture.c - clharness capture: runs an OpenCL application unchanged with the capture
 * layer inside it (capture/layer.c, through the ICD loader's OPENCL_LAYERS), then turns
 * each launch it recorded into a case (capture/tocase.c). */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "capture/rawlaunch.h"
#include "capture/tocase.h"
#include "cli/commands.h"
#include "cli/shared.h"

enum { OPT_MAX_LAUNCHES = 256, OPT_MAX_BYTES, OPT_FORCE };

static const struct cli_option capture_opts[] = {
	{ 'o', "out", "DIR", "the folder the cases go to (default: capture); it must not exist "
			     "yet, or be a capture folder replaced with --force" },
	{ 'k', "kernel", "NAME", "capture only the launches of this kernel (repeatable)" },
	{ OPT_MAX_LAUNCHES, "max-launches", "N",
	  "capture the first N distinct launches (by program, kernel and shape) of each kernel "
	  "(default 3)" },
	{ OPT_MAX_BYTES, "max-bytes", "SIZE",
	  "write at most SIZE bytes of buffer contents, as 512M or 2G (default 256M); a launch "
	  "past it is left out with a note" },
	{ OPT_FORCE, "force", NULL, "replace the cases of an earlier capture in DIR" },
	{ 0 },
};

static int capture_main(int argc, char **argv);

const struct cli_command cli_capture = {
	.name = "capture",
	.synopsis = "[-o DIR] [--kernel NAME]... [--max-launches N] [--max-bytes SIZE] [--force] "
		    "-- PROGRAM [ARG]...",
	.summary = "run an OpenCL application and keep each of its kernel launches as a case",
	.about = "Runs PROGRAM unchanged, with an OpenCL layer inside it that records each "
		 "distinct kernel launch whole: the program's source and build options, the "
		 "launch's shape, every argument, and each buffer's bytes just before and just "
		 "after the launch. Each launch becomes a case in DIR, which `clharness run DIR` "
		 "runs on every device and under Oclgrind with the application's own data, "
		 "comparing each output with what the application's device left. What cannot be "
		 "replayed (programs from binaries or IL, images, samplers, pipes, SVM pointers) "
		 "is said in a note. The exit status is PROGRAM's.",
	.options = capture_opts,
	.main = capture_main,
};

/* "512M", "2G", "4096": bytes; 0 for anything else. */
static unsigned long long parse_size(const char *text)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || end == text || *text == '-')
		return 0;
	unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if (shift)
		end++;
	if (*end == 'i' && shift)
		end++;
	if (*end == 'B')
		end++;
	if (*end != '\0' || v > (ULLONG_MAX >> shift))
		return 0;
	return v << shift;
}

/* The layer library: CLHARNESS_CAPTURE_LAYER, else the one beside this program (a build
 * tree), else the installed one. */
static char *layer_path(void)
{
	const char *env = getenv("CLHARNESS_CAPTURE_LAYER");
	if (env && *env)
		return xstrdup(env);
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			char *beside = xasprintf("%s/libclharness-capture.so", self);
			if (access(beside, R_OK) == 0)
				return beside;
			free(beside);
		}
	}
	return xstrdup(CLH_PKGLIBDIR "/libclharness-capture.so");
}

/* Empties a folder an earlier capture made: its raw records, kernels, data and cases. */
static int clear_capture(const char *dir)
{
	char *raw = xasprintf("%s/raw", dir);
	bool ours = is_dir(raw);
	free(raw);
	if (!ours) {
		fprintf(stderr, "clharness: %s holds no capture (no raw/ folder): --force replaces "
				"only an earlier capture's folder; give another -o\n",
			dir);
		return -1;
	}
	int status = 0;
	static const char *const made[] = { "raw", "kernels", "data", "include" };
	for (size_t i = 0; i < sizeof made / sizeof made[0] && status == 0; i++) {
		char *path = xasprintf("%s/%s", dir, made[i]);
		if (is_dir(path))
			status = remove_tree(path);
		free(path);
	}
	char **entries = NULL;
	long n = status == 0 ? dir_entries(dir, false, &entries) : 0;
	for (long i = 0; i < n && status == 0; i++)
		if (has_suffix(entries[i], ".yaml"))
			status = unlink(entries[i]);
	strings_free(entries, n);
	if (status != 0)
		fprintf(stderr, "clharness: cannot clear the earlier capture in %s: %s\n", dir,
			strerror(errno));
	return status == 0 ? 0 : -1;
}

static char *command_text(int argc, char **argv)
{
	struct strbuf out = { 0 };
	for (int i = 0; i < argc; i++) {
		bool plain = argv[i][0] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
							   "OPQRSTUVWXYZ0123456789-_./=:,+") ==
							   strlen(argv[i]);
		strbuf_printf(&out, "%s%s%s%s", i ? " " : "", plain ? "" : "'", argv[i],
			      plain ? "" : "'");
	}
	return strbuf_take(&out);
}

/* Runs the program with the layer's settings; returns its exit status as a shell gives
 * it (128 + the signal that killed it), or -1 where it could not start. */
static int run_program(char **argv, const char *layer, const char *dir, const char *kernels,
		       long long max_launches, unsigned long long max_bytes)
{
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "clharness: cannot start %s: %s\n", argv[0], strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* Another layer the user runs stays, after this one. */
		const char *others = getenv("OPENCL_LAYERS");
		char *layers = others && *others ? xasprintf("%s:%s", layer, others) : xstrdup(layer);
		setenv("OPENCL_LAYERS", layers, 1);
		setenv(RAWLAUNCH_ENV_DIR, dir, 1);
		/* PyOpenCL builds a program it built before from its cached binary, which no
		 * case can be made of: under capture every build is from source. */
		setenv("PYOPENCL_NO_CACHE", "1", 1);
		if (kernels)
			setenv(RAWLAUNCH_ENV_KERNELS, kernels, 1);
		char number[32];
		if (max_launches) {
			snprintf(number, sizeof number, "%lld", max_launches);
			setenv(RAWLAUNCH_ENV_MAX_LAUNCHES, number, 1);
		}
		if (max_bytes) {
			snprintf(number, sizeof number, "%llu", max_bytes);
			setenv(RAWLAUNCH_ENV_MAX_BYTES, number, 1);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "clharness: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "clharness: %s was killed by signal %d (%s); the launches "
				"captured before it are kept\n",
			argv[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

static int capture_main(int argc, char **argv)
{
	struct cli_parser p;
	cli_parser_open(&p, &cli_capture, argc, argv);
	const char *dir = "capture";
	struct strbuf kernels = { 0 };
	long long max_launches = 0;
	unsigned long long max_bytes = 0;
	bool force = false;
	char *value;
	int id;
	while ((id = cli_next(&p, &value)) >= 0) {
		switch (id) {
		case 'o':
			dir = value;
			break;
		case 'k':
			strbuf_printf(&kernels, "%s%s", kernels.len ? "," : "", value);
			break;
		case OPT_MAX_LAUNCHES:
			if (cli_positive("max-launches", value, 1000000, &max_launches) < 0)
				id = CLI_STOP, p.status = EXIT_USAGE;
			break;
		case OPT_MAX_BYTES:
			max_bytes = parse_size(value);
			if (max_bytes == 0) {
				p.status = cli_usage_error("--max-bytes takes a size from 1 byte, as "
							   "4096, 512M or 2G, found '%s'",
							   value);
				id = CLI_STOP;
			}
			break;
		case OPT_FORCE:
			force = true;
			break;
		}
		if (id == CLI_STOP)
			break;
	}
	cli_parser_close(&p);
	if (id == CLI_STOP) {
		strbuf_free(&kernels);
		return p.status;
	}
	if (p.next >= argc) {
		strbuf_free(&kernels);
		return cli_usage_error("capture needs the program to run: clharness capture -- "
				       "PROGRAM [ARG]...");
	}
	struct stat st;
	/* An empty folder holds nothing to lose: it is as good as a new one. */
	char **inside = NULL;
	long ninside = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir_entries(dir, true, &inside) : -1;
	strings_free(inside, ninside > 0 ? ninside : 0);
	bool made = false;
	if (ninside == 0) {
		/* used as it is */
	} else if (stat(dir, &st) == 0) {
		if (!force) {
			strbuf_free(&kernels);
			fprintf(stderr, "clharness: %s exists; capture into a new folder with -o, or "
					"replace an earlier capture there with --force\n",
				dir);
			return EXIT_USAGE;
		}
		if (clear_capture(dir) < 0) {
			strbuf_free(&kernels);
			return EXIT_USAGE;
		}
	} else if (mkdir(dir, 0755) < 0) {
		strbuf_free(&kernels);
		fprintf(stderr, "clharness: cannot make %s: %s\n", dir, strerror(errno));
		return EXIT_USAGE;
	} else {
		made = true;
	}
	char *absolute = realpath(dir, NULL);
	char *layer = layer_path();
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd) == NULL)
		strcpy(cwd, ".");
	int status = run_program(argv + p.next, layer, absolute ? absolute : dir,
				 kernels.len ? kernels.data : NULL, max_launches, max_bytes);
	char *command = command_text(argc - p.next, argv + p.next);
	struct capture_tally tally;
	struct diag_list notes = { 0 };
	capture_write_cases(absolute ? absolute : dir, command, cwd, &tally, &notes);
	cli_print_diags(&notes);
	/* A capture with no case leaves nothing behind: its records would only block the
	 * next capture into the folder. */
	if (tally.cases == 0) {
		char *raw = xasprintf("%s/raw", dir);
		if (made ? remove_tree(dir) != 0 : is_dir(raw) && remove_tree(raw) != 0)
			fprintf(stderr, "clharness: cannot remove what the capture left in %s: %s\n",
				dir, strerror(errno));
		free(raw);
	}
	if (tally.cases == 0 && tally.cut_off == 0 && tally.unreadable == 0)
		fprintf(stderr, "capture: %s made no kernel launch the layer could capture%s; "
				"%s\n",
			command,
			notes.count ? " (the notes above say why)"
				    : ": nothing to replay (did it run on OpenCL through the ICD "
				      "loader?)",
			made ? "no folder was left" : "the folder holds nothing of it");
	else
		fprintf(stderr, "capture: %zu launch%s of %s became %s in %s; run %s with "
				"clharness run %s%s\n",
			tally.cases, tally.cases == 1 ? "" : "es", command,
			tally.cases == 1 ? "a case" : "cases", dir, tally.cases == 1 ? "it" : "them",
			dir,
			tally.cut_off ? "; a launch the program died in is lost" : "");
	diag_list_free(&notes);
	free(command);
	free(layer);
	free(absolute);
	strbuf_free(&kernels);
	return status < 0 ? EXIT_USAGE : status;
}
