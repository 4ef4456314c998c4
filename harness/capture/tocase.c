/* tocase.c - a captured launch as a case: the launch's own shape, each buffer filled with
 * the bytes the application's device held just before it, and each buffer the kernel may
 * write checked against the bytes it held just after. Integers are compared exactly; a
 * float output has no bound the harness could derive for an unknown kernel's arithmetic,
 * so it is compared across the targets that run the case, and a buffer of structs too. */
#include "config.h"

#include "capture/tocase.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/directives.h"
#include "base/util.h"
#include "capture/rawlaunch.h"
#include "capture/rawread.h"
#include "case/elem.h"
#include "case/npy.h"
#include "case/record.h"
#include "case/shape.h"
#include "case/testcase.h"
#include "exec/backend.h"
#include "exec/probe.h"
#include "source/kernelsrc.h"
#include "source/structdef.h"

/* What the writing of one folder's cases carries from launch to launch. */
struct writer {
	const char *dir, *command, *cwd;
	struct diag_list *notes;
	struct capture_tally *tally;
	/* Per kernel name: the launches of it written so far, for the cases' names. */
	char **kernels;
	size_t *written;
	size_t nkernels;
	/* The programs whose source is already under kernels/. */
	unsigned *programs;
	size_t nprograms;
	/* The structs of the kernel read last, as clang lays them out. */
	unsigned source_program;
	char *source_kernel;
	struct kernel_source source;
	bool have_source;
};

static bool make_dir(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST;
}

static bool write_bytes(const char *path, const void *bytes, size_t len)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(bytes, 1, len, f) == len;
	return f && fclose(f) == 0 && ok;
}

static bool write_text(const char *path, const char *text)
{
	return write_bytes(path, text, strlen(text));
}

/* A relative -I folder, as the application's build found it: from the folder it ran in. */
static char *absolute_from_cwd(const char *dir, void *ctx)
{
	const struct writer *w = ctx;
	return dir[0] == '/' ? xstrdup(dir) : xasprintf("%s/%s", w->cwd, dir);
}

/* The build options the program was built with, a relative -I made absolute from the
 * folder the program ran in. Caller frees. */
static char *program_options(const struct writer *w, unsigned program)
{
	char *path = xasprintf("%s/raw/programs/%u.options", w->dir, program);
	size_t len;
	char *given = read_file(path, &len);
	free(path);
	char *options = directives_map_include_folders(given, absolute_from_cwd, (void *)w);
	free(given);
	return options;
}

static bool make_dirs_for(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	bool ok = slash == NULL || make_dirs(dir);
	free(dir);
	return ok;
}

static char *dropped(const char *dir, void *ctx)
{
	(void)dir;
	(void)ctx;
	return NULL;
}

/* One file whose includes are still to be followed: its text, the folder a quoted name
 * is looked for in first, and its own folder under the copies' root ("" or "sub/"). */
struct header_file {
	char *text;
	size_t len;
	char *found_dir;
	char *under_root;
};

/* What following a program's includes needs: its -I folders, the files to read, the
 * copies made, and where they go. */
struct header_copy {
	struct writer *w;
	unsigned program;
	char **dirs;
	size_t ndirs;
	struct header_file *todo;
	size_t ntodo, current;
	char **done;
	size_t ndone;
	char *root;
};

/* Copies the header one directive names, where the build found it, and queues it. */
static int copy_header(const struct include_directive *d, void *ctx)
{
	struct header_copy *hc = ctx;
	const struct header_file *from = &hc->todo[hc->current];
	/* A name a macro builds, an absolute one, or one climbing out is left to the build. */
	if (d->delim == 0 || d->name[0] == '/' || strstr(d->name, ".."))
		return 0;
	char *found = NULL, *base = NULL;
	if (d->delim == '"') {
		char *at = xasprintf("%s/%s", from->found_dir, d->name);
		if (access(at, R_OK) == 0) {
			found = at;
			base = xstrdup(from->under_root);
		} else {
			free(at);
		}
	}
	for (size_t i = 0; found == NULL && i < hc->ndirs; i++) {
		char *at = xasprintf("%s/%s", hc->dirs[i], d->name);
		if (access(at, R_OK) == 0) {
			found = at;
			base = xstrdup("");
		} else {
			free(at);
		}
	}
	if (found == NULL)
		return 0; /* one the driver has, or none: the build says */
	char *rel = xasprintf("%s%s", base, d->name);
	free(base);
	for (size_t i = 0; i < hc->ndone; i++) {
		if (strcmp(hc->done[i], rel) == 0) {
			free(rel);
			free(found);
			return 0;
		}
	}
	char *dest = xasprintf("%s/%s", hc->root, rel);
	size_t len;
	char *text = read_file(found, &len);
	if (text && make_dirs_for(dest) && write_text(dest, text)) {
		hc->done = xreallocarray(hc->done, hc->ndone + 1, sizeof *hc->done);
		hc->done[hc->ndone++] = xstrdup(rel);
		const char *slash = strrchr(found, '/'), *rel_slash = strrchr(rel, '/');
		hc->todo = xreallocarray(hc->todo, hc->ntodo + 1, sizeof *hc->todo);
		hc->todo[hc->ntodo++] = (struct header_file){
			text, len, xstrndup(found, (size_t)(slash - found)),
			rel_slash ? xstrndup(rel, (size_t)(rel_slash - rel) + 1) : xstrdup("")
		};
		text = NULL;
	} else {
		diag_add(hc->w->notes, DIAG_WARNING, found, 0, 0,
			 "the header cannot be copied to %s: program %u's cases build only where it "
			 "stays",
			 dest, hc->program);
	}
	free(text);
	free(dest);
	free(rel);
	free(found);
	return 0;
}

