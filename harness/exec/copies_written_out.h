/* copies_written_out.h - OpenCL C that writes a work-group's async copies out as plain
 * loads and stores, for a second simulated run: Oclgrind 21.10 marks the elements
 * async_work_group_strided_copy fills as uninitialised (it steps through its shadow of
 * the destination with the source's stride), and only a run without its copies can
 * tell that apart from a value that really was never written. */
#ifndef CLH_COPIES_WRITTEN_OUT_H
#define CLH_COPIES_WRITTEN_OUT_H

#include <stdbool.h>

/* The text to include before the kernel's source (clang's -include): every element type
 * and vector width of async_work_group_copy and async_work_group_strided_copy, in both
 * directions, done by the work-group's items in turn, and wait_group_events as a barrier
 * so that each item sees the others' elements. It adds no line to the kernel's file. */
const char *copies_written_out_prelude(void);

/* Whether OpenCL C source calls async_work_group_strided_copy. */
bool source_uses_strided_copy(const char *source);

#endif
