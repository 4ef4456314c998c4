/* backend_racecheck.c - the racecheck backend: each real device again, as NAME+racecheck,
 * running kernels rewritten at their source (source/instrument.h) so that every access to
 * local, global and constant memory is checked against shadow memory on the device. Its
 * findings are the simulator's kinds, at full launch size and near the device's speed.
 *
 * The kernels are rewritten in the parent, before any worker starts (prepare_cases): a
 * worker is confined, and starts no process, while libclang is read in a child process of
 * its own. Workers find the rewrites in memory they were forked with. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/elem.h"
#include "exec/clexec.h"
#include "exec/ocl.h"
#include "exec/progcache.h"
#include "exec/shadowscan.h"
#include "source/instrument.h"

/* A kernel file rewritten with a case's build options, or why it could not be. */
struct rewrite {
	char *path;
	char *options;
	struct instr_program program;
	char *error; /* NULL: the rewrite is there */
	int error_line;
};

static struct rewrite *rewrites;
static size_t nrewrites;

static struct rewrite *rewrite_find(const char *path, const char *options)
{
	for (size_t i = 0; i < nrewrites; i++)
		if (strcmp(rewrites[i].path, path) == 0 && strcmp(rewrites[i].options, options) == 0)
			return &rewrites[i];
	return NULL;
}

/* The rewrite of `path` with `options`: from the rewrite cache (~/.cache/clharness/
 * rewrites, keyed as programs are, by the file, what it includes, the options and the
 * rewrite's version), else made with libclang and kept there. A machine without libclang
 * runs what was rewritten where it has (a cache folder carried with the build). */
static int rewrite_cached(const char *path, const char *options, struct instr_program *out,
			  struct diag_list *diags)
{
	size_t len;
	char *source = read_file(path, &len);
	char *cache = source ? progcache_beside("rewrites") : NULL;
	struct strbuf key = { 0 };
	bool keyed = cache && progcache_key(&key, instrument_version(), path, source, len,
					    options);
	char *text = keyed ? (char *)progcache_load(cache, &key, &len, NULL) : NULL;
	if (text) {
		text = xreallocarray(text, len + 1, 1);
		text[len] = '\0';
	} else {
		text = instrument_serialised(path, options, diags);
		if (text && keyed && strstr(text, "\nX\t"))
			progcache_store(cache, &key, (const unsigned char *)text, strlen(text));
	}
	int status = text ? instrument_parse(path, text, out, diags) : -1;
	free(text);
	strbuf_free(&key);
	free(cache);
	free(source);
	return status;
}

/* Rewrites the kernel file `path` for build `options`, unless it is rewritten already. */
static void rc_prepare_file(const char *path, const char *options)
{
	if (rewrite_find(path, options))
		return;
	rewrites = xreallocarray(rewrites, nrewrites + 1, sizeof *rewrites);
	struct rewrite *rw = &rewrites[nrewrites++];
	*rw = (struct rewrite){ .path = xstrdup(path), .options = xstrdup(options) };
	struct diag_list diags = { 0 };
	if (rewrite_cached(path, options, &rw->program, &diags) < 0) {
		struct strbuf why = { 0 };
		for (size_t d = 0; d < diags.count; d++)
			strbuf_printf(&why, "%s%s", d ? "; " : "", diags.items[d].message);
		rw->error = strbuf_take(&why);
		if (rw->error == NULL)
			rw->error = xstrdup("the rewrite failed");
		rw->error_line = diags.count ? diags.items[0].line : 0;
	}
	diag_list_free(&diags);
}

/* Rewrites every kernel file the cases build that is not rewritten yet. */
static void rc_prepare_cases(struct test_case *const *cases, size_t ncases)
{
	for (size_t c = 0; c < ncases; c++) {
		const struct test_case *tc = cases[c];
		for (size_t s = 0; s < tc->nsteps; s++)
			if (tc->steps[s].kernel_path)
				rc_prepare_file(tc->steps[s].kernel_path,
						tc->options ? tc->options : "");
	}
}


/* The device's drivers run the rewritten kernels: they are set up as the device
 * backend sets them up. */
