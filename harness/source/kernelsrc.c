/* kernelsrc.c - a kernel's parameters, structs and local arrays, read by libclang. */
#include "config.h"

#include "source/kernelsrc.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void kernel_source_free(struct kernel_source *ks)
{
	for (size_t i = 0; i < ks->nparams; i++) {
		free(ks->params[i].name);
		free(ks->params[i].type);
		record_free(ks->params[i].record);
		free(ks->params[i].why);
	}
	free(ks->params);
	for (size_t i = 0; i < ks->nlocals; i++)
		free(ks->locals[i].name);
	free(ks->locals);
	*ks = (struct kernel_source){ 0 };
}

#ifndef HAVE_LIBCLANG

bool kernelsrc_available(void)
{
	return false;
}

int kernelsrc_read(const char *path, const char *kernel, const char *options,
		   struct kernel_source *out, struct diag_list *diags)
{
	*out = (struct kernel_source){ 0 };
	diag_add(diags, DIAG_ERROR, path, 0, 0,
		 "this clharness was built without libclang (configure --without-libclang), "
		 "so it reads no kernel source: install libclang-dev and build it again");
	return -1;
}

#else

#include "source/clangapi.h"

bool kernelsrc_available(void)
{
	return clang_api_available();
}

/* Fields past this many make no useful case: a struct of a 64 KiB array, say. */
enum { RECORD_FIELDS_MAX = 4096 };


static void place(CXCursor c, int *line, int *col)
{
	unsigned l = 0, k = 0;
	clang_api.clang_getSpellingLocation(clang_api.clang_getCursorLocation(c), NULL, &l, &k, NULL);
	*line = (int)l;
	*col = (int)k;
}

/* The element type of a builtin scalar type kind; false for any other. */
static bool scalar_type(enum CXTypeKind kind, enum elem_type *out)
{
	switch (kind) {
	case CXType_Char_S:
	case CXType_SChar:
		*out = ELEM_CHAR;
		return true;
	case CXType_Char_U:
	case CXType_UChar:
		*out = ELEM_UCHAR;
		return true;
	case CXType_Short:
		*out = ELEM_SHORT;
		return true;
	case CXType_UShort:
		*out = ELEM_USHORT;
		return true;
	case CXType_Int:
		*out = ELEM_INT;
		return true;
	case CXType_UInt:
		*out = ELEM_UINT;
		return true;
	case CXType_Long:
	case CXType_LongLong:
		*out = ELEM_LONG;
		return true;
	case CXType_ULong:
	case CXType_ULongLong:
		*out = ELEM_ULONG;
		return true;
	case CXType_Half:
		*out = ELEM_HALF;
		return true;
	case CXType_Float:
		*out = ELEM_FLOAT;
		return true;
	case CXType_Double:
		*out = ELEM_DOUBLE;
		return true;
	default:
		return false;
	}
}

/* A struct being flattened into a record. */
struct flattening {
	struct record *rec;
	char *why; /* the first thing that could not be laid out */
};

static void flatten_type(struct flattening *fl, CXType type, const char *name, size_t offset);

struct field_walk {
	struct flattening *fl;
	CXType record;
	const char *prefix;
	size_t base;
};

static enum CXVisitorResult visit_field(CXCursor field, CXClientData data)
{
	struct field_walk *w = data;
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(field));
	char *full = xasprintf("%s%s%s", w->prefix, *w->prefix ? "." : "", name);
	if (clang_api.clang_Cursor_isBitField(field)) {
		if (w->fl->why == NULL)
			w->fl->why = xasprintf("its field '%s' is a bit-field", full);
	} else {
		long long bits = clang_api.clang_Type_getOffsetOf(w->record, name);
		if (bits < 0 && w->fl->why == NULL)
			w->fl->why = xasprintf("clang gives field '%s' no offset", full);
		else
			flatten_type(w->fl,
				     clang_api.clang_getCanonicalType(clang_api.clang_getCursorType(field)),
				     full, w->base + (size_t)bits / 8);
	}
	free(name);
	free(full);
	return w->fl->why ? CXVisit_Break : CXVisit_Continue;
}

