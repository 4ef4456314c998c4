/* buildlog.h - finds the first error in an OpenCL compiler's build log, so a build error
 * is reported at the kernel's own file, line and column. */
#ifndef CLH_BUILDLOG_H
#define CLH_BUILDLOG_H

#include <stdbool.h>

/* Finds the first line of `log` that reports an error at a position, in either common
 * shape: "FILE:LINE:COL: error: MESSAGE" (Clang, NVIDIA, Oclgrind) or
 * "error: FILE:LINE:COL: MESSAGE" (PoCL). Drivers name the source after a temporary file,
 * so only the position and the message are kept. *message is newly allocated. */
bool buildlog_first_error(const char *log, int *line, int *col, char **message);

/* The log with the driver's name for the program's source (PoCL's temporary
 * ".../tempfile_XXXXXX.cl", Clang's "<source>" or "<kernel>", Oclgrind's "input.cl")
 * replaced by `path` wherever
 * it heads a position, so the log names the file the user wrote and reads the same in
 * every run. Caller frees. */
char *buildlog_name_source(const char *log, const char *path);

/* What to do about the first error, where a build log suggests it: an undeclared name in
 * capitals is most often a macro the application defines when it builds the program
 * (-D NAME=VALUE). NULL when there is nothing to add; caller frees. */
char *buildlog_hint(const char *message);

#endif
