/* check_sandbox.c - the sandbox's parts that decide without confining anything: which
 * links the broker runs, how a stopped worker's last words become its verdict, which
 * paths a policy holds, and where a source leaves OpenCL C for native code. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/seccomp.h>

#include "base/util.h"
#include "check_suites.h"
#include "exec/linkbroker.h"
#include "exec/sandbox.h"
#include "source/nativecode.h"

/* A folder standing for the driver's cache, with an object file in it, and the linker's
 * real path; NULL (a skip) where no linker is installed. */
struct link_fixture {
	char *cache;
	char *object;
	char *linker;
};

static bool link_fixture_open(struct link_fixture *f)
{
	f->linker = realpath(LINKBROKER_LINKER, NULL);
	f->cache = xstrdup("/tmp/check_sandbox_XXXXXX");
	ck_assert_msg(mkdtemp(f->cache) != NULL, "The test can make a folder.");
	char *real = realpath(f->cache, NULL);
	free(f->cache);
	f->cache = real;
	f->object = xasprintf("%s/tempfile_m.so.o", f->cache);
	FILE *o = fopen(f->object, "w");
	ck_assert_msg(o != NULL, "The test can write %s.", f->object);
	fclose(o);
	return f->linker != NULL;
}

static void link_fixture_close(struct link_fixture *f)
{
	remove_test_folder(f->cache);
	free(f->cache);
	free(f->object);
	free(f->linker);
}

/* What the broker says of `args` (NULL-terminated after the program) with the fixture's
 * cache as the only folder a link may write. */
static char *refusal(const struct link_fixture *f, const char *program, char **args)
{
	char *dirs[] = { f->cache };
	return linkbroker_refusal(f->linker, program, args, dirs, 1);
}

START_TEST(test_broker_runs_pocl_link)
{
	struct link_fixture f;
	if (!link_fixture_open(&f)) {
		link_fixture_close(&f);
		return;
	}
	char *out = xasprintf("%s/tempfile_O.so", f.cache);
	/* PoCL 3.1's link of a work-group function, as clang's driver runs it. */
	char *args[] = { "/usr/bin/ld", "--hash-style=both",
			 "--build-id",	"--eh-frame-hdr",
			 "-m",		"elf_x86_64",
			 "-shared",	"-o",
			 out,		"-L/usr/lib",
			 "-L/lib",	"-L/usr/local/cuda/lib64/stubs",
			 f.object,	"-lm",
			 "-lgcc",	"--as-needed",
			 "-lgcc_s",	"--no-as-needed",
			 "-lc",		NULL };
	char *why = refusal(&f, LINKBROKER_LINKER, args);
	ck_assert_msg(why == NULL, "A driver's link of an object in its cache runs, not: %s", why);
	free(out);
	link_fixture_close(&f);
}
END_TEST

