/* wire_seeds.c - writes one file of frames for each kind a worker sends, encoded by the
 * harness's own encoders, into the folder it is given: the wire fuzz target's seeds. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "exec/wire.h"

static int write_seed(const char *dir, const char *name, struct strbuf *frames)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	int status = f && fwrite(frames->data, 1, frames->len, f) == frames->len ? 0 : -1;
	if (f && fclose(f) != 0)
		status = -1;
	if (status < 0)
		fprintf(stderr, "wire_seeds: cannot write %s\n", path);
	free(path);
	strbuf_free(frames);
	return status;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: wire_seeds FOLDER\n");
		return 2;
	}
	const char *dir = argv[1];
	int status = 0;

	struct strbuf frames = { 0 };
	struct target t = { .name = "pocl-cpu",
			    .type = "cpu",
			    .device = "cpu",
			    .platform = "PoCL",
			    .driver = "3.1",
			    .opencl = "OpenCL 3.0",
			    .limits = { .compute_units = 2,
					.max_work_group = 4096,
					.max_work_item = { 4096, 4096, 4096 },
					.local_mem = 1 << 20,
					.global_mem = 1ull << 33,
					.max_alloc = 1ull << 30,
					.max_constant = 1 << 16,
					.fp64 = true } };
	wire_target(&frames, &t);
	wire_message(&frames, FRAME_END, "");
	status |= write_seed(dir, "targets", &frames);

	float out[4] = { 1, 2, 3, 4 };
	struct kept_buffer kept = { .name = "out", .type = ELEM_FLOAT, .count = 4, .data = out };
	struct finding f = {
		.kind = FINDING_RACE,
		.severity = DIAG_ERROR,
		.what = "read-write",
		.space = "local",
		.kernel = "reduce",
		.file = "kernels/reduce/halving.cl",
		.at = { 13, 5, 'w' },
		.other = { 15, 9, 'r' },
		.count = 3,
		.nexample = 2,
		.info = "",
		.input_set = "zeros",
	};
	f.example[0] = (struct entity){ .is_item = true, .global = { 1 }, .local = { 1 } };
	struct result r = { .case_name = "reduce/halving",
			    .case_path = "cases/reduce/halving.yaml",
			    .target = "oclgrind",
			    .backend = "oclgrind",
			    .n = shape_1d(256),
			    .l = shape_1d(32),
			    .verdict = VERDICT_RACE,
			    .racy = true,
			    .simulated = true,
			    .file = "kernels/reduce/halving.cl",
			    .line = 13,
			    .col = 5,
			    .message = "race",
			    .detail = "log",
			    .buffer = "out",
			    .findings = { &f, 1 },
			    .kept = &kept,
			    .nkept = 1 };
	wire_begin(&frames, 0, 1, 0);
	wire_result(&frames, &r);
	wire_resume(&frames, 1);
	status |= write_seed(dir, "run", &frames);

	struct kernel_param params[2] = {
		{ .name = "in", .type = "float*", .kind = ARG_BUFFER, .read_only = true },
		{ .name = "n", .type = "uint", .kind = ARG_SCALAR }
	};
	struct kernel_sig sig = { .params = params, .count = 2 };
	wire_signature(&frames, &sig);
	wire_message(&frames, FRAME_ERROR, "cannot open the device");
	status |= write_seed(dir, "inspect", &frames);
	return status ? 1 : 0;
}
