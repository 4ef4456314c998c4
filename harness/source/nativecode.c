/* nativecode.c - where a kernel's source leaves OpenCL C for the machine's own code
 * (nativecode.h). */
#include "config.h"

#include "source/nativecode.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/directives.h"
#include "base/util.h"
#ifdef HAVE_LIBCLANG
#include "source/clangapi.h"
#endif

/* The extension that lets OpenCL C take a function's address and call through it. */
#define FUNCTION_POINTERS_EXTENSION "__cl_clang_function_pointers"

static const char *const kind_names[NATIVE_KINDS] = { "inline-assembly", "function-pointers" };

const char *native_kind_name(enum native_kind kind)
{
	return kind < NATIVE_KINDS ? kind_names[kind] : "?";
}

int native_kind_from_name(const char *name, enum native_kind *kind)
{
	for (int k = 0; k < NATIVE_KINDS; k++)
		if (name && strcmp(name, kind_names[k]) == 0) {
			*kind = (enum native_kind)k;
			return 1;
		}
	return 0;
}

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
	       (unsigned char)c >= 0x80;
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* A universal character name at t (\uXXXX or \UXXXXXXXX): its length, 0 where none, and
 * its code point in *cp. */
static size_t ucn_at(const char *t, size_t left, uint32_t *cp)
{
	if (left < 2 || t[0] != '\\' || (t[1] != 'u' && t[1] != 'U'))
		return 0;
	size_t digits = t[1] == 'u' ? 4 : 8;
	if (left < 2 + digits)
		return 0;
	uint32_t v = 0;
	for (size_t k = 0; k < digits; k++) {
		int h = hex_value(t[2 + k]);
		if (h < 0)
			return 0;
		v = v * 16 + (uint32_t)h;
	}
	*cp = v;
	return 2 + digits;
}

/* Whether an identifier, as the compiler reads it, is one of asm's spellings. */
static bool names_asm(const char *word)
{
	return strcmp(word, "asm") == 0 || strcmp(word, "__asm") == 0 ||
	       strcmp(word, "__asm__") == 0;
}

int nativecode_scan_text(const char *src, size_t n, unsigned kinds,
			 void (*found)(void *ctx, enum native_kind kind, int line, int col,
				       const char *spelling),
			 void *ctx)
{
	/* Comments are gone and split lines joined: what is left is the compiler's tokens. */
	struct logical_text l;
	logical_text_read(src, n, &l);
	const char *t = l.text;
	bool pastes = false;
	struct strbuf word = { 0 };
	for (size_t i = 0; i < l.len;) {
		char c = t[i];
		if (c == '"' || c == '\'') {
			/* A literal: _Pragma's string may name the extension. */
			size_t start = i++;
			while (i < l.len && t[i] != c && t[i] != '\n')
				i += t[i] == '\\' && i + 1 < l.len ? 2 : 1;
			char *text = xstrndup(t + start, i - start);
			if ((kinds & (1u << NATIVE_FUNCTION_POINTER)) &&
			    strstr(text, FUNCTION_POINTERS_EXTENSION))
				found(ctx, NATIVE_FUNCTION_POINTER, l.line[start], l.col[start],
				      FUNCTION_POINTERS_EXTENSION);
			free(text);
			if (i < l.len && t[i] == c)
				i++;
		} else if (ident_start(c) || (c == '\\' && (t[i + 1] == 'u' || t[i + 1] == 'U'))) {
			size_t start = i;
			word.len = 0;
			while (i < l.len) {
				uint32_t cp;
				size_t u = ucn_at(t + i, l.len - i, &cp);
				if (u > 0) {
					char ch = cp < 0x80 ? (char)cp : '?';
					strbuf_append(&word, &ch, 1);
					i += u;
				} else if (ident_char(t[i])) {
					strbuf_append(&word, t + i, 1);
					i++;
				} else {
					break;
				}
			}
			if (word.len == 0) {
				i++; /* a lone backslash */
				continue;
			}
			if ((kinds & (1u << NATIVE_ASSEMBLY)) && names_asm(word.data))
				found(ctx, NATIVE_ASSEMBLY, l.line[start], l.col[start], word.data);
			if ((kinds & (1u << NATIVE_FUNCTION_POINTER)) &&
			    strcmp(word.data, FUNCTION_POINTERS_EXTENSION) == 0)
				found(ctx, NATIVE_FUNCTION_POINTER, l.line[start], l.col[start],
				      word.data);
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && t[i + 1] >= '0' && t[i + 1] <= '9')) {
			/* A preprocessing number, "1asm" included, is no identifier. */
			i++;
			while (i < l.len &&
			       (ident_char(t[i]) || t[i] == '.' ||
				((t[i] == '+' || t[i] == '-') && strchr("eEpP", t[i - 1]))))
				i++;
		} else if ((c == '#' && t[i + 1] == '#') ||
			   (c == '%' && t[i + 1] == ':' && t[i + 2] == '%' && t[i + 3] == ':')) {
			pastes = true;
			i += c == '#' ? 2 : 4;
		} else {
			i++;
		}
	}
	strbuf_free(&word);
	logical_text_free(&l);
	return pastes;
}