static void rc_preload(void)
{
	backend_device.preload();
}

static void rc_prepare_worker(const struct worker_setup *setup)
{
	backend_device.prepare_worker(setup);
}

static int rc_list(struct target **targets, size_t *count, char **cause)
{
	if (backend_device.list_targets(targets, count, cause) < 0)
		return -1;
	for (size_t i = 0; i < *count; i++) {
		struct target *t = &(*targets)[i];
		char *name = xasprintf("%s+racecheck", t->name);
		free(t->name);
		free(t->type);
		t->name = name;
		t->type = xstrdup("racecheck");
	}
	return 0;
}

/* One launch's shadow: its buffers, and what the records it leaves are read with. */
struct rc_launch {
	cl_mem cells, aux, ctl;
	uint32_t *words; /* the control words, read back after the launch */
	size_t nwords;
	const struct instr_program *program;
	size_t step;
	unsigned dims;
	size_t local[3], groups[3], offset[3];
	/* Per region of the launch's kernel: the case argument it came from. */
	size_t *global_args, nglobal;
	size_t *local_args, nlocal;
	/* Per global region: its first granule and how many it has (UINT64_MAX: no
	 * shadow), and the access its buffer's flags allow. */
	uint64_t *global_first, *global_granules;
	enum buffer_access *global_access;
};

struct rc_session {
	struct clexec *cx;
	struct clexec_hooks hooks;
	struct rc_launch *launches;
	size_t nlaunches;
	bool gaps_said; /* for the case last built */
	cl_command_queue queue; /* the launches', where their shadow is read after the run */
};

static void launch_release(struct rc_launch *l)
{
	if (l->cells)
		clReleaseMemObject(l->cells);
	if (l->aux)
		clReleaseMemObject(l->aux);
	if (l->ctl)
		clReleaseMemObject(l->ctl);
	free(l->words);
	free(l->global_args);
	free(l->local_args);
	free(l->global_first);
	free(l->global_granules);
	free(l->global_access);
	*l = (struct rc_launch){ 0 };
}

static const char *rc_source(void *ctx, const char *kernel_path, const char *options, size_t *len,
			     struct result *failure)
{
	(void)ctx;
	const struct rewrite *rw = rewrite_find(kernel_path, options);
	if (rw == NULL) {
		result_set_diag(failure, VERDICT_CASE_ERROR, kernel_path, 0, 0,
				"racecheck has no rewrite of this kernel file: its cases were not "
				"handed to the backend before its workers started");
		return NULL;
	}
	if (rw->error) {
		result_set_diag(failure, VERDICT_BUILD_ERROR, kernel_path, rw->error_line, 0,
				"racecheck could not rewrite the kernel: %s", rw->error);
		return NULL;
	}
	*len = rw->program.len;
	return rw->program.source;
}

static uint64_t round_up(uint64_t bytes, unsigned shift)
{
	return (bytes + (1u << shift) - 1) >> shift;
}

static void put64(uint32_t *w, uint64_t v)
{
	w[0] = (uint32_t)v;
	w[1] = (uint32_t)(v >> 32);
}

/* Readies launch i: lays out its shadow, makes and clears its buffers, and sets the
 * kernel's three arguments after the case's. */