/* Adds the scalar and vector fields of `type`, at `offset` bytes, named `name`. */
static void flatten_type(struct flattening *fl, CXType type, const char *name, size_t offset)
{
	enum elem_type et;
	if (fl->why)
		return;
	if (fl->rec->nfields >= RECORD_FIELDS_MAX) {
		fl->why = xasprintf("it holds over %d scalar fields", RECORD_FIELDS_MAX);
		return;
	}
	if (scalar_type(type.kind, &et)) {
		record_add_at(fl->rec, name, et, 1, offset);
	} else if (type.kind == CXType_ExtVector || type.kind == CXType_Vector) {
		long long lanes = clang_api.clang_getNumElements(type);
		CXType element = clang_api.clang_getCanonicalType(clang_api.clang_getElementType(type));
		if (!scalar_type(element.kind, &et) ||
		    (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16))
			fl->why = xasprintf("its field '%s' is a vector clharness cannot lay out",
					    name);
		else
			record_add_at(fl->rec, name, et, (unsigned)lanes, offset);
	} else if (type.kind == CXType_ConstantArray) {
		CXType element = clang_api.clang_getCanonicalType(clang_api.clang_getArrayElementType(type));
		long long count = clang_api.clang_getArraySize(type),
			  size = clang_api.clang_Type_getSizeOf(element);
		for (long long i = 0; i < count && fl->why == NULL; i++) {
			char *item = xasprintf("%s[%lld]", name, i);
			flatten_type(fl, element, item, offset + (size_t)(i * size));
			free(item);
		}
	} else if (type.kind == CXType_Record) {
		CXCursor decl = clang_api.clang_getTypeDeclaration(type);
		if (clang_api.clang_getCursorKind(decl) == CXCursor_UnionDecl) {
			fl->why = xasprintf("%s%s is a union, whose fields overlap",
					    *name ? "its field " : "it", name);
			return;
		}
		struct field_walk w = { fl, type, name, offset };
		clang_api.clang_Type_visitFields(type, visit_field, &w);
	} else if (type.kind == CXType_Bool) {
		fl->why = xasprintf("its field '%s' is a bool, whose size OpenCL leaves to each "
				    "device",
				    name);
	} else if (type.kind == CXType_Pointer) {
		fl->why = xasprintf("its field '%s' is a pointer, which a kernel argument cannot "
				    "carry",
				    name);
	} else {
		char *spelled = clang_api_text(clang_api.clang_getTypeSpelling(type));
		fl->why = xasprintf("its field '%s' is of type %s", name, spelled);
		free(spelled);
	}
}

/* The record a struct type is laid out as; NULL with *why when it cannot be made. */
static struct record *record_of(CXType type, char **why)
{
	struct flattening fl = { .rec = xcalloc(1, sizeof *fl.rec) };
	flatten_type(&fl, type, "", 0);
	if (fl.why == NULL && fl.rec->nfields == 0)
		fl.why = xstrdup("it has no fields");
	if (fl.why) {
		*why = fl.why;
		record_free(fl.rec);
		return NULL;
	}
	record_close(fl.rec, (size_t)clang_api.clang_Type_getSizeOf(type),
		     (size_t)clang_api.clang_Type_getAlignOf(type));
	return fl.rec;
}

static void read_param(CXCursor c, struct src_param *p)
{
	p->name = clang_api_text(clang_api.clang_getCursorSpelling(c));
	CXType type = clang_api.clang_getCursorType(c);
	p->type = clang_api_text(clang_api.clang_getTypeSpelling(type));
	place(c, &p->line, &p->col);
	CXType canon = clang_api.clang_getCanonicalType(type);
	CXType target = canon;
	p->form = SRC_VALUE;
	if (canon.kind == CXType_Pointer) {
		p->form = SRC_POINTER;
		target = clang_api.clang_getCanonicalType(clang_api.clang_getPointeeType(canon));
	} else if (canon.kind == CXType_OCLSampler) {
		p->form = SRC_SAMPLER;
	} else if (canon.kind == CXType_Pipe) {
		p->form = SRC_PIPE;
	} else if (strstr(p->type, "image") != NULL) {
		p->form = SRC_IMAGE;
	} else if (canon.kind == CXType_OCLEvent || canon.kind == CXType_OCLQueue ||
		   canon.kind == CXType_OCLReserveID) {
		p->form = SRC_OTHER;
	}
	if ((p->form == SRC_VALUE || p->form == SRC_POINTER) && target.kind == CXType_Record)
		p->record = record_of(target, &p->why);
	if (p->form == SRC_VALUE || p->form == SRC_POINTER) {
		enum elem_type et;
		if (scalar_type(target.kind, &et)) {
			p->elem = et;
			p->lanes = 1;
		} else if (target.kind == CXType_ExtVector || target.kind == CXType_Vector) {
			long long lanes = clang_api.clang_getNumElements(target);
			CXType element = clang_api.clang_getCanonicalType(clang_api.clang_getElementType(target));
			if (scalar_type(element.kind, &et) &&
			    (lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16)) {
				p->elem = et;
				p->lanes = (unsigned)lanes;
			}
		}
	}
}

