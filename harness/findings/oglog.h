/* oglog.h - parses the diagnostics log Oclgrind writes (OCLGRIND_LOG) into messages: data
 * races, work-group divergence, invalid and uninitialised accesses, API and fatal errors,
 * each with its kernel, the work-items involved and the source locations. */
#ifndef CLH_OGLOG_H
#define CLH_OGLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "findings/entity.h"

enum oglog_kind {
	OGLOG_RACE,	      /* "Read-write data race at local memory address ..." */
	OGLOG_DIVERGENCE,     /* "Work-group divergence detected (barrier)" */
	OGLOG_INVALID_ACCESS, /* "Invalid read of size 4 at global memory address ..." */
	OGLOG_ARRAY_INDEX,    /* "Index (4) exceeds static array size (4)" */
	OGLOG_UNINITIALIZED,  /* "Uninitialized value written to ...", "Controlflow depends ..." */
	OGLOG_ASYNC_COPY,     /* "Work-item finished without waiting for events", "Invalid wait
				 event": an async copy's event misused */
	OGLOG_API_ERROR,      /* "Oclgrind - OpenCL runtime error detected" */
	OGLOG_FATAL,	      /* "OCLGRIND FATAL ERROR (file:line)": the simulation stopped */
	OGLOG_SUPPRESSED,     /* "Oclgrind: N errors generated - suppressing further errors" */
	OGLOG_OTHER,	      /* anything else: the headline is kept */
};

/* One "At line L (column C) of FILE:" with what surrounds it. */
struct oglog_location {
	int line;
	int col;	   /* 0 when Oclgrind gives none */
	char *file;	   /* as Oclgrind names it: input.cl for the program's own source */
	char *source;	   /* the source line Oclgrind quotes, without its indentation */
	char *instruction; /* the LLVM instruction printed above it */
};

struct oglog_message {
	enum oglog_kind kind;
	char *headline; /* the message's first line */
	char *kernel;	/* NULL when the message names none (API errors) */
	/* What happened, in words the reports use: "read-write", "write-write" (races);
	 * "barrier", "async copy" (divergence); "read", "write" (invalid accesses); "index"
	 * (array index); "write to read-only", "read from write-only", "write to mapped",
	 * "read from mapped", "unaligned read", "unaligned write", "unaligned access" (invalid
	 * accesses that are in bounds); "value written", "address used to read", "address used
	 * to write", "control flow", "index value" (uninitialised); "not waited for", "invalid
	 * wait event" (async copies). NULL otherwise. */
	char *what;
	/* "global", "local", "private" or "constant"; NULL when the message names none. */
	char *space;
	struct entity entities[2]; /* races name two; most messages one */
	size_t nentities;
	struct oglog_location locations[2]; /* divergence between two barriers names two */
	size_t nlocations;
	char *info;	 /* an explanation line: "Only 16 out of 32 work-items executed
			    barrier", an API error's details, a fatal error's reason */
	char *function;	 /* API errors: the OpenCL function called */
	char *error;	 /* API errors: the error code's name */
	long suppressed; /* OGLOG_SUPPRESSED: errors Oclgrind printed before it stopped */
	/* Barrier divergence: the fence flags each side passed ("fence=0x1"), -1 where the
	 * message gives none. */
	long fences[2];
};

/* Frees the strings of a message whose fields the caller copied and owns. */
void oglog_message_release(struct oglog_message *m);

/* Calls fn once for each message in `text` (a part of the log that ends between
 * messages), in order. The message and its strings live until fn returns. Returns the
 * number of messages. Text that is not an Oclgrind message becomes OGLOG_OTHER. */
size_t oglog_parse(const char *text, void (*fn)(void *ctx, const struct oglog_message *m),
		   void *ctx);

/* The access an instruction makes, from its LLVM text: 'w' for a store, 'r' for a load,
 * 'a' for an atomic, 0 when it is none of these. */
char oglog_access_type(const char *instruction);

/* The address space of the pointer an instruction's load or store uses ("global",
 * "local", "constant", "private"), from the LLVM text; NULL when it shows none. */
const char *oglog_instruction_space(const char *instruction);

#endif