static int rc_before(void *ctx, cl_context context, cl_command_queue queue, cl_kernel kernel,
		     const struct test_case *tc, const struct plan *plan, size_t i,
		     struct result *failure)
{
	struct rc_session *s = ctx;
	const struct plan_launch *launch = &plan->launches[i];
	const struct step *st = &tc->steps[launch->step];
	const struct rewrite *rw = rewrite_find(st->kernel_path, tc->options ? tc->options : "");
	const struct instr_kernel *k = rw ? instr_program_kernel(&rw->program, st->kernel_name)
					  : NULL;
	if (k == NULL || k->nparams != st->nargs) {
		result_set_diag(failure, VERDICT_CASE_ERROR, st->kernel_path, 0, 0,
				"racecheck's rewrite has no kernel %s taking %zu arguments",
				st->kernel_name, st->nargs);
		return -1;
	}
	s->launches = xreallocarray(s->launches, s->nlaunches + 1, sizeof *s->launches);
	struct rc_launch *l = &s->launches[s->nlaunches++];
	*l = (struct rc_launch){ .program = &rw->program, .step = launch->step, .dims = launch->dims };
	unsigned shift = rw->program.granule_shift;
	uint64_t granules = 0, local_each = round_up(k->local_bytes, shift);
	size_t ngroups = 1;
	for (unsigned d = 0; d < 3; d++) {
		l->local[d] = d < launch->dims && launch->local[d] ? launch->local[d] : 1;
		size_t global = d < launch->dims ? launch->global[d] : 1;
		l->groups[d] = (global + l->local[d] - 1) / l->local[d];
		l->offset[d] = d < launch->dims ? launch->offset[d] : 0;
		ngroups *= l->groups[d];
	}
	l->global_args = xcalloc(st->nargs + 1, sizeof *l->global_args);
	l->local_args = xcalloc(st->nargs + 1, sizeof *l->local_args);
	uint64_t *global_bytes = xcalloc(st->nargs + 1, sizeof *global_bytes);
	uint64_t *global_first = l->global_first = xcalloc(st->nargs + 1, sizeof *global_first);
	l->global_granules = xcalloc(st->nargs + 1, sizeof *l->global_granules);
	l->global_access = xcalloc(st->nargs + 1, sizeof *l->global_access);
	uint64_t *local_bytes = xcalloc(st->nargs + 1, sizeof *local_bytes);
	for (size_t a = 0; a < st->nargs; a++) {
		const struct plan_arg *pa = &launch->args[a];
		char space = k->spaces[a];
		if (space == 'g' || space == 'c') {
			uint64_t bytes = pa->kind == ARG_BUFFER
						 ? plan_buffer_bytes(tc, plan, pa->buffer)
						 : 0;
			global_bytes[l->nglobal] = bytes;
			global_first[l->nglobal] = space == 'c' ? UINT64_MAX : granules;
			l->global_granules[l->nglobal] = round_up(bytes, shift);
			if (pa->kind == ARG_BUFFER)
				l->global_access[l->nglobal] = tc->buffers[pa->buffer].access;
			if (space == 'g')
				granules += round_up(bytes, shift);
			l->global_args[l->nglobal++] = a;
		} else if (space == 'l') {
			uint64_t bytes = pa->kind == ARG_LOCAL ? pa->local_bytes : 0;
			local_bytes[l->nlocal] = bytes;
			local_each += round_up(bytes, shift);
			l->local_args[l->nlocal++] = a;
		}
	}
	uint64_t local_cells = granules;
	granules += local_each * ngroups;
	size_t nsites = rw->program.nsites + 1;
	size_t cap = 4096;
	size_t header = CTL_REGIONS + 4 * l->nglobal + 2 * l->nlocal;
	size_t pairs = SHADOW_KINDS * nsites * nsites;
	l->nwords = header + pairs + cap * SHADOW_RECORD_WORDS;
	uint64_t ncells = 2 * granules + SHADOW_GROUP_WORDS * ngroups;
	uint64_t cell_bytes = ncells * sizeof(uint64_t);
	/* The sink, after the aux words, starts at a multiple of its own size: an access of
	 * the widest type sent there is aligned (a GPU faults on a misaligned vector). */
	uint64_t sink_word = round_up(2 * granules * sizeof(uint64_t), SHADOW_SINK_SHIFT) *
			     SHADOW_SINK_BYTES / sizeof(uint64_t);
	uint64_t aux_bytes = sink_word * sizeof(uint64_t) + SHADOW_SINK_BYTES;
	int status = -1;
	cl_int err = CL_SUCCESS;
	if (nsites > 2048 || ncells > UINT32_MAX) {
		result_set_diag(failure, VERDICT_SKIP, st->kernel_path, 0, 0,
				"racecheck cannot check this launch: %s",
				nsites > 2048 ? "the kernel file has over 2047 accesses"
					      : "its shadow would need over 2^32 cells");
		goto out;
	}
	l->words = xcalloc(l->nwords, sizeof *l->words);
	uint32_t *w = l->words;
	w[CTL_LOG_CAP] = (uint32_t)cap;
	w[CTL_SHIFT] = shift;
	w[CTL_NSITES] = (uint32_t)nsites;
	w[CTL_PAIRS] = (uint32_t)header;
	w[CTL_LOG] = (uint32_t)(header + pairs);
	w[CTL_DIVERGENCE] = (uint32_t)(2 * granules);
	w[CTL_LOCAL_EACH] = (uint32_t)local_each;
	w[CTL_LOCAL_CELLS] = (uint32_t)local_cells;
	w[CTL_SINK] = (uint32_t)sink_word;
	w[CTL_NGLOBAL] = (uint32_t)l->nglobal;
	w[CTL_NLOCAL] = (uint32_t)l->nlocal;
	for (size_t r = 0; r < l->nglobal; r++) {
		put64(w + CTL_REGIONS + 4 * r, global_bytes[r]);
		put64(w + CTL_REGIONS + 4 * r + 2, global_first[r]);
	}
	for (size_t r = 0; r < l->nlocal; r++)
		put64(w + CTL_REGIONS + 4 * l->nglobal + 2 * r, local_bytes[r]);
	l->cells = clCreateBuffer(context, CL_MEM_READ_WRITE, cell_bytes, NULL, &err);
	if (l->cells)
		l->aux = clCreateBuffer(context, CL_MEM_READ_WRITE, aux_bytes, NULL, &err);
	if (l->aux)
		l->ctl = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
					l->nwords * sizeof *w, w, &err);
	if (l->ctl == NULL) {
		result_set_diag(failure, VERDICT_SKIP, st->kernel_path, 0, 0,
				"racecheck cannot check this launch: its shadow of %llu bytes does "
				"not fit the device (%s)",
				(unsigned long long)(cell_bytes + aux_bytes), ocl_error_name(err));
		goto out;
	}
	const uint64_t zero = 0;
	err = clEnqueueFillBuffer(queue, l->cells, &zero, sizeof zero, 0, cell_bytes, 0, NULL,
				  NULL);
	if (err == CL_SUCCESS)
		err = clEnqueueFillBuffer(queue, l->aux, &zero, sizeof zero, 0, aux_bytes, 0, NULL,
					  NULL);
	cl_uint first = (cl_uint)st->nargs;
	if (err == CL_SUCCESS)
		err = clSetKernelArg(kernel, first, sizeof(cl_mem), &l->cells);
	if (err == CL_SUCCESS)
		err = clSetKernelArg(kernel, first + 1, sizeof(cl_mem), &l->aux);
	if (err == CL_SUCCESS)
		err = clSetKernelArg(kernel, first + 2, sizeof(cl_mem), &l->ctl);
	if (err != CL_SUCCESS) {
		result_set_diag(failure, VERDICT_CASE_ERROR, st->kernel_path, 0, 0,
				"racecheck could not set up its shadow: %s (%d)",
				ocl_error_name(err), err);
		goto out;
	}
	status = 0;