struct body_walk {
	struct kernel_source *ks;
};

/* The local arrays of a kernel's body, at any depth. */
static enum CXChildVisitResult visit_body(CXCursor c, CXCursor parent, CXClientData data)
{
	struct body_walk *w = data;
	if (clang_api.clang_getCursorKind(c) == CXCursor_VarDecl) {
		CXType type = clang_api.clang_getCursorType(c);
		char *spelled = clang_api_text(clang_api.clang_getTypeSpelling(type));
		CXType canon = clang_api.clang_getCanonicalType(type);
		if (strstr(spelled, "__local") && canon.kind == CXType_ConstantArray) {
			struct kernel_source *ks = w->ks;
			ks->locals = xreallocarray(ks->locals, ks->nlocals + 1, sizeof *ks->locals);
			struct src_local_array *a = &ks->locals[ks->nlocals++];
			*a = (struct src_local_array){ .name = clang_api_text(
							       clang_api.clang_getCursorSpelling(c)) };
			place(c, &a->line, &a->col);
			for (CXType t = canon; t.kind == CXType_ConstantArray && a->ndims < 3;
			     t = clang_api.clang_getCanonicalType(clang_api.clang_getArrayElementType(t)))
				a->dims[a->ndims++] = clang_api.clang_getArraySize(t);
		}
		free(spelled);
	}
	return CXChildVisit_Recurse;
}

struct find_kernel {
	const char *name;
	CXCursor found;
	bool any;
};

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data)
{
	struct find_kernel *f = data;
	if (clang_api.clang_getCursorKind(c) != CXCursor_FunctionDecl ||
	    !clang_api.clang_isCursorDefinition(c) ||
	    !clang_api.clang_Location_isFromMainFile(clang_api.clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(c));
	if (strcmp(name, f->name) == 0) {
		f->found = c;
		f->any = true;
	}
	free(name);
	return f->any ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Reads the kernel with libclang, in the child. */
static int parse(const char *path, const char *kernel, const char *options,
		 struct kernel_source *out, struct diag_list *diags)
{
	*out = (struct kernel_source){ 0 };
	CXIndex index = clang_api.clang_createIndex(0, 0);
	CXTranslationUnit tu = clang_api_parse(index, path, options, diags);
	int status = -1;
	if (tu == NULL)
		goto out;
	struct find_kernel find = { .name = kernel };
	clang_api.clang_visitChildren(clang_api.clang_getTranslationUnitCursor(tu), visit_top, &find);
	if (!find.any) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "no kernel named '%s' is defined in it",
			 kernel);
		goto out;
	}
	place(find.found, &out->line, &out->col);
	int n = clang_api.clang_Cursor_getNumArguments(find.found);
	out->params = xcalloc(n > 0 ? (size_t)n : 1, sizeof *out->params);
	for (int i = 0; i < n; i++)
		read_param(clang_api.clang_Cursor_getArgument(find.found, (unsigned)i), &out->params[i]);
	out->nparams = n > 0 ? (size_t)n : 0;
	struct body_walk walk = { out };
	clang_api.clang_visitChildren(find.found, visit_body, &walk);
	status = 0;
out:
	if (tu)
		clang_api.clang_disposeTranslationUnit(tu);
	clang_api.clang_disposeIndex(index);
	if (status < 0)
		kernel_source_free(out);
	return status;
}

/* What the reading child sends, a line a fact, fields split by tabs:
 *   K line col                               the kernel's name
 *   P name type line col form size align elem lanes why
 *                                            a parameter; size 0: no record; lanes 0:
 *                                            no scalar or vector (elem unused)
 *   F name type lanes offset                 a field of the last P's record
 *   L name line col d0 d1 d2 ndims           a local array
 *   E line col message                       an error clang found */

/* Serialises what clang read of the kernel. */
static void send_source(struct strbuf *out, const struct kernel_source *ks)
{
	strbuf_printf(out, "K\t%d\t%d\n", ks->line, ks->col);
	for (size_t i = 0; i < ks->nparams; i++) {
		const struct src_param *p = &ks->params[i];
		const struct record *r = p->record;
		strbuf_printf(out, "P\t%s\t%s\t%d\t%d\t%d\t%zu\t%zu\t%d\t%u\t%s\n", p->name,
			      p->type, p->line, p->col, (int)p->form, r ? r->size : 0,
			      r ? r->align : 0, (int)p->elem, p->lanes, p->why ? p->why : "");
		for (size_t f = 0; r && f < r->nfields; f++)
			strbuf_printf(out, "F\t%s\t%d\t%u\t%zu\n", r->fields[f].name,
				      (int)r->fields[f].type, r->fields[f].lanes,
				      r->fields[f].offset);
	}
	for (size_t i = 0; i < ks->nlocals; i++) {
		const struct src_local_array *a = &ks->locals[i];
		strbuf_printf(out, "L\t%s\t%d\t%d\t%lld\t%lld\t%lld\t%u\n", a->name, a->line,
			      a->col, a->dims[0], a->dims[1], a->dims[2], a->ndims);
	}
}