START_TEST(test_broker_refuses_what_a_link_never_is)
{
	struct link_fixture f;
	if (!link_fixture_open(&f)) {
		link_fixture_close(&f);
		return;
	}
	char *out = xasprintf("%s/x.so", f.cache);
	char *shell[] = { "/bin/sh", "-c", "touch PWNED", NULL };
	char *why = refusal(&f, "/bin/sh", shell);
	ck_assert_msg(why && strstr(why, "no other program"), "A shell is refused, said: %s", why);
	free(why);

	char *plugin[] = { "/usr/bin/ld", "-plugin", "/tmp/evil.so", "-o", out, f.object, NULL };
	why = refusal(&f, LINKBROKER_LINKER, plugin);
	ck_assert_msg(why && strstr(why, "-plugin"), "A linker plugin is refused by name: %s", why);
	free(why);

	char *elsewhere[] = {
		"/usr/bin/ld", "-shared", "-o", "/etc/ld.so.preload", f.object, NULL
	};
	why = refusal(&f, LINKBROKER_LINKER, elsewhere);
	ck_assert_msg(why && strstr(why, "/etc/ld.so.preload"),
		      "Output outside the cache is refused: %s", why);
	free(why);

	char *reads[] = {
		"/usr/bin/ld", "-shared", "-o", out, "-b", "binary", "/etc/shadow", NULL
	};
	why = refusal(&f, LINKBROKER_LINKER, reads);
	ck_assert_msg(why != NULL, "Linking a file in as raw bytes is refused.");
	free(why);

	char *input[] = { "/usr/bin/ld", "-shared", "-o", out, "/etc/passwd", NULL };
	why = refusal(&f, LINKBROKER_LINKER, input);
	ck_assert_msg(why && strstr(why, "/etc/passwd"),
		      "An input outside the cache is refused: %s", why);
	free(why);

	char *response[] = { "/usr/bin/ld", "@/tmp/options", NULL };
	why = refusal(&f, LINKBROKER_LINKER, response);
	ck_assert_msg(why != NULL, "A response file of options is refused.");
	free(why);

	char *scripts[] = { "/usr/bin/ld", "-shared", "-o", out, "-L", f.cache, f.object, NULL };
	why = refusal(&f, LINKBROKER_LINKER, scripts);
	ck_assert_msg(why != NULL, "-L with its folder apart is no option a driver's link takes.");
	free(why);
	char *own = xasprintf("-L%s", f.cache);
	char *writable[] = { "/usr/bin/ld", "-shared", "-o", out, own, f.object, NULL };
	why = refusal(&f, LINKBROKER_LINKER, writable);
	ck_assert_msg(why && strstr(why, "folder the worker writes"),
		      "Libraries from the cache the worker writes are refused: %s", why);
	free(why);
	free(own);

	char *link = xasprintf("%s/link.so", f.cache);
	ck_assert_msg(symlink("/etc/passwd", link) == 0, "The test can make a link.");
	char *through[] = { "/usr/bin/ld", "-shared", "-o", link, f.object, NULL };
	why = refusal(&f, LINKBROKER_LINKER, through);
	ck_assert_msg(why != NULL, "Output through a link the worker made is refused.");
	free(why);
	free(link);
	free(out);
	link_fixture_close(&f);
}
END_TEST

START_TEST(test_stop_message_names_the_call)
{
	const char *printed = "PoCL said something\n\nclharness-sandbox: stopped system call 2 "
			      "from late code\n";
	char *m = sandbox_stop_message(SANDBOX_EXIT_STATUS, 0, printed);
	ck_assert_msg(m && strstr(m, "the kernel made a system call the sandbox forbids: open") &&
			      strstr(m, "from its own code"),
		      "A call of the kernel's own code is named: %s", m);
	free(m);
	m = sandbox_stop_message(SANDBOX_EXIT_STATUS, 0,
				 "clharness-sandbox: stopped system call 59 forbidden\n");
	ck_assert_msg(m && strstr(m, "forbids: execve") && strstr(m, "CLHARNESS_SANDBOX=off"),
		      "A forbidden call is named, with how to tell the driver's: %s", m);
	free(m);
	m = sandbox_stop_message(-1, SIGSYS, NULL);
	ck_assert_msg(m && strstr(m, "SIGSYS"), "A worker killed by SIGSYS is the sandbox's: %s",
		      m);
	free(m);
	ck_assert_msg(sandbox_stop_message(SANDBOX_EXIT_STATUS, 0, "nothing of ours\n") == NULL,
		      "An exit status alone is no evidence of the sandbox.");
	ck_assert_msg(sandbox_stop_message(1, 0, printed) == NULL,
		      "The mark without the sandbox's exit status is the kernel's own print.");
	ck_assert_msg(sandbox_stop_message(-1, SIGSEGV, printed) == NULL,
		      "A fault is a crash, whatever was printed.");
}
END_TEST

START_TEST(test_syscall_names)
{
	char *name = sandbox_syscall_name(59);
	ck_assert_msg(strcmp(name, "execve") == 0, "System call 59 is execve here, not %s", name);
	free(name);
}
END_TEST