out:
	free(global_bytes);
	free(local_bytes);
	return status;
}

static int rc_after(void *ctx, cl_command_queue queue, size_t i)
{
	struct rc_session *s = ctx;
	struct rc_launch *l = &s->launches[s->nlaunches - 1];
	(void)i;
	s->queue = queue;
	return clEnqueueReadBuffer(queue, l->ctl, CL_FALSE, 0, l->nwords * sizeof *l->words,
				   l->words, 0, NULL, NULL) == CL_SUCCESS
		       ? 0
		       : -1;
}

/* A work-item of the launch from its group-major number; past every item's, the
 * work-group whose async copies made the access (shadowrt.c's copier). */
static struct entity item_of(const struct rc_launch *l, uint32_t item)
{
	size_t wg = l->local[0] * l->local[1] * l->local[2];
	size_t items = wg * l->groups[0] * l->groups[1] * l->groups[2];
	/* A group entity's local and global ids are unused (entity.h). */
	struct entity e = { .is_item = item < items };
	size_t group = e.is_item ? item / wg : item - items, local = e.is_item ? item % wg : 0;
	for (unsigned d = 0; d < 3; d++) {
		e.local[d] = (long)(local % l->local[d]);
		local /= l->local[d];
		e.group[d] = (long)(group % l->groups[d]);
		group /= l->groups[d];
		e.global[d] = e.group[d] * (long)l->local[d] + e.local[d] + (long)l->offset[d];
	}
	return e;
}