struct read_job {
	const char *path, *kernel, *options;
};

/* In the child: reads the source and sends what it found, or its errors. */
static void read_source(void *ctx, struct strbuf *out)
{
	const struct read_job *job = ctx;
	struct kernel_source ks = { 0 };
	struct diag_list diags = { 0 };
	if (parse(job->path, job->kernel, job->options, &ks, &diags) < 0)
		diag_list_send(out, &diags);
	else
		send_source(out, &ks);
}

/* Rebuilds in the parent what the child sent. Returns the errors it carried. */
static size_t take_lines(char *text, const char *path, struct kernel_source *ks,
			 struct diag_list *diags)
{
	size_t errors = 0;
	struct record *rec = NULL;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *rest = line;
		char *tag = next_tab_field(&rest);
		if (strcmp(tag, "K") == 0) {
			ks->line = atoi(next_tab_field(&rest));
			ks->col = atoi(next_tab_field(&rest));
		} else if (strcmp(tag, "P") == 0) {
			ks->params = xreallocarray(ks->params, ks->nparams + 1, sizeof *ks->params);
			struct src_param *p = &ks->params[ks->nparams++];
			*p = (struct src_param){ .name = xstrdup(next_tab_field(&rest)) };
			p->type = xstrdup(next_tab_field(&rest));
			p->line = atoi(next_tab_field(&rest));
			p->col = atoi(next_tab_field(&rest));
			p->form = (enum src_form)atoi(next_tab_field(&rest));
			size_t size = strtoul(next_tab_field(&rest), NULL, 10);
			size_t align = strtoul(next_tab_field(&rest), NULL, 10);
			int elem = atoi(next_tab_field(&rest));
			p->lanes = (unsigned)atoi(next_tab_field(&rest));
			p->elem = elem >= 0 && elem <= ELEM_LAST ? (enum elem_type)elem : ELEM_UCHAR;
			if (elem < 0 || elem > ELEM_LAST)
				p->lanes = 0;
			char *why = next_tab_field(&rest);
			p->why = *why ? xstrdup(why) : NULL;
			rec = size ? xcalloc(1, sizeof *rec) : NULL;
			if (rec)
				record_close(rec, size, align);
			p->record = rec;
		} else if (strcmp(tag, "F") == 0 && rec) {
			char *name = next_tab_field(&rest);
			int type = atoi(next_tab_field(&rest));
			unsigned lanes = (unsigned)atoi(next_tab_field(&rest));
			size_t offset = strtoul(next_tab_field(&rest), NULL, 10);
			size_t size = rec->size, align = rec->align;
			record_add_at(rec, name, (enum elem_type)type, lanes, offset);
			record_close(rec, size, align);
		} else if (strcmp(tag, "L") == 0) {
			ks->locals = xreallocarray(ks->locals, ks->nlocals + 1, sizeof *ks->locals);
			struct src_local_array *a = &ks->locals[ks->nlocals++];
			*a = (struct src_local_array){ .name = xstrdup(next_tab_field(&rest)) };
			a->line = atoi(next_tab_field(&rest));
			a->col = atoi(next_tab_field(&rest));
			for (int d = 0; d < 3; d++)
				a->dims[d] = atoll(next_tab_field(&rest));
			a->ndims = (unsigned)atoi(next_tab_field(&rest));
		} else if (strcmp(tag, "E") == 0) {
			diag_take_sent(diags, path, rest);
			errors++;
		}
	}
	return errors;
}

int kernelsrc_read(const char *path, const char *kernel, const char *options,
		   struct kernel_source *out, struct diag_list *diags)
{
	*out = (struct kernel_source){ 0 };
	struct read_job job = { path, kernel, options ? options : "" };
	bool ok;
	char *why;
	char *text = clang_api_in_child(read_source, &job, &ok, &why);
	size_t errors = take_lines(text, path, out, diags);
	free(text);
	if (!ok) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "clang stopped reading it: %s", why);
		errors++;
	}
	free(why);
	if (errors > 0) {
		kernel_source_free(out);
		return -1;
	}
	return 0;
}

#endif
