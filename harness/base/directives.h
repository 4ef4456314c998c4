/* directives.h - a C source's #include-family directives as the preprocessor reads them.
 * Two users need the same reading: grading, which refuses a submission's include of a
 * file not its own, and the program cache, whose key must hold every file a build reads.
 * A directive a line scanner misses (after a comment, split by a backslash-newline,
 * spelt with the %: digraph or the ??= trigraph) is one the compiler still follows. */
#ifndef CLH_DIRECTIVES_H
#define CLH_DIRECTIVES_H

#include <stddef.h>

/* A C source read through the translation phases before tokens (1 to 3): trigraphs read,
 * line continuations joined, comments blanked (string and character literals kept whole),
 * each character kept with the line and column it came from. */
struct logical_text {
	char *text; /* len characters and a NUL */
	int *line, *col;
	size_t len;
};

void logical_text_read(const char *src, size_t n, struct logical_text *t);
void logical_text_free(struct logical_text *t);

/* One directive that includes: #include, #include_next, #import or #embed. */
struct include_directive {
	const char *word;  /* the directive's name: "include", "include_next", ... */
	char delim;	   /* '"' or '<'; 0 where the name is built by a macro */
	const char *name;  /* the file as written between its delimiters ("" with delim 0) */
	int line, col;	   /* where its '#' stands in the source */
};

/* Calls `each` for every directive of the include family in the `n` bytes at `src`, in
 * order, ignoring those in comments and string literals. Stops at and returns the first
 * nonzero value `each` returns; 0 when all were visited. */
int directives_each_include(const char *src, size_t n,
			    int (*each)(const struct include_directive *d, void *ctx), void *ctx);

/* The folders a build looks in for an #include beside the source's own: each -I folder
 * among the build `options` ("-I dir" or "-Idir"), in order, in *dirs (caller frees each
 * and the array; NULL when none). Returns how many. */
size_t directives_include_folders(const char *options, char ***dirs);

/* The build `options` with each -I folder ("-I dir" or "-Idir") replaced by what
 * map(dir, ctx) returns (written "-I NEW"; the caller's string, freed here), or left
 * out where it returns NULL; every other word as it was. Caller frees. */
char *directives_map_include_folders(const char *options, char *(*map)(const char *dir, void *ctx),
				     void *ctx);

#endif