static const char *const space_names[] = { "global", "local", "constant", "private" };

/* What region `region` of a launch's `space` is, for a message: the buffer or local
 * argument's name, or a local array of the kernel. Caller frees. */
static char *region_name(const struct rc_launch *l, const struct test_case *tc, uint32_t space,
			 uint32_t region)
{
	const struct step *st = &tc->steps[l->step];
	if (space != 1 && region < l->nglobal) {
		const struct arg *arg = &st->args[l->global_args[region]];
		return xstrdup(arg->kind == ARG_BUFFER ? tc->buffers[arg->buffer].name : "?");
	}
	if (space == 1 && region < l->nlocal)
		return xasprintf("local argument %zu", l->local_args[region] + 1);
	if (space == 1)
		return xstrdup("a local array of the kernel");
	return NULL;
}

static char site_access(const struct instr_site *site, bool writes)
{
	if (site->access == 'a' || site->access == 'c')
		return site->access;
	if (site->access == 'u')
		return writes ? 'w' : 'r';
	return site->access == 'w' ? 'w' : 'r';
}

/* Where an out-of-bounds access went: "read byte 4096 of in", with the buffer or local
 * array it left (NULL: it was in none). Caller frees. */
static char *oob_info(const char *what, int32_t offset, const char *name)
{
	return name ? xasprintf("%s byte %d of %s", what, offset, name)
		    : xstrdup("an address in no buffer the kernel was given");
}

/* Notes a finding whose pair of sites the launch counted `count` times. */
static void note_pair(struct result *r, const struct finding_event *e, uint32_t count)
{
	struct finding *f = finding_list_note(&r->findings, e);
	f->count += count > 1 ? count - 1 : 0;
}

/* An index past an array of a size the source gives (record: the array's elements as
 * the region, the index as the offset) makes e the index, as the simulator reports it; in
 * private memory, which no other check sees, the access it made is noted too. Returns
 * e's info, which the caller frees. */
static char *index_past_array(const struct rc_launch *l, struct finding_event *e,
			      const struct instr_site *at, const uint32_t *rec, uint32_t count,
			      struct result *r)
{
	int32_t index = (int32_t)rec[7];
	uint32_t elements = rec[6];
	e->kind = FINDING_OUT_OF_BOUNDS;
	e->example[0] = item_of(l, rec[3]);
	e->nexample = 1;
	if ((rec[5] & 0xff) == SHADOW_PRIVATE)
		for (int pass = 0; pass < (at->access == 'u' ? 2 : 1); pass++) {
			struct finding_event access = *e;
			bool store = at->access == 'w' || pass == 1;
			access.what = store ? "write" : "read";
			access.at.access = store ? 'w' : 'r';
			char *was = xasprintf("%s element %d of a private array of %u, sent to "
					      "its first instead",
					      access.what, index, elements);
			access.info = was;
			note_pair(r, &access, count);
			free(was);
		}
	e->what = "index";
	e->at.access = 0;
	char *info = xasprintf("index %d of an array of %u element%s", index, elements,
			       elements == 1 ? "" : "s");
	e->info = info;
	return info;
}

/* An access off its type's alignment: an unaligned read or write, as the simulator names
 * it, and both for an update (x += 1), whose load and store are each off. */
static void unaligned(const struct rc_launch *l, struct finding_event *e,
		      const struct instr_site *at, const uint32_t *rec, uint32_t count,
		      struct result *r)
{
	e->kind = FINDING_OUT_OF_BOUNDS;
	e->example[0] = item_of(l, rec[3]);
	e->nexample = 1;
	bool store = at->access == 'w' || at->access == 'a';
	e->what = store ? "unaligned write" : "unaligned read";
	e->at.access = store ? 'w' : 'r';
	if (at->access == 'u') {
		struct finding_event write = *e;
		write.what = "unaligned write";
		write.at.access = 'w';
		note_pair(r, &write, count);
	}
}