START_TEST(test_shortfall_says_what_is_missing)
{
	struct sandbox_support full = { true, 7 }, no_landlock = { true, 0 },
			       no_seccomp = { false, 3 }, none = { false, 0 };
	ck_assert_msg(sandbox_shortfall(&full) == NULL, "Both: nothing is missing.");
	char *s = sandbox_shortfall(&no_landlock);
	ck_assert_msg(s && strstr(s, "no Landlock") && strstr(s, "every file"),
		      "Without Landlock the files are named: %s", s);
	free(s);
	s = sandbox_shortfall(&no_seccomp);
	ck_assert_msg(s && strstr(s, "seccomp") && strstr(s, "start processes"),
		      "Without seccomp processes are named: %s", s);
	free(s);
	s = sandbox_shortfall(&none);
	ck_assert_msg(s && strstr(s, "neither"), "Neither: %s", s);
	free(s);
}
END_TEST

static bool holds(const struct sandbox_policy *p, enum sandbox_access access, const char *path)
{
	for (size_t i = 0; i < p->count; i++)
		if (p->rules[i].access == access && strcmp(p->rules[i].path, path) == 0)
			return true;
	return false;
}

START_TEST(test_policy_reads_sources_and_include_folders)
{
	char *root = xstrdup("/tmp/check_sandbox_XXXXXX");
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *inc = xasprintf("%s/inc", root), *kernel = xasprintf("%s/k.cl", root);
	mkdir(inc, 0777);
	FILE *k = fopen(kernel, "w");
	fclose(k);
	char *options = xasprintf("-DN=4 -I %s -I%s/missing -cl-std=CL2.0", inc, root);

	struct sandbox_policy p = { 0 };
	sandbox_policy_add_sources(&p, kernel, options, false);
	ck_assert_msg(holds(&p, SANDBOX_READ, kernel) && holds(&p, SANDBOX_READ, inc),
		      "The kernel file and its -I folder are read.");
	ck_assert_msg(!holds(&p, SANDBOX_READ, root),
		      "An untrusted kernel's folder, which holds its classmates', is not.");
	ck_assert_msg(p.count == 2, "A folder that does not exist holds no rule (%zu rules).",
		      p.count);
	sandbox_policy_add_sources(&p, kernel, options, true);
	ck_assert_msg(holds(&p, SANDBOX_READ, root) && holds(&p, SANDBOX_READ, "."),
		      "A user's own kernel reads its folder and the working folder.");
	sandbox_policy_free(&p);
	free(options);
	free(kernel);
	free(inc);
	remove_test_folder(root);
	free(root);
}
END_TEST

/* What the seal's filter returns for a call from `ip`: the classic BPF it is made of,
 * evaluated as the kernel would (loads of the pointer's words, jumps, returns). */
static uint32_t filter_verdict(const struct sock_filter *f, size_t len, uint64_t ip)
{
	struct seccomp_data data = { .nr = 1, .instruction_pointer = ip };
	uint32_t a = 0;
	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *in = &f[pc];
		switch (in->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			memcpy(&a, (const char *)&data + in->k, sizeof a);
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= in->k ? in->jt : in->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > in->k ? in->jt : in->jf;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == in->k ? in->jt : in->jf;
			break;
		case BPF_RET | BPF_K:
			return in->k;
		default:
			ck_abort_msg("The filter holds an instruction the test does not know: %#x",
				     in->code);
		}
	}
	ck_abort_msg("The filter ran off its end.");
	return 0;
}

START_TEST(test_seal_allows_only_code_mapped_before)
{
	/* A library's text within one 4 GiB window, one across a window's edge, and one
	 * ending where the next starts. */
	const struct sandbox_code_range ranges[] = {
		{ 0x7f0000001000ull, 0x7f0000005000ull },
		{ 0x7f01fffff000ull, 0x7f0200002000ull },
		{ 0x555555554000ull, 0x555555560000ull },
	};
	size_t len;
	struct sock_filter *f = sandbox_code_filter(ranges, 3, &len);
	const struct {
		uint64_t ip;
		bool allowed;
	} calls[] = {
		{ 0x7f0000001000ull, true },	  { 0x7f0000004fffull, true },
		{ 0x7f0000005000ull, false },	  { 0x7f0000000fffull, false },
		{ 0x7f01fffff000ull, true },	  { 0x7f0200000000ull, true },
		{ 0x7f0200001fffull, true },	  { 0x7f0200002000ull, false },
		{ 0x7f01ffffefffull, false },	  { 0x555555558000ull, true },
		{ 0x7f0100001000ull, false },	  { 0x1000ull, false },
		{ 0xffffffffff600000ull, false },
	};
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		uint32_t v = filter_verdict(f, len, calls[i].ip);
		ck_assert_msg((v == SECCOMP_RET_ALLOW) == calls[i].allowed,
			      "A call from %#llx is %s (filter said %#x).",
			      (unsigned long long)calls[i].ip,
			      calls[i].allowed ? "allowed" : "trapped", v);
		if (!calls[i].allowed)
			ck_assert_msg((v & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRAP,
				      "A call from late code traps, for its name.");
	}
	free(f);
}
END_TEST