/* The build options of program P with the headers its source includes copied into the
 * capture, include/program-P/, as its build found them (a quoted name beside the file
 * that includes it, the folder it was built from for the source itself, then each -I
 * folder in order), and its -I folders replaced by that one, relative to the cases: the
 * folder then builds wherever it is moved or committed. A header found nowhere (one the
 * driver has) is left to the build. Caller frees. */
static char *self_contained_options(struct writer *w, unsigned program, const char *options)
{
	struct header_copy hc = { .w = w,
				  .program = program,
				  .root = xasprintf("%s/include/program-%u", w->dir, program),
				  .todo = xcalloc(1, sizeof *hc.todo),
				  .ntodo = 1 };
	hc.ndirs = directives_include_folders(options, &hc.dirs);
	char *source = xasprintf("%s/raw/programs/%u.cl", w->dir, program);
	size_t len = 0;
	char *text = read_file(source, &len);
	hc.todo[0] = (struct header_file){ text, len, xstrdup(w->cwd), xstrdup("") };
	free(source);
	for (hc.current = 0; hc.current < hc.ntodo; hc.current++)
		if (hc.todo[hc.current].text)
			directives_each_include(hc.todo[hc.current].text, hc.todo[hc.current].len,
						copy_header, &hc);
	char *kept = directives_map_include_folders(options, dropped, NULL);
	if (hc.ndone) {
		char *with = xasprintf("%s%s-I include/program-%u", kept, *kept ? " " : "", program);
		free(kept);
		kept = with;
	}
	for (size_t i = 0; i < hc.ntodo; i++) {
		free(hc.todo[i].text);
		free(hc.todo[i].found_dir);
		free(hc.todo[i].under_root);
	}
	free(hc.todo);
	strings_free(hc.done, (long)hc.ndone);
	strings_free(hc.dirs, (long)hc.ndirs);
	free(hc.root);
	return kept;
}

/* kernels/program-P.cl, copied once; NULL after a note where it cannot be. */
static char *kernel_file(struct writer *w, unsigned program)
{
	char *name = xasprintf("kernels/program-%u.cl", program);
	for (size_t i = 0; i < w->nprograms; i++)
		if (w->programs[i] == program)
			return name;
	char *from = xasprintf("%s/raw/programs/%u.cl", w->dir, program);
	char *to = xasprintf("%s/%s", w->dir, name);
	char *kernels = xasprintf("%s/kernels", w->dir);
	size_t len;
	char *source = read_file(from, &len);
	bool ok = source && make_dir(kernels) && write_text(to, source);
	if (!ok) {
		diag_add(w->notes, DIAG_WARNING, from, 0, 0,
			 "the source of program %u cannot be copied to %s: its launches are no "
			 "cases",
			 program, to);
		free(name);
		name = NULL;
	} else {
		w->programs = xreallocarray(w->programs, w->nprograms + 1, sizeof *w->programs);
		w->programs[w->nprograms++] = program;
	}
	free(source);
	free(from);
	free(to);
	free(kernels);
	return name;
}

/* The number of the launch of `kernel` about to be written: 1 for its first. */
static size_t next_of_kernel(struct writer *w, const char *kernel)
{
	for (size_t i = 0; i < w->nkernels; i++)
		if (strcmp(w->kernels[i], kernel) == 0)
			return ++w->written[i];
	w->kernels = xreallocarray(w->kernels, w->nkernels + 1, sizeof *w->kernels);
	w->written = xreallocarray(w->written, w->nkernels + 1, sizeof *w->written);
	w->kernels[w->nkernels] = xstrdup(kernel);
	w->written[w->nkernels] = 1;
	w->nkernels++;
	return 1;
}

/* The element type a parameter's type names, "float4*" being float of 4 lanes. */
static bool elem_of(const char *type, enum elem_type *t, unsigned *lanes)
{
	struct strbuf normal = { 0 };
	kernel_type_normal(&normal, type);
	char *star = strchr(normal.data, '*');
	if (star)
		*star = '\0';
	bool ok = elem_type_parse(normal.data, t, lanes) == 0;
	strbuf_free(&normal);
	return ok;
}

/* What clang reads of parameter `index` of the launch's kernel, preprocessed with the
 * program's options: the scalar or vector a typedef names, the struct it takes or points
 * to; NULL without libclang or where the source does not parse. */
static const struct src_param *source_param(struct writer *w, const struct raw_launch *l,
					    const char *file, const char *options, size_t index)
{
	if (!w->have_source || w->source_program != l->program ||
	    strcmp(w->source_kernel, l->kernel) != 0) {
		if (w->have_source)
			kernel_source_free(&w->source);
		free(w->source_kernel);
		w->source_kernel = xstrdup(l->kernel);
		w->source_program = l->program;
		struct diag_list ignored = { 0 };
		char *path = xasprintf("%s/%s", w->dir, file);
		w->have_source = kernelsrc_available() &&
				 kernelsrc_read(path, l->kernel, options, &w->source, &ignored) == 0;
		diag_list_free(&ignored);
		free(path);
	}
	return w->have_source && index < w->source.nparams ? &w->source.params[index] : NULL;
}

/* The struct parameter `index` takes or points to, as clang lays it out, or, built
 * without libclang, as its definition's text says. NULL with why; the caller frees the
 * record. */