/* The findings of one launch's records, through the neutral constructor. */
static void read_records(const struct rc_launch *l, const struct test_case *tc,
			 struct result *r)
{
	const struct step *st = &tc->steps[l->step];
	const uint32_t *w = l->words;
	uint32_t nsites = w[CTL_NSITES], logged = w[CTL_LOG_COUNT], cap = w[CTL_LOG_CAP];
	const struct instr_site *sites = l->program->sites;
	/* Writes of different values first, so that a pair of sites whose writes differ
	 * somewhere is an error, however many of its writes agreed. */
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < logged && i < cap; i++) {
			const uint32_t *rec = w + w[CTL_LOG] + i * SHADOW_RECORD_WORDS;
			uint32_t kind = rec[0], a = rec[1], b = rec[2];
			if ((kind == SHADOW_SAME_WRITES) != (pass == 1) || kind >= SHADOW_KINDS ||
			    a == 0 || a >= nsites || b >= nsites)
				continue;
			uint32_t space = rec[5] & 0xff;
			bool writes = (rec[5] & SHADOW_THIS_WRITES) != 0;
			const struct instr_site *at = &sites[a - 1];
			const struct instr_site *other = b ? &sites[b - 1] : NULL;
			uint32_t count = w[w[CTL_PAIRS] + (kind * nsites + a) * nsites + b];
			struct finding_event e = {
				.severity = kind == SHADOW_SAME_WRITES ? DIAG_WARNING : DIAG_ERROR,
				.space = space <= SHADOW_PRIVATE ? space_names[space] : NULL,
				.kernel = st->kernel_name,
				.file = st->kernel_path,
				.at = { at->line, at->col, 0 },
			};
			char *info = NULL;
			switch (kind) {
			case SHADOW_READ_WRITE:
			case SHADOW_WRITE_WRITE:
			case SHADOW_SAME_WRITES:
				e.kind = FINDING_RACE;
				e.what = kind == SHADOW_READ_WRITE ? "read-write" : "write-write";
				e.at.access = site_access(at, writes);
				if (other)
					e.other = (struct finding_site){
						other->line, other->col,
						site_access(other, kind == SHADOW_READ_WRITE
									   ? !writes
									   : true)
					};
				e.example[0] = item_of(l, rec[3]);
				e.example[1] = item_of(l, rec[4]);
				e.nexample = 2;
				break;
			case SHADOW_OUT_OF_BOUNDS: {
				if (rec[5] & SHADOW_INDEX) {
					info = index_past_array(l, &e, at, rec, count, r);
					break;
				}
				if (rec[5] & SHADOW_UNALIGNED) {
					unaligned(l, &e, at, rec, count, r);
					break;
				}
				e.kind = FINDING_OUT_OF_BOUNDS;
				e.what = at->access == 'w' || at->access == 'a' ? "write" : "read";
				e.at.access = at->access == 'w'	  ? 'w'
					      : at->access == 'a' ? 'a'
								  : 'r';
				e.example[0] = item_of(l, rec[3]);
				e.nexample = 1;
				char *name = region_name(l, tc, space, rec[6]);
				e.outside_buffers = name == NULL || (int32_t)rec[7] < 0;
				info = oob_info(e.what, (int32_t)rec[7], name);
				e.info = info;
				/* An update (x[i] += 1) outside reads and writes there: a write
				 * too, as the simulator reports its load and its store. */
				if (at->access == 'u') {
					struct finding_event store = e;
					store.what = "write";
					store.at.access = 'w';
					char *stored = oob_info("write", (int32_t)rec[7], name);
					store.info = stored;
					note_pair(r, &store, count);
					free(stored);
				}
				/* A local array the kernel declares has a size its type gives:
				 * an access past it indexes past the array, as the simulator
				 * reports beside the access itself. */
				if (space == 1 && rec[6] >= l->nlocal && rec[6] != UINT32_MAX) {
					struct finding_event index = e;
					index.what = "index";
					index.at.access = 0;
					int32_t at_byte = (int32_t)rec[7];
					char *said = xasprintf(
						"the access is at its byte %d, %s", at_byte,
						at_byte < 0 ? "before its start" : "past its end");
					index.info = said;
					note_pair(r, &index, count);
					free(said);
				}
				free(name);
				break;
			}
			case SHADOW_DIVERGENCE:
				e.kind = FINDING_DIVERGENCE;
				e.what = "barrier";
				e.space = NULL;
				e.at.access = 0;
				/* The barrier the other items reached instead, where that is
				 * another line. */
				if (other && other->line != at->line)
					e.other =
						(struct finding_site){ other->line, other->col, 0 };
				if (space == SHADOW_FENCE_FLAGS) {
					e.what = "fence flags";
					info = finding_fence_pair(rec[7], rec[6]);
					e.info = info;
				}
				e.example[0] = item_of(l, rec[3]);
				e.nexample = 1;
				break;
			}
			note_pair(r, &e, count);
			free(info);
		}
	if (logged > cap) {
		char *info = xasprintf("%u", cap);
		struct finding_event e = { .kind = FINDING_TRUNCATED,
					   .severity = DIAG_ERROR,
					   .what = "racecheck",
					   .kernel = st->kernel_name,
					   .file = st->kernel_path,
					   .info = info };
		finding_list_note(&r->findings, &e);
		free(info);
	}
}

