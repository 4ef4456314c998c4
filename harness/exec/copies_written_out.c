/* copies_written_out.c - a work-group's async copies as plain loads and stores. */
#include "config.h"

#include "exec/copies_written_out.h"

#include <string.h>

/* Macros make the overloads, so the text stays short; every name starts clh_ so that no
 * kernel's own names meet it. */
static const char prelude[] =
	"#ifdef cl_khr_fp64\n"
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#endif\n"
	"static size_t clh_group_items(void)\n"
	"{\n"
	"\treturn get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
	"}\n"
	"static size_t clh_group_item(void)\n"
	"{\n"
	"\treturn (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +\n"
	"\t       get_local_id(0);\n"
	"}\n"
	"#define CLH_COPY(T)                                                                 \\\n"
	"\t__attribute__((overloadable)) event_t clh_copy(local T *dst, const global T *src,  \\\n"
	"\t\t\t\t\t\t       size_t n, size_t stride, event_t e)       \\\n"
	"\t{                                                                           \\\n"
	"\t\tfor (size_t i = clh_group_item(); i < n; i += clh_group_items())          \\\n"
	"\t\t\tdst[i] = src[i * stride];                                         \\\n"
	"\t\treturn e;                                                           \\\n"
	"\t}                                                                           \\\n"
	"\t__attribute__((overloadable)) event_t clh_copy(global T *dst, const local T *src,  \\\n"
	"\t\t\t\t\t\t       size_t n, size_t stride, event_t e)       \\\n"
	"\t{                                                                           \\\n"
	"\t\tfor (size_t i = clh_group_item(); i < n; i += clh_group_items())          \\\n"
	"\t\t\tdst[i * stride] = src[i];                                         \\\n"
	"\t\treturn e;                                                           \\\n"
	"\t}\n"
	"#define CLH_COPIES(T) CLH_COPY(T) CLH_COPY(T##2) CLH_COPY(T##3) CLH_COPY(T##4) \\\n"
	"\tCLH_COPY(T##8) CLH_COPY(T##16)\n"
	"CLH_COPIES(char)\n"
	"CLH_COPIES(uchar)\n"
	"CLH_COPIES(short)\n"
	"CLH_COPIES(ushort)\n"
	"CLH_COPIES(int)\n"
	"CLH_COPIES(uint)\n"
	"CLH_COPIES(long)\n"
	"CLH_COPIES(ulong)\n"
	"CLH_COPIES(float)\n"
	"#ifdef cl_khr_fp64\n"
	"CLH_COPIES(double)\n"
	"#endif\n"
	"#define async_work_group_copy(dst, src, n, e) clh_copy((dst), (src), (n), 1, (e))\n"
	"#define async_work_group_strided_copy clh_copy\n"
	"#define wait_group_events(n, events) barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)\n";

const char *copies_written_out_prelude(void)
{
	return prelude;
}

bool source_uses_strided_copy(const char *source)
{
	return source && strstr(source, "async_work_group_strided_copy") != NULL;
}
