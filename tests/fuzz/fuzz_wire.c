/* fuzz_wire.c - libFuzzer target: what a worker sends its parent, split into frames and
 * each decoded as the parent decodes it; a decoded result goes through the reporters,
 * which index tables by its verdicts and kinds. */
#include "config.h"

#include "exec/wire.h"
#include "fuzz.h"
#include "results/report.h"

static void report(const struct result *r)
{
	struct strbuf out = { 0 };
	for (size_t i = 0; i < r->findings.count; i++) {
		report_finding(&out, &r->findings.items[i], "kernels/fuzz.cl", NULL, false);
		finding_normal(&out, &r->findings.items[i]);
	}
	verdict_name(r->verdict);
	verdict_name(r->output);
	strbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	size_t left = size;
	for (;;) {
		enum frame_type type;
		const char *payload;
		size_t len;
		long whole = wire_split(p, left, &type, &payload, &len);
		if (whole <= 0)
			break;
		struct result r;
		struct target t;
		struct kernel_sig sig;
		size_t c, run;
		long long offset;
		char *message;
		switch (type) {
		case FRAME_RESULT:
			if (wire_read_result(payload, len, &r) == 0) {
				report(&r);
				result_free(&r);
			}
			break;
		case FRAME_TARGET:
			if (wire_read_target(payload, len, &t) == 0)
				target_free(&t);
			break;
		case FRAME_SIGNATURE:
			if (wire_read_signature(payload, len, &sig) == 0)
				kernel_sig_free(&sig);
			break;
		case FRAME_BEGIN:
			wire_read_begin(payload, len, &c, &run, &offset);
			break;
		case FRAME_RESUME:
			wire_read_resume(payload, len, &c);
			break;
		case FRAME_ERROR:
		case FRAME_END:
		case FRAME_NEXT:
			wire_read_message(payload, len, &message);
			free(message);
			break;
		}
		p += whole;
		left -= (size_t)whole;
	}
	return 0;
}