static struct record *struct_of(struct writer *w, const struct raw_launch *l, const char *file,
				const struct src_param *p, size_t index, char **why)
{
	if (p && p->record)
		return record_copy(p->record);
	if (p) {
		*why = xstrdup(p->why ? p->why : "clang reads no struct there");
		return NULL;
	}
	char *path = xasprintf("%s/%s", w->dir, file);
	size_t len;
	char *source = read_file(path, &len);
	free(path);
	char *type = xstrdup(l->args[index].type);
	char *star = strchr(type, '*');
	if (star)
		*star = '\0';
	for (size_t n = strlen(type); n > 0 && type[n - 1] == ' ';)
		type[--n] = '\0';
	struct record *rec = NULL;
	if (source == NULL)
		*why = xstrdup("its source cannot be read");
	else if (structdef_find(source, type, &rec, why) < 0)
		rec = NULL;
	free(source);
	free(type);
	return rec;
}

/* A scalar's text in a case, exact for every integer and every float. A case's whole
 * numbers are signed 64-bit, so a ulong is written as the same bits signed, as the
 * kernel's own conversion wraps them. */
static void number_text(struct strbuf *out, enum elem_type t, const unsigned char *p)
{
	if (!elem_is_float(t))
		strbuf_printf(out, "%" PRId64, (int64_t)elem_get_bits(t, p, 0));
	else
		strbuf_printf(out, t == ELEM_DOUBLE ? "%.17g" : "%.9g", elem_get(t, p, 0));
}

/* A value's lanes: "3", or "[1, 2, 3, 4]" where they differ. */
static void lanes_text(struct strbuf *out, enum elem_type t, unsigned lanes,
		       const unsigned char *p)
{
	size_t size = elem_size(t);
	bool same = true;
	for (unsigned i = 1; i < lanes; i++)
		same &= memcmp(p, p + i * size, size) == 0;
	if (same) {
		number_text(out, t, p);
		return;
	}
	strbuf_puts(out, "[");
	for (unsigned i = 0; i < lanes; i++) {
		strbuf_puts(out, i ? ", " : "");
		number_text(out, t, p + i * size);
	}
	strbuf_puts(out, "]");
}

/* The raw file of a buffer's bytes made the case's .npy in place: its header written in
 * the room the layer left, and the file linked to `path`; the bytes, which may be most
 * of what a capture holds, are not written again. False where that cannot be (the
 * header is longer than the room, the bytes are no whole number of elements, the file
 * system links no files), for the caller to copy them. */
static bool link_as_npy(const struct raw_launch *l, size_t index, bool after, enum elem_type t,
			unsigned lanes, const char *path)
{
	size_t size = l->args[index].size, element = elem_size(t) * elem_stride(lanes);
	if (size % element != 0)
		return false;
	size_t head_len;
	char *head = npy_header(t, lanes, size / element, &head_len);
	char *raw = raw_arg_path(l, index, after);
	struct stat st;
	bool ok = head_len == RAWLAUNCH_BYTES_AT && stat(raw, &st) == 0 &&
		  (size_t)st.st_size == RAWLAUNCH_BYTES_AT + size;
	int fd = ok ? open(raw, O_WRONLY | O_CLOEXEC) : -1;
	ok = fd >= 0 && pwrite(fd, head, head_len, 0) == (ssize_t)head_len;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	ok = ok && link(raw, path) == 0;
	free(head);
	free(raw);
	return ok;
}

/* Writes a buffer's bytes as data/CASE/NAME[.after].npy (.bin for structs); returns its
 * name as the case gives it, or NULL after a note. */
static char *save_bytes(struct writer *w, const struct raw_launch *l, size_t index,
			const char *case_name, bool after, enum elem_type t, unsigned lanes,
			const struct record *rec)
{
	const struct raw_arg *a = &l->args[index];
	char *why = NULL;
	char *name = xasprintf("data/%s/%s%s.%s", case_name, a->name, after ? ".after" : "",
			       rec ? "bin" : "npy");
	char *path = xasprintf("%s/%s", w->dir, name);
	if (!rec && lanes != 3 && link_as_npy(l, index, after, t, lanes, path)) {
		free(path);
		return name;
	}
	unsigned char *bytes = raw_arg_bytes(l, index, after, &why);
	bool ok = bytes != NULL;
	if (ok && rec) {
		ok = write_bytes(path, bytes, a->size / rec->size * rec->size);
		if (!ok)
			why = xasprintf("cannot write %s: %s", path, strerror(errno));
	} else if (ok) {
		size_t count = a->size / (elem_size(t) * elem_stride(lanes));
		/* A 3-vector's padding lane is no value of the file's. */
		if (lanes == 3)
			for (size_t i = 0; i < count; i++)
				memmove(bytes + i * 3 * elem_size(t), bytes + i * 4 * elem_size(t),
					3 * elem_size(t));
		ok = npy_write(path, t, lanes, count, bytes, &why) == 0;
	}
	if (!ok) {
		diag_add(w->notes, DIAG_WARNING, l->dir, 0, 0,
			 "launch of %s: the bytes of %s cannot be saved: %s", l->kernel, a->name,
			 why ? why : "?");
		free(name);
		name = NULL;
	}
	free(why);
	free(bytes);
	free(path);
	return name;
}

/* Where no work-group size was given: the largest power of two up to 64 that divides
 * the first dimension's global size, 1 in the others. */
static void chosen_local(const struct raw_launch *l, size_t local[3])
{
	for (unsigned d = 0; d < l->dims; d++)
		local[d] = 1;
	while (local[0] < 64 && l->global[0] % (local[0] * 2) == 0)
		local[0] *= 2;
}

