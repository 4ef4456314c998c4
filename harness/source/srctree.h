/* srctree.h - a function body as the racecheck rewrite reads it: a tree of libclang's
 * cursors with the byte range of each in the kernel file, and what can be read off a
 * node's text alone. Only built with libclang (HAVE_LIBCLANG). */
#ifndef CLH_SRCTREE_H
#define CLH_SRCTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "source/clangapi.h"

/* One expression or statement of a function body. */
struct node {
	CXCursor cursor;
	enum CXCursorKind kind;
	unsigned start, end; /* byte offsets of its text in the kernel file */
	bool own_text;	     /* its text is the file's, not a macro's or a header's */
	char *type;	     /* its type as clang spells it: "__global float" */
	long long size;	     /* sizeof its type, -1 where it has none */
	struct node *parent;
	struct node **kids;
	size_t nkids;
};

/* The text a tree's offsets are into. */
struct srctext {
	const char *src;
	size_t len;
};

/* The node below wrappers clang adds (implicit casts, parentheses). */
struct node *srctree_unwrapped(struct node *n);

/* The operator of a binary or unary operator node ("+=", "*", "++"), newly allocated. */
char *srctree_operator(const struct srctext *text, const struct node *n);

/* The name a call calls, newly allocated. */
char *srctree_callee(const struct node *call);

bool srctree_is_loop(enum CXCursorKind k);

/* A for statement's condition, the node between its header's two semicolons (NULL where
 * the header has none), and in *init_end where its init part ends. */
struct node *srctree_for_condition(const struct srctext *text, const struct node *stmt,
				   unsigned *init_end);

#endif