/* The accesses a buffer's memory-object flags forbid, as the simulator reports them: each
 * site whose write of a CL_MEM_READ_ONLY buffer, or read of a CL_MEM_WRITE_ONLY one, the
 * shadow kept. The device checks nothing for them; the shadow is read after the run. */
static void read_flags(cl_command_queue queue, const struct rc_launch *l,
		       const struct test_case *tc, struct result *r)
{
	const struct step *st = &tc->steps[l->step];
	for (size_t g = 0; g < l->nglobal; g++) {
		enum buffer_access access = l->global_access[g];
		if (access == ACCESS_READ_WRITE || l->global_first[g] == UINT64_MAX)
			continue;
		bool reads = access == ACCESS_WRITE_ONLY;
		struct shadow_hit *hits;
		long n = shadow_scan(queue, l->cells, l->aux, l->global_first[g],
				     l->global_granules[g], reads, &hits);
		if (n < 0) {
			char *name = region_name(l, tc, 0, (uint32_t)g);
			char *info =
				xasprintf("racecheck could not read back the shadow of %s, "
					  "so whether the kernel kept its %s flag is unknown",
					  name, reads ? "CL_MEM_WRITE_ONLY" : "CL_MEM_READ_ONLY");
			struct finding_event e = { .kind = FINDING_OTHER,
						   .severity = DIAG_ERROR,
						   .what = "shadow not read",
						   .kernel = st->kernel_name,
						   .file = st->kernel_path,
						   .info = info };
			finding_list_note(&r->findings, &e);
			free(info);
			free(name);
			continue;
		}
		for (long h = 0; h < n; h++) {
			if (hits[h].site == 0 || hits[h].site > l->program->nsites)
				continue;
			const struct instr_site *at = &l->program->sites[hits[h].site - 1];
			struct finding_event e = {
				.kind = FINDING_OUT_OF_BOUNDS,
				.severity = DIAG_ERROR,
				.what = reads ? "read from write-only" : "write to read-only",
				.space = "global",
				.kernel = st->kernel_name,
				.file = st->kernel_path,
				.at = { at->line, at->col, reads ? 'r' : 'w' },
				.example = { item_of(l, hits[h].item) },
				.nexample = 1,
			};
			note_pair(r, &e,
				  hits[h].granules > UINT32_MAX ? UINT32_MAX
								: (uint32_t)hits[h].granules);
		}
		free(hits);
	}
}

/* The accesses the rewrite could not instrument, as warnings: what they do was not
 * checked. */
