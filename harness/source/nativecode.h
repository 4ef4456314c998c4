/* nativecode.h - where a kernel's source leaves OpenCL C for the machine's own code: inline
 * assembly (asm, __asm and __asm__ statements, labels and file-scope blocks) and pointers
 * to functions (clang's __cl_clang_function_pointers extension), which a CPU device runs
 * as written, system calls and all. A grader refuses a submission holding either before
 * any compiler runs; run, check and hunt build such a kernel inside the sandbox.
 *
 * Read in two ways. The tokens of each file, as the preprocessor splits them (comments,
 * strings, backslash-newlines and universal character names understood), find every
 * spelling of the keywords and of the extension's name, in macro definitions and in the
 * branches of #if alike: a keyword made by a macro is still spelt in some file. Only
 * token pasting (##) can make one that no file spells; a source that pastes is also read
 * as clang parses it (libclang), where every asm statement, label and block is a node of
 * its own wherever its tokens came from. */
#ifndef CLH_NATIVECODE_H
#define CLH_NATIVECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

enum native_kind {
	NATIVE_ASSEMBLY,	 /* inline assembly */
	NATIVE_FUNCTION_POINTER, /* a pointer to a function */
	NATIVE_KINDS
};

/* The kind's name, as an assignment's `allow:` and a class table's note give it:
 * "inline-assembly", "function-pointers". */
const char *native_kind_name(enum native_kind kind);
/* The kind called `name` in *kind; false when none is. */
int native_kind_from_name(const char *name, enum native_kind *kind);

/* Finds native code of the kinds in `kinds` (bits, 1 << enum native_kind) in `files` (the
 * kernel file first, then the files it includes) built with `options`: each place becomes
 * an error in diags at its file, line and column, saying what was found. Returns the
 * bits of the kinds found, 0 when none. A file that cannot be read is an error too, and
 * counts as inline assembly: what was not read was not checked. */
unsigned nativecode_find(char *const *files, size_t nfiles, const char *options, unsigned kinds,
			 struct diag_list *diags);

/* Whether nativecode_find reads a pasting source as clang parses it: this build has
 * libclang, and it loads. Where it does not, pasted native code is left to the sandbox. */
bool nativecode_find_parses(void);

/* The token reading of one source alone (exposed for the unit suite): calls found() for
 * each place, and returns whether the source pastes tokens (##), which only a parse can
 * see through. */
int nativecode_scan_text(const char *src, size_t n, unsigned kinds,
			 void (*found)(void *ctx, enum native_kind kind, int line, int col,
				       const char *spelling),
			 void *ctx);

#endif
