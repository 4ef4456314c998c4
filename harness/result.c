/* result.c - verdict names and expectations of results. */
#include "config.h"

#include "result.h"

#include <stdarg.h>
#include <stdlib.h>

#include "util.h"

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[VERDICT_PASS] = "pass",
		[VERDICT_WRONG_OUTPUT] = "wrong-output",
		[VERDICT_BUILD_ERROR] = "build-error",
		[VERDICT_CASE_ERROR] = "case-error",
		[VERDICT_TIMEOUT] = "timeout",
		[VERDICT_CRASH] = "crash",
		[VERDICT_SKIP] = "skip",
	};
	return names[v];
}

bool result_expected(const struct result *r)
{
	switch (r->verdict) {
	case VERDICT_PASS:
	case VERDICT_SKIP:
		return true;
	case VERDICT_WRONG_OUTPUT:
		return r->racy;
	default:
		return false;
	}
}

void result_set_diag(struct result *r, enum verdict v, const char *file, int line, int col,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(r->message);
	r->message = xvasprintf(fmt, ap);
	va_end(ap);
	free(r->file);
	r->file = file ? xstrdup(file) : NULL;
	r->line = line;
	r->col = col;
	r->verdict = v;
}

void result_free(struct result *r)
{
	free(r->case_name);
	free(r->case_path);
	free(r->target);
	free(r->backend);
	free(r->file);
	free(r->message);
	free(r->detail);
	free(r->buffer);
	*r = (struct result){ 0 };
}