static void say_gaps(const struct instr_program *p, const struct step *st, struct result *r)
{
	for (size_t g = 0; g < p->ngaps; g++) {
		char *info = xasprintf("racecheck did not instrument this: %s, so it was not "
				       "checked",
				       p->gaps[g].why);
		struct finding_event e = { .kind = FINDING_OTHER,
					   .severity = DIAG_WARNING,
					   .what = "not instrumented",
					   .kernel = st->kernel_name,
					   .file = st->kernel_path,
					   .at = { p->gaps[g].line, p->gaps[g].col, 0 },
					   .info = info };
		finding_list_note(&r->findings, &e);
		free(info);
	}
}

static void rc_finished(void *ctx, bool ran, const struct test_case *tc, const struct plan *plan,
			struct result *failure)
{
	(void)plan;
	struct rc_session *s = ctx;
	for (size_t i = 0; i < s->nlaunches; i++) {
		if (ran) {
			read_records(&s->launches[i], tc, failure);
			read_flags(s->queue, &s->launches[i], tc, failure);
		}
		if (!s->gaps_said) {
			say_gaps(s->launches[i].program, &tc->steps[s->launches[i].step], failure);
		}
		launch_release(&s->launches[i]);
	}
	s->gaps_said = true;
	s->nlaunches = 0;
}

static int rc_open(const struct target *target, struct backend_session **session, char **cause)
{
	struct rc_session *s = xcalloc(1, sizeof *s);
	s->hooks = (struct clexec_hooks){ .ctx = s,
					  .source = rc_source,
					  .extra_args = 3,
					  .before_launch = rc_before,
					  .after_launch = rc_after,
					  .finished = rc_finished };
	if (backend_device.open(target, (struct backend_session **)&s->cx, cause) < 0) {
		free(s);
		return -1;
	}
	clexec_set_hooks(s->cx, &s->hooks);
	*session = (struct backend_session *)s;
	return 0;
}

/* The build options racecheck adds to a case's own on the session's device. */
static const char *own_options(const struct rc_session *s)
{
	/* A CPU device runs a work-group's items one after another on one thread (PoCL's
	 * work-item loops), so the runtime keeps local memory's shadow without atomics. */
	bool serial = (clexec_device_type(s->cx) & CL_DEVICE_TYPE_CPU) != 0;
	return serial ? "-D__RC_GROUP_SERIAL" : "";
}

static int rc_build(struct backend_session *session, const struct test_case *tc,
		    unsigned *cached, struct result *failure)
{
	struct rc_session *s = (struct rc_session *)session;
	s->gaps_said = false;
	return clexec_build(s->cx, tc, own_options(s), cached, failure);
}

static int rc_execute(struct backend_session *session, const struct test_case *tc,
		      const struct plan *plan, void *const *initial, void **final, unsigned repeat,
		      uint64_t *round_ns, const struct finding_list *settled, struct result *failure)
{
	(void)settled;
	struct rc_session *s = (struct rc_session *)session;
	return clexec_execute(s->cx, tc, plan, initial, final, repeat, round_ns, failure);
}

/* The parameters are read from the rewritten program, less those the rewrite appends: it
 * is built as a run builds it, so the runs that follow load it from the program cache
 * where the file's own would have cost a second build. */
static int rc_inspect(struct backend_session *session, const char *path, const char *kernel,
		      const char *options, struct kernel_sig *sig, struct result *failure)
{
	struct rc_session *s = (struct rc_session *)session;
	return clexec_inspect(s->cx, path, kernel, own_options(s), options, sig, failure);
}

static void rc_close(struct backend_session *session)
{
	struct rc_session *s = (struct rc_session *)session;
	for (size_t i = 0; i < s->nlaunches; i++)
		launch_release(&s->launches[i]);
	free(s->launches);
	clexec_close(s->cx);
	free(s);
}

const struct backend backend_racecheck = {
	.name = "racecheck",
	.capabilities = CAN_FIND | CAN_RUN_NATIVE_CODE,
	.named_only = true,
	.preload = rc_preload,
	.prepare_worker = rc_prepare_worker,
	.prepare_cases = rc_prepare_cases,
	.prepare_file = rc_prepare_file,
	.list_targets = rc_list,
	.open = rc_open,
	.build = rc_build,
	.execute = rc_execute,
	.inspect = rc_inspect,
	.close = rc_close,
};