/* What the token reading of one file reports into. */
struct scan_report {
	const char *file;
	struct diag_list *diags;
	unsigned found;
};

static const char *kind_text(enum native_kind kind)
{
	return kind == NATIVE_ASSEMBLY ? "inline assembly" : "a pointer to a function";
}

static void add_finding(struct diag_list *diags, unsigned *found, enum native_kind kind,
			const char *file, int line, int col, const char *spelling)
{
	/* One error a line: a statement names asm once, a macro may name it again. */
	for (size_t i = 0; i < diags->count; i++)
		if (diags->items[i].line == line && strcmp(diags->items[i].file, file) == 0)
			return;
	*found |= 1u << kind;
	if (kind == NATIVE_ASSEMBLY)
		diag_add(diags, DIAG_ERROR, file, line, col,
			 "inline assembly (%s): a kernel compiled to a CPU's own code runs it as "
			 "written, system calls and all, so a submission may not hold it",
			 spelling);
	else
		diag_add(diags, DIAG_ERROR, file, line, col,
			 "%s (%s): a call through it runs whatever code lies at its address, so "
			 "a submission may not take or call one",
			 kind_text(kind), spelling);
	diag_set_code(diags, native_kind_name(kind));
}

static void found_in_text(void *ctx, enum native_kind kind, int line, int col, const char *spelling)
{
	struct scan_report *r = ctx;
	add_finding(r->diags, &r->found, kind, r->file, line, col, spelling);
}

#ifdef HAVE_LIBCLANG
/* What the parse in the child reads. */
struct parse_job {
	const char *path;
	const char *options;
	unsigned kinds;
};

struct parse_walk {
	struct strbuf *out;
	unsigned kinds;
	CXPrintingPolicy policy;
};

/* "TAG\tKIND\tLINE\tCOL\tFILE\tSPELLING", for a node at cursor c. */
static void put_node(struct strbuf *out, CXCursor c, enum native_kind kind, const char *spelling)
{
	CXFile file;
	unsigned line = 0, col = 0;
	clang_api.clang_getExpansionLocation(clang_api.clang_getCursorLocation(c), &file, &line,
					     &col, NULL);
	char *name = file ? clang_api_text(clang_api.clang_getFileName(file)) : xstrdup("");
	strbuf_printf(out, "N\t%d\t%u\t%u\t%s\t%s\n", (int)kind, line, col, name, spelling);
	free(name);
}

/* Whether a type, read through its typedefs, points to a function. */
static bool points_to_function(CXType type)
{
	CXType canonical = clang_api.clang_getCanonicalType(type);
	if (canonical.kind != CXType_Pointer && canonical.kind != CXType_BlockPointer)
		return false;
	CXType pointee =
		clang_api.clang_getCanonicalType(clang_api.clang_getPointeeType(canonical));
	return pointee.kind == CXType_FunctionProto || pointee.kind == CXType_FunctionNoProto;
}