static void shape_list(struct strbuf *out, unsigned dims, const size_t *v)
{
	strbuf_puts(out, dims > 1 ? "[" : "");
	for (unsigned d = 0; d < dims; d++)
		strbuf_printf(out, "%s%zu", d ? ", " : "", v[d]);
	strbuf_puts(out, dims > 1 ? "]" : "");
}

/* How a kernel indexes a buffer: by its items, its group, or a group's item, as the
 * subscripts of the buffer's name in the kernel's body say (directly or through a
 * variable set from get_global_id, get_group_id or get_local_id); 0 where none says. */
enum index_use { USE_ITEM = 1, USE_GROUP = 2, USE_LOCAL = 4 };

static bool ident_at(const char *text, const char *at, const char *name, size_t len)
{
	return strncmp(at, name, len) == 0 && (at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
	       !(isalnum((unsigned char)at[len]) || at[len] == '_');
}

/* The body of kernel `kernel` in `source`: from its '{' to the matching '}'. */
static bool kernel_body(const char *source, const char *kernel, const char **from, const char **to)
{
	size_t len = strlen(kernel);
	for (const char *at = source; (at = strstr(at, kernel)) != NULL; at += len) {
		const char *after = at + len + strspn(at + len, " \t\n");
		if (!ident_at(source, at, kernel, len) || *after != '(')
			continue;
		const char *open = strchr(after, '{');
		if (open == NULL)
			return false;
		int depth = 0;
		for (const char *p = open; *p; p++) {
			depth += (*p == '{') - (*p == '}');
			if (depth == 0) {
				*from = open;
				*to = p;
				return true;
			}
		}
		return false;
	}
	return false;
}

/* What `text` (a subscript, or a statement's right side) draws on, given the variables
 * known to hold an item's, a group's or a local index. */
static unsigned draws_on(const char *text, size_t n, char **vars, const unsigned *var_use,
			 size_t nvars)
{
	unsigned use = 0;
	char *copy = xstrndup(text, n);
	use |= strstr(copy, "get_global_id") ? USE_ITEM : 0;
	use |= strstr(copy, "get_group_id") ? USE_GROUP : 0;
	use |= strstr(copy, "get_local_id") ? USE_LOCAL : 0;
	for (size_t v = 0; v < nvars; v++) {
		size_t len = strlen(vars[v]);
		for (const char *at = copy; (at = strstr(at, vars[v])) != NULL; at += len)
			if (ident_at(copy, at, vars[v], len))
				use |= var_use[v];
	}
	free(copy);
	return use;
}

static unsigned index_use_of(const char *source, const char *kernel, const char *param)
{
	const char *body, *end;
	if (source == NULL || !kernel_body(source, kernel, &body, &end))
		return 0;
	/* Variables set from an index, one statement at a time, in order. */
	char **vars = NULL;
	unsigned *var_use = NULL;
	size_t nvars = 0;
	for (const char *stmt = body + 1; stmt < end;) {
		const char *semi = memchr(stmt, ';', (size_t)(end - stmt));
		if (semi == NULL)
			break;
		const char *eq = memchr(stmt, '=', (size_t)(semi - stmt));
		if (eq && eq[1] != '=' && eq > stmt && !strchr("!<>=", eq[-1])) {
			unsigned use = draws_on(eq + 1, (size_t)(semi - eq - 1), vars, var_use, nvars);
			const char *name_end = eq;
			while (name_end > stmt && (name_end[-1] == ' ' || name_end[-1] == '\t'))
				name_end--;
			const char *name = name_end;
			while (name > stmt && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
				name--;
			if (use && name < name_end) {
				vars = xreallocarray(vars, nvars + 1, sizeof *vars);
				var_use = xreallocarray(var_use, nvars + 1, sizeof *var_use);
				vars[nvars] = xstrndup(name, (size_t)(name_end - name));
				var_use[nvars++] = use;
			}
		}
		stmt = semi + 1;
	}
	unsigned use = 0;
	size_t len = strlen(param);
	for (const char *at = body; (at = strstr(at, param)) != NULL && at < end; at += len) {
		const char *open = at + len + strspn(at + len, " \t");
		if (!ident_at(body, at, param, len) || *open != '[')
			continue;
		int depth = 0;
		const char *close = open;
		for (; close < end; close++) {
			depth += (*close == '[') - (*close == ']');
			if (depth == 0)
				break;
		}
		use |= draws_on(open + 1, (size_t)(close - open - 1), vars, var_use, nvars);
	}
	strings_free(vars, (long)nvars);
	free(var_use);
	return use;
}

/* The launch's own quantities a number may be, as a case writes each: its work-items,
 * its extents, its work-groups, a group's items and a group's extents. A quantity that
 * two of these share (N = L * L makes the groups as many as a group's items) is written
 * once. `by_group`: the kernel indexes by its group (get_group_id), without which a
 * number that equals the groups is no count of theirs. */
struct relations {
	const char *expr[12];
	size_t count;
};

static void relate(struct relations *r, const char *expr)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->expr[i], expr) == 0)
			return;
	r->expr[r->count++] = expr;
}