START_TEST(test_policy_reads_the_drivers_folders)
{
	char *root = xstrdup("/tmp/check_sandbox_XXXXXX");
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *cache = xasprintf("%s/pocl-cache", root);
	char *driver = xasprintf("%s/lib/libvendor-opencl.so", root);
	setenv("POCL_CACHE_DIR", cache, 1);
	setenv("OCL_ICD_FILENAMES", driver, 1);
	struct sandbox_policy p = { 0 };
	sandbox_policy_add_system(&p);
	ck_assert_msg(holds(&p, SANDBOX_READ, root),
		      "A driver named by path is read beneath its top two folders.");
	ck_assert_msg(holds(&p, SANDBOX_WRITE, cache) && is_dir(cache),
		      "PoCL's cache is made where missing, and written.");
	ck_assert_msg(holds(&p, SANDBOX_READ, "/usr") && holds(&p, SANDBOX_DEVICE, "/dev/null") &&
			      !holds(&p, SANDBOX_READ, "/home") && !holds(&p, SANDBOX_READ, "/tmp"),
		      "The system's libraries are read; the users' and temporary files are not.");
	sandbox_policy_free(&p);
	remove_test_folder(root);
	free(driver);
	free(cache);
	free(root);
}
END_TEST

/* Each place the token reading finds, as "KIND LINE:COL SPELLING; ". */
static void collect(void *ctx, enum native_kind kind, int line, int col, const char *spelling)
{
	strbuf_printf(ctx, "%s %d:%d %s; ", native_kind_name(kind), line, col, spelling);
}

static char *scan(const char *src, int *pastes)
{
	struct strbuf out = { 0 };
	strbuf_puts(&out, "");
	*pastes = nativecode_scan_text(src, strlen(src), (1u << NATIVE_KINDS) - 1, collect, &out);
	return strbuf_take(&out);
}

START_TEST(test_scan_finds_every_spelling_of_asm)
{
	int pastes;
	char *found = scan("kernel void k(global int *o)\n{\n\t__asm__ volatile(\"syscall\");\n"
			   "\tasm(\"nop\");\n\t__asm(\"nop\");\n}\n",
			   &pastes);
	ck_assert_msg(strcmp(found, "inline-assembly 3:2 __asm__; inline-assembly 4:2 asm; "
				    "inline-assembly 5:2 __asm; ") == 0,
		      "Each spelling at its line and column: %s", found);
	ck_assert_msg(!pastes, "No ## pastes nothing.");
	free(found);

	found = scan("#define RUN __a\\\nsm__\nkernel void k(void) { RUN(\"nop\"); }\n", &pastes);
	ck_assert_msg(strcmp(found, "inline-assembly 1:13 __asm__; ") == 0,
		      "A keyword split by a backslash-newline is still found: %s", found);
	free(found);
	found = scan("void f(void) { __a\\ \t\nsm__(\"nop\"); }\n", &pastes);
	ck_assert_msg(strcmp(found, "inline-assembly 1:16 __asm__; ") == 0,
		      "Blanks between the backslash and the newline still join the lines: %s",
		      found);
	free(found);

	found = scan("int \\u0061sm_like = 1; void f(void) { __\\u0061sm__(\"nop\"); }", &pastes);
	ck_assert_msg(strstr(found, "__asm__") && !strstr(found, "asm_like"),
		      "A universal character name spells the keyword: %s", found);
	free(found);

	found = scan("/* asm */ // __asm__\nconst char *s = \"asm\"; int x = 1asm; int asmx;\n",
		     &pastes);
	ck_assert_msg(strcmp(found, "") == 0,
		      "Comments, strings, numbers and longer names hold no keyword: %s", found);
	free(found);

	found = scan("#define P(a, b) a##b\nkernel void k(void) { P(__as, m__)(\"nop\"); }\n",
		     &pastes);
	ck_assert_msg(pastes && strcmp(found, "") == 0,
		      "Pasting is reported for the parse to see through: %s", found);
	free(found);
	found = scan("#define P(a, b) a %:%: b\n", &pastes);
	ck_assert_msg(pastes, "The digraph of ## pastes too.");
	free(found);
}
END_TEST