static enum CXChildVisitResult visit_node(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parse_walk *w = data;
	enum CXCursorKind kind = clang_api.clang_getCursorKind(c);
	bool assembly = w->kinds & (1u << NATIVE_ASSEMBLY);
	if (assembly && (kind == CXCursor_GCCAsmStmt || kind == CXCursor_MSAsmStmt))
		put_node(w->out, c, NATIVE_ASSEMBLY, "asm statement");
	else if (assembly && kind == CXCursor_AsmLabelAttr)
		put_node(w->out, c, NATIVE_ASSEMBLY, "asm label");
	else if (assembly && kind == CXCursor_UnexposedDecl &&
		 clang_api.clang_getCursorKind(parent) == CXCursor_TranslationUnit) {
		/* libclang shows a file-scope asm block as no node of its own: its printed
		 * form says what it is. */
		char *text = clang_api_text(clang_api.clang_getCursorPrettyPrinted(c, w->policy));
		const char *s = text;
		while (*s == ' ' || *s == '\n' || *s == '\t')
			s++;
		if (strncmp(s, "asm", 3) == 0 || strncmp(s, "__asm", 5) == 0)
			put_node(w->out, c, NATIVE_ASSEMBLY, "file-scope asm");
		free(text);
	}
	if ((w->kinds & (1u << NATIVE_FUNCTION_POINTER)) &&
	    (kind == CXCursor_VarDecl || kind == CXCursor_ParmDecl || kind == CXCursor_FieldDecl ||
	     kind == CXCursor_TypedefDecl || kind == CXCursor_CStyleCastExpr) &&
	    points_to_function(kind == CXCursor_TypedefDecl
				       ? clang_api.clang_getTypedefDeclUnderlyingType(c)
				       : clang_api.clang_getCursorType(c)))
		put_node(w->out, c, NATIVE_FUNCTION_POINTER, "pointer to a function");
	return CXChildVisit_Recurse;
}

static void parse_in_child(void *ctx, struct strbuf *out)
{
	const struct parse_job *job = ctx;
	CXIndex index = clang_api.clang_createIndex(0, 0);
	struct diag_list diags = { 0 };
	CXTranslationUnit tu = clang_api_parse(index, job->path, job->options, &diags);
	if (tu) {
		CXCursor root = clang_api.clang_getTranslationUnitCursor(tu);
		struct parse_walk w = { out, job->kinds,
					clang_api.clang_getCursorPrintingPolicy(root) };
		clang_api.clang_visitChildren(root, visit_node, &w);
		clang_api.clang_PrintingPolicy_dispose(w.policy);
		clang_api.clang_disposeTranslationUnit(tu);
	}
	diag_list_free(&diags);
	clang_api.clang_disposeIndex(index);
}

/* Reads `path` as clang parses it, adding each native node to diags. A source clang
 * cannot parse is left to the token reading and, when it runs, to the sandbox. */
static void find_in_parse(const char *path, const char *options, unsigned kinds,
			  struct diag_list *diags, unsigned *found)
{
	if (!clang_api_available())
		return;
	struct parse_job job = { path, options ? options : "", kinds };
	bool ok;
	char *why;
	char *text = clang_api_in_child(parse_in_child, &job, &ok, &why);
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *rest = line;
		if (strcmp(next_tab_field(&rest), "N") != 0)
			continue;
		int kind = atoi(next_tab_field(&rest));
		int l = atoi(next_tab_field(&rest));
		int c = atoi(next_tab_field(&rest));
		const char *file = next_tab_field(&rest);
		if (kind >= 0 && kind < NATIVE_KINDS)
			add_finding(diags, found, (enum native_kind)kind, *file ? file : path, l, c,
				    rest);
	}
	free(text);
	free(why);
}
#endif

bool nativecode_find_parses(void)
{
#ifdef HAVE_LIBCLANG
	return clang_api_available();
#else
	return false;
#endif
}

unsigned nativecode_find(char *const *files, size_t nfiles, const char *options, unsigned kinds,
			 struct diag_list *diags)
{
	unsigned found = 0;
	bool pastes = false;
	for (size_t f = 0; f < nfiles; f++) {
		size_t n;
		char *src = read_file(files[f], &n);
		if (src == NULL) {
			diag_add(diags, DIAG_ERROR, files[f], 0, 0,
				 "cannot read it to check it for native code: %s",
				 file_error(errno));
			found |= 1u << NATIVE_ASSEMBLY;
			continue;
		}
		struct scan_report r = { files[f], diags, 0 };
		pastes |= nativecode_scan_text(src, n, kinds, found_in_text, &r) != 0;
		found |= r.found;
		free(src);
	}
#ifdef HAVE_LIBCLANG
	if (pastes && nfiles > 0)
		find_in_parse(files[0], options, kinds, diags, &found);
#else
	(void)pastes;
	(void)options;
#endif
	return found;
}