static struct relations relations_of(uint64_t value, const struct raw_launch *l,
				     const size_t *local, bool extents, bool by_group,
				     bool by_local)
{
	static const char *const items[] = { "N", "N * M", "N * M * K" };
	static const char *const globals[] = { "N", "M", "K" };
	static const char *const group_items[] = { "L", "L * LY", "L * LY * LZ" };
	static const char *const locals[] = { "L", "LY", "LZ" };
	static const char *const groups[] = { "N / L", "(N / L) * (M / LY)",
					      "(N / L) * (M / LY) * (K / LZ)" };
	uint64_t volume = 1, group = 1, ngroups = 1;
	for (unsigned d = 0; d < l->dims; d++) {
		volume *= l->global[d];
		group *= local[d];
		ngroups *= local[d] && l->global[d] % local[d] == 0 ? l->global[d] / local[d] : 0;
	}
	struct relations r = { .count = 0 };
	if (value == volume)
		relate(&r, items[l->dims - 1]);
	for (unsigned d = 0; extents && d < l->dims; d++)
		if (value == l->global[d])
			relate(&r, globals[d]);
	if (value == group && by_local)
		relate(&r, group_items[l->dims - 1]);
	for (unsigned d = 0; extents && d < l->dims; d++)
		if (value == local[d])
			relate(&r, locals[d]);
	if (value == ngroups && ngroups > 1 && by_group)
		relate(&r, groups[l->dims - 1]);
	return r;
}

/* The comment a number the case keeps says: what it coincides with, so that a reader sees
 * why it was not written as that. "" where nothing. */
static void kept_number_comment(char *out, size_t size, uint64_t value,
				const struct relations *r)
{
	if (r->count < 2) {
		out[0] = '\0';
		return;
	}
	int used = snprintf(out, size, "  # the application's %llu, which is ",
			    (unsigned long long)value);
	for (size_t i = 0; i < r->count && used > 0 && (size_t)used < size; i++)
		used += snprintf(out + used, size - (size_t)used, "%s%s",
				 i == 0 ? "" : i + 1 == r->count ? " and " : ", ", r->expr[i]);
	if (used > 0 && (size_t)used < size)
		snprintf(out + used, size - (size_t)used, " at this launch: kept as a number");
}

/* A count as the case writes it: the launch's quantity it is, where exactly one is (an
 * element a work-item, a work-group's item, one a work-group where the kernel indexes by
 * its group), so that hunt's other shapes size it alike and the recorded data, holding
 * the real launch's count, refuse the shapes that would need more; otherwise the number
 * itself, and in *comment what it coincides with. */
static void count_text(char *out, size_t size, size_t count, const struct raw_launch *l,
		       const size_t *local, bool by_group, bool by_local, char *comment,
		       size_t comment_size)
{
	struct relations r = relations_of(count, l, local, false, by_group, by_local);
	if (r.count == 1)
		snprintf(out, size, "%s", r.expr[0]);
	else
		snprintf(out, size, "%zu", count);
	kept_number_comment(comment, comment_size, count, &r);
}

/* An integer scalar that is exactly one of the launch's own quantities (the items, a
 * dimension's global or work-group size, the work-groups where the kernel indexes by
 * them), as the case writes it: the element count a kernel guards its accesses with is
 * most often the launch's size, and where the case runs another shape (shrunk for the
 * simulator, swept by hunt) with buffers sized by that shape, the application's own
 * number would send the kernel past their ends. NULL for any other value, and for one
 * that is several at once (a row pitch of 1024 in a 512 x 512 launch of 16 x 16 groups
 * is also its groups, 32 x 32), which stays the application's, with *comment saying what
 * it coincides with. */
static const char *shape_quantity(uint64_t value, const struct raw_launch *l, const size_t *local,
				  bool by_group, char *comment, size_t comment_size)
{
	comment[0] = '\0';
	if (value <= 1) /* a flag or a count of one is no size */
		return NULL;
	struct relations r = relations_of(value, l, local, true, by_group, true);
	kept_number_comment(comment, comment_size, value, &r);
	return r.count == 1 ? r.expr[0] : NULL;
}

/* One argument's line of the case, and its check where it has one; false after a note
 * where it cannot be made. */