START_TEST(test_scan_finds_function_pointers)
{
	int pastes;
	char *found =
		scan("#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable\n", &pastes);
	ck_assert_msg(strcmp(found, "function-pointers 1:26 __cl_clang_function_pointers; ") == 0,
		      "The extension's pragma is found: %s", found);
	free(found);
	found = scan("_Pragma(\"OPENCL EXTENSION __cl_clang_function_pointers : enable\")\n",
		     &pastes);
	ck_assert_msg(strstr(found, "function-pointers 1:9"),
		      "The extension named in _Pragma's string is found: %s", found);
	free(found);
}
END_TEST

START_TEST(test_find_reads_the_parse_where_tokens_are_pasted)
{
	char *path = temp_kernel("#define PASTE(a, b) a##b\n"
				 "kernel void k(global int *o)\n{\n"
				 "\tPASTE(__as, m__) volatile(\"nop\");\n\to[0] = 1;\n}\n");
	struct diag_list diags = { 0 };
	unsigned found = nativecode_find(&path, 1, "", (1u << NATIVE_KINDS) - 1, &diags);
	bool parsed = nativecode_find_parses();
	if (parsed) {
		ck_assert_msg(found == 1u << NATIVE_ASSEMBLY && diags.count == 1 &&
				      diags.items[0].line == 4 && diags.items[0].col == 2,
			      "Pasted inline assembly is found at its use, line 4 (found %u, %zu "
			      "places, first at %d:%d)",
			      found, diags.count, diags.count ? diags.items[0].line : 0,
			      diags.count ? diags.items[0].col : 0);
	}
	diag_list_free(&diags);
	unlink(path);
	free(path);

	path = temp_kernel("kernel void k(global int *o) { o[0] = 1; }\n");
	found = nativecode_find(&path, 1, "", (1u << NATIVE_KINDS) - 1, &diags);
	ck_assert_msg(found == 0 && diags.count == 0, "A plain kernel holds no native code.");
	unlink(path);
	free(path);
	diag_list_free(&diags);

	char *missing = "/tmp/check_sandbox_no_such_kernel.cl";
	found = nativecode_find(&missing, 1, "", 1u << NATIVE_ASSEMBLY, &diags);
	ck_assert_msg(found != 0 && diags.count == 1,
		      "A file that cannot be read was not checked, so it is no clean one.");
	diag_list_free(&diags);
}
END_TEST

Suite *sandbox_suite(void)
{
	Suite *s = suite_create("sandbox");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_broker_runs_pocl_link);
	tcase_add_test(tc, test_broker_refuses_what_a_link_never_is);
	tcase_add_test(tc, test_stop_message_names_the_call);
	tcase_add_test(tc, test_syscall_names);
	tcase_add_test(tc, test_seal_allows_only_code_mapped_before);
	tcase_add_test(tc, test_shortfall_says_what_is_missing);
	tcase_add_test(tc, test_policy_reads_sources_and_include_folders);
	tcase_add_test(tc, test_policy_reads_the_drivers_folders);
	tcase_add_test(tc, test_scan_finds_every_spelling_of_asm);
	tcase_add_test(tc, test_scan_finds_function_pointers);
	tcase_add_test(tc, test_find_reads_the_parse_where_tokens_are_pasted);
	suite_add_tcase(s, tc);
	return s;
}