static bool write_arg(struct writer *w, const struct raw_launch *l, size_t i,
		      const size_t *local, const char *source, bool by_group, const char *case_name,
		      const char *file, const char *options, struct strbuf *args,
		      struct strbuf *checks)
{
	const struct raw_arg *a = &l->args[i];
	for (size_t j = 0; j < i && a->kind == RAW_BUFFER; j++)
		if (l->args[j].kind == RAW_BUFFER && l->args[j].mem == a->mem) {
			/* One buffer passed twice: the kernel sees one memory object. */
			strbuf_printf(args, "  - {use: %s}\n", l->args[j].name);
			return true;
		}
	enum elem_type t = ELEM_UCHAR;
	unsigned lanes = 1;
	struct record *rec = NULL;
	char *why = NULL;
	const struct src_param *sp = NULL;
	if (a->kind != RAW_NULL && !elem_of(a->type, &t, &lanes) &&
	    ((sp = source_param(w, l, file, options, i)) == NULL || sp->lanes == 0)) {
		rec = struct_of(w, l, file, sp, i, &why);
		if (rec == NULL) {
			diag_add(w->notes, DIAG_WARNING, l->dir, 0, 0,
				 "launch of %s is no case: argument %zu (%s, %s) is no type a case "
				 "can hold (%s)",
				 l->kernel, i, a->name, a->type, why ? why : "?");
			free(why);
			return false;
		}
	}
	if (sp && sp->lanes) {
		t = sp->elem;
		lanes = sp->lanes;
	}
	char tbuf[ELEM_NAME_MAX];
	char *fields = rec ? record_case_text(rec) : NULL;
	const char *type = rec ? fields : elem_type_text(t, lanes, tbuf);
	size_t one = rec ? rec->size : elem_size(t) * elem_stride(lanes);
	char count[64], kept[160];
	/* A count is one a group only where the kernel indexes the buffer by its group (a
	 * local buffer, one a group, never is), and one a group's item only where by that
	 * item (a local buffer always is); where no subscript of it says, the program's use
	 * of the group decides. */
	unsigned use = a->kind == RAW_BUFFER ? index_use_of(source, l->kernel, a->name) : 0;
	bool count_by_group = a->kind == RAW_BUFFER && (use ? (use & USE_GROUP) != 0 : by_group);
	bool count_by_local = a->kind == RAW_LOCAL || use == 0 || (use & USE_LOCAL) != 0;
	count_text(count, sizeof count, a->size / one, l, local, count_by_group, count_by_local,
		   kept, sizeof kept);
	bool ok = true;
	switch (a->kind) {
	case RAW_NULL:
		strbuf_printf(args, "  - {name: %s, buffer: null}\n", a->name);
		break;
	case RAW_LOCAL:
		strbuf_printf(args, "  - {name: %s, local: %s, count: %s}%s\n", a->name, type, count,
			      kept);
		break;
	case RAW_VALUE:
		if (a->value_size != one) {
			diag_add(w->notes, DIAG_WARNING, l->dir, 0, 0,
				 "launch of %s is no case: argument %zu (%s) holds %zu bytes, but "
				 "its type %s has %zu",
				 l->kernel, i, a->name, a->value_size, a->type, one);
			ok = false;
			break;
		}
		strbuf_printf(args, "  - {name: %s, scalar: %s, value: ", a->name, type);
		if (rec) {
			strbuf_puts(args, "[");
			for (size_t f = 0; f < rec->nfields; f++) {
				strbuf_puts(args, f ? ", " : "");
				number_text(args, rec->fields[f].type,
					    a->value + rec->fields[f].offset);
			}
			strbuf_puts(args, "]");
		} else {
			char coincides[160] = "";
			const char *quantity =
				lanes == 1 && !elem_is_float(t)
					? shape_quantity(elem_get_bits(t, a->value, 0), l, local,
							 by_group, coincides, sizeof coincides)
					: NULL;
			if (quantity)
				strbuf_puts(args, quantity);
			else
				lanes_text(args, t, lanes, a->value);
			strbuf_puts(args, "}");
			if (quantity) {
				strbuf_puts(args, "  # the application's ");
				lanes_text(args, t, lanes, a->value);
				strbuf_puts(args, ", its launch's size: it follows the shape");
			} else {
				strbuf_puts(args, coincides);
			}
			strbuf_puts(args, "\n");
			break;
		}
		strbuf_puts(args, "}\n");
		break;
	case RAW_BUFFER: {
		/* A buffer passed twice is written where either parameter may write it: its
		 * first line holds it, output and checked, and the second uses it. */
		bool writable = a->writable;
		size_t written_as = i; /* the argument whose bytes after the launch were kept */
		for (size_t j = i + 1; j < l->nargs && !writable; j++) {
			writable = l->args[j].kind == RAW_BUFFER && l->args[j].mem == a->mem &&
				   l->args[j].writable;
			written_as = j;
		}
		if (a->size % one != 0)
			diag_add(w->notes, DIAG_NOTE, l->dir, 0, 0,
				 "launch of %s: buffer %s holds %zu bytes, no whole number of %s; "
				 "the case holds the whole ones",
				 l->kernel, a->name, a->size, a->type);
		char *before = save_bytes(w, l, i, case_name, false, t, lanes, rec);
		char *after = before && writable
				      ? save_bytes(w, l, written_as, case_name, true, t, lanes, rec)
				      : NULL;
		ok = before && (after || !writable);
		if (!ok) {
			free(before);
			free(after);
			break;
		}
		strbuf_printf(args, "  - {name: %s, %s: %s, count: %s, init: {file: %s}%s}%s\n",
			      a->name, a->constant ? "constant" : "buffer", type, count,
			      before, writable ? ", output: true" : "", kept);
		if (writable && rec)
			strbuf_printf(checks, "  %s: {reference: targets}  # the application's: %s\n",
				      a->name, after);
		else if (writable && elem_is_float(t)) {
			/* Floats may differ between conforming targets: they are compared with
			 * each other within what the kernel's built-ins allow, and the
			 * application's own output names the odd one out. */
			strbuf_printf(checks, "  %s: {reference: targets, recorded: {file: %s, at: [",
				      a->name, after);
			shape_list(checks, l->dims, l->global);
			strbuf_puts(checks, ", ");
			shape_list(checks, l->dims, local);
			strbuf_puts(checks, "]}}\n");
		}
		else if (writable) {
			strbuf_printf(checks, "  %s: {reference: {file: %s, at: [", a->name, after);
			shape_list(checks, l->dims, l->global);
			strbuf_puts(checks, ", ");
			shape_list(checks, l->dims, local);
			strbuf_puts(checks, "]}}\n");
		}
		free(before);
		free(after);
		break;
	}
	}
	free(fields);
	record_free(rec);
	return ok;
}

/* Where two arguments are views of one buffer that share bytes (a sub-buffer and its
 * parent, two sub-buffers that overlap), the case holds each as a copy of its own: a
 * kernel that writes through one and reads the same bytes through the other replays
 * otherwise than it ran. Said in the case and as a note; the first such pair. */
static bool overlapping_views(const struct raw_launch *l, size_t *first, size_t *second)
{
	for (size_t i = 0; i < l->nargs; i++) {
		const struct raw_arg *a = &l->args[i];
		if (a->kind != RAW_BUFFER)
			continue;
		uint64_t root_a = a->parent ? a->parent : a->mem;
		size_t from_a = a->parent ? a->origin : 0;
		for (size_t j = i + 1; j < l->nargs; j++) {
			const struct raw_arg *b = &l->args[j];
			if (b->kind != RAW_BUFFER || b->mem == a->mem)
				continue; /* one buffer passed twice is one buffer in the case too */
			uint64_t root_b = b->parent ? b->parent : b->mem;
			size_t from_b = b->parent ? b->origin : 0;
			if (root_a == root_b && from_a < from_b + b->size && from_b < from_a + a->size) {
				*first = i;
				*second = j;
				return true;
			}
		}
	}
	return false;
}

/* What a captured launch may cost the simulator in a replay: half of a run's default
 * limit, 60 s; the probe itself has a quarter of it. */
enum { REPLAY_TIMEOUT_S = 60, PROBE_ABOVE_ITEMS = 1024 };

/* The sizes and sim_sizes lines: the launch's own, and the few work-groups `sim` where
 * the simulator runs those instead (NULL: it runs the launch's own). */
static void sizes_lines(struct strbuf *out, const struct raw_launch *l, const struct shape *sim)
{
	size_t small[3];
	for (unsigned d = 0; sim && d < l->dims; d++)
		small[d] = (size_t)sim->d[d];
	strbuf_puts(out, "sizes: [");
	shape_list(out, l->dims, l->global);
	if (sim) {
		strbuf_puts(out, ", ");
		shape_list(out, l->dims, small);
	}
	strbuf_puts(out, "]\nsim_sizes: [");
	shape_list(out, l->dims, sim ? small : l->global);
	strbuf_puts(out, "]\n");
}

/* A launch of few items may loop long enough that the simulator cannot replay it within a
 * run's time: its case as `probe_text` (at `path`) simulates a few of its work-groups,
 * and where the whole would take over half the limit (or the probe does not end), what
 * the probe found, as the case's comment says it; NULL where the whole is affordable.
 * Caller frees. */
static char *costly_note(struct writer *w, const char *path, const char *probe_text,
			 const struct raw_launch *l, const struct shape *whole,
			 const struct shape *few)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load_text(path, probe_text, &diags);
	diag_list_free(&diags);
	if (tc == NULL)
		return NULL;
	struct sim_probe probe;
	sim_probe_run(tc, REPLAY_TIMEOUT_S / 4, &probe);
	case_free(tc);
	double whole_s;
	if (!sim_probe_too_costly(&probe, (double)shape_volume(whole) / (double)shape_volume(few),
				  REPLAY_TIMEOUT_S, &whole_s))
		return NULL;
	diag_add(w->notes, DIAG_NOTE, path, 0, 0,
		 "launch of %s is too costly to simulate whole in time (%s): the case simulates "
		 "a few of its work-groups",
		 l->kernel,
		 probe.ended ? "a probe of a few work-groups said so"
			     : "a probe of a few work-groups did not end");
	if (probe.ended)
		return xasprintf("# Too costly to simulate in time: a probe of a few work-groups "
				 "took %.1f s under Oclgrind,\n# so the whole launch would take "
				 "about %.0f s; Oclgrind runs sim_sizes, those few.\n",
				 probe.seconds, whole_s);
	return xasprintf("# Too costly to simulate in time: a probe of a few work-groups did "
			 "not end under Oclgrind\n# in %d s; Oclgrind runs sim_sizes, those "
			 "few.\n",
			 REPLAY_TIMEOUT_S / 4);
}

/* Writes the case of one launch; false after a note where it is none. */
static bool write_case(struct writer *w, const struct raw_launch *l)
{
	char *file = kernel_file(w, l->program);
	if (file == NULL)
		return false;
	/* The options as the application built with them, its folders absolute, for clang
	 * to read the source here; and as the case writes them. */
	char *built_with = program_options(w, l->program);
	char *options = self_contained_options(w, l->program, built_with);
	size_t n = next_of_kernel(w, l->kernel);
	char *case_name = xasprintf("%s-%zu", l->kernel, n);
	char *data = xasprintf("%s/data", w->dir), *own = xasprintf("%s/data/%s", w->dir, case_name);
	bool ok = make_dir(data) && make_dir(own);
	struct strbuf args = { 0 }, checks = { 0 };
	size_t local[3];
	if (l->local_given)
		memcpy(local, l->local, sizeof local);
	else
		chosen_local(l, local);
	/* Whether the kernels of the program index by their group: a count of one an item
	 * of a group is one a group only there. */
	char *source_path = xasprintf("%s/%s", w->dir, file);
	size_t source_len;
	char *source = read_file(source_path, &source_len);
	bool by_group = source && (strstr(source, "get_group_id") || strstr(source, "get_num_groups"));
	for (size_t i = 0; i < l->nargs && ok; i++)
		ok = write_arg(w, l, i, local, source, by_group, case_name, file, built_with, &args,
			       &checks);
	free(source);
	free(source_path);
	if (ok) {
		static const char *const globals[] = { "N", "[N, M]", "[N, M, K]" };
		struct strbuf text = { 0 };
		strbuf_printf(&text,
			      "# Captured by clharness capture from: %s\n"
			      "# Launch %s: kernel %s of program %u, at the application's own "
			      "shape, with the bytes its\n"
			      "# buffers held just before the launch; each output is checked "
			      "against the bytes it\n"
			      "# held just after (floats and structs across the targets that run "
			      "the case).\n",
			      w->command, strrchr(l->dir, '/') ? strrchr(l->dir, '/') + 1 : l->dir,
			      l->kernel, l->program);
		if (!l->local_given)
			strbuf_puts(&text, "# The application left the work-group size to the "
					   "driver; this one is the harness's choice.\n");
		size_t first, second;
		if (overlapping_views(l, &first, &second)) {
			const char *a = l->args[first].name, *b = l->args[second].name;
			strbuf_printf(&text,
				      "# %s and %s shared bytes of one buffer in the application "
				      "(a sub-buffer);\n# here each is a copy of its own, so a "
				      "write through one is not seen through the other.\n",
				      a, b);
			diag_add(w->notes, DIAG_NOTE, l->dir, 0, 0,
				 "launch of %s: arguments %s and %s are views of one buffer that "
				 "share bytes; the case %s.yaml gives each a copy of its own, so "
				 "where the kernel writes through one and reads through the other "
				 "its replay differs from the application's run",
				 l->kernel, a, b, case_name);
		}
		strbuf_printf(&text, "about: %s as the application launched it, with its own data\n",
			      l->kernel);
		strbuf_printf(&text, "kernel: {file: %s, name: %s}\n", file, l->kernel);
		if (*options) {
			strbuf_puts(&text, "options: '");
			for (const char *c = options; *c; c++) {
				strbuf_append(&text, c, 1);
				if (*c == '\'') /* YAML's single quotes take a quote twice */
					strbuf_append(&text, c, 1);
			}
			strbuf_puts(&text, "'\n");
		}
		/* A launch too big to simulate in time runs smaller under the simulator, as
		 * check shrinks one; devices run both, so outputs meet at one shape. One too
		 * costly for its work, as a probe of a few work-groups finds, alike. */
		struct shape whole = shape_of_sizes(l->global, l->dims),
			     group = shape_of_sizes(local, l->dims), few;
		bool shrank = shape_shrink_for_simulation(&whole, &group, &few);
		bool probed = !shrank && shape_volume(&whole) > PROBE_ABOVE_ITEMS &&
			      shape_few_groups(&whole, &group, &few);
		struct strbuf tail = { 0 };
		strbuf_puts(&tail, "local: [");
		shape_list(&tail, l->dims, local);
		strbuf_printf(&tail, "]\nglobal: %s\n", globals[l->dims - 1]);
		bool offset = false;
		for (unsigned d = 0; d < l->dims; d++)
			offset |= l->offset[d] != 0;
		if (offset) {
			strbuf_puts(&tail, "offset: [");
			for (unsigned d = 0; d < l->dims; d++)
				strbuf_printf(&tail, "%s%zu", d ? ", " : "", l->offset[d]);
			strbuf_puts(&tail, "]\n");
		}
		strbuf_printf(&tail, "args:%s\n%s", l->nargs ? "" : " []", args.data ? args.data : "");
		if (checks.len)
			strbuf_printf(&tail, "check:\n%s", checks.data);
		char *path = xasprintf("%s/%s.yaml", w->dir, case_name);
		char *note = NULL;
		if (probed) {
			struct strbuf probe = { 0 };
			strbuf_puts(&probe, text.data);
			sizes_lines(&probe, l, &few);
			strbuf_puts(&probe, tail.data);
			note = costly_note(w, path, probe.data, l, &whole, &few);
			strbuf_free(&probe);
		}
		if (shrank)
			strbuf_puts(&text, "# Too big to simulate in time: Oclgrind runs sim_sizes, "
					   "a few work-groups of the same\n# shape, where no "
					   "output of the application's is compared.\n");
		if (note)
			strbuf_puts(&text, note);
		sizes_lines(&text, l, shrank || note ? &few : NULL);
		strbuf_puts(&text, tail.data);
		strbuf_free(&tail);
		free(note);
		ok = write_text(path, text.data);
		if (!ok)
			diag_add(w->notes, DIAG_WARNING, path, 0, 0, "cannot write the case: %s",
				 strerror(errno));
		free(path);
		strbuf_free(&text);
	}
	strbuf_free(&args);
	strbuf_free(&checks);
	free(case_name);
	free(data);
	free(own);
	free(options);
	free(built_with);
	free(file);
	return ok;
}

/* The layer's notes, each a note of the capture. */
static void layer_notes(const char *dir, struct diag_list *notes)
{
	char *path = xasprintf("%s/raw/notes", dir);
	size_t len;
	char *text = read_file(path, &len);
	char *save = NULL;
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		diag_add(notes, DIAG_NOTE, NULL, 0, 0, "%s", line);
	free(text);
	free(path);
}

int capture_write_cases(const char *dir, const char *command, const char *cwd,
			struct capture_tally *tally, struct diag_list *notes)
{
	*tally = (struct capture_tally){ 0 };
	layer_notes(dir, notes);
	char *launches = xasprintf("%s/raw/launches", dir);
	char **paths = NULL;
	long n = is_dir(launches) ? dir_entries(launches, false, &paths) : 0;
	free(launches);
	struct writer w = { .dir = dir, .command = command, .cwd = cwd, .notes = notes,
			    .tally = tally };
	for (long i = 0; i < n; i++) {
		struct raw_launch l;
		char *why = NULL;
		int status = raw_launch_read(paths[i], &l, &why);
		if (status == 1) {
			tally->cut_off++;
			diag_add(notes, DIAG_WARNING, paths[i], 0, 0,
				 "this launch was not saved whole: the program ended during it, "
				 "so it is no case");
		} else if (status < 0) {
			tally->unreadable++;
			diag_add(notes, DIAG_WARNING, paths[i], 0, 0, "%s", why);
		} else if (write_case(&w, &l)) {
			tally->cases++;
		}
		free(why);
		raw_launch_free(&l);
	}
	strings_free(paths, n);
	strings_free(w.kernels, (long)w.nkernels);
	free(w.written);
	free(w.programs);
	free(w.source_kernel);
	if (w.have_source)
		kernel_source_free(&w.source);
	return 0;
}
