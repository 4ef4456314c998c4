/* diag.h - compiler-style diagnostics: file:line:col: error: message, source line, caret. */
#ifndef CLH_DIAG_H
#define CLH_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/* One diagnostic. line and col are 1-based; 0 means unknown (the file alone is named). */
struct diag {
	char *file;
	int line;
	int col;
	enum diag_severity severity;
	char *message;
	/* What kind of problem it is, when a report needs to know beyond the text: a static
	 * name ("race", "wrong-output", as findings and verdicts name them); NULL: none. */
	const char *code;
};

struct diag_list {
	struct diag *items;
	size_t count;
};

/* Appends a diagnostic; the list copies file and the formatted message. */
void diag_add(struct diag_list *list, enum diag_severity severity, const char *file, int line,
	      int col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Names the kind of the diagnostic added last (struct diag's code). */
void diag_set_code(struct diag_list *list, const char *code);
size_t diag_error_count(const struct diag_list *list);
/* Moves every diagnostic of src to the end of dst, leaving src empty. */
void diag_list_move(struct diag_list *dst, struct diag_list *src);
void diag_list_free(struct diag_list *list);

const char *diag_severity_name(enum diag_severity severity);

/* Writes "file:line:col: severity: message" and, when the file can be read, the source
 * line with a caret under the column, the way GCC does, so editors and CI annotate it. */
void diag_render(struct strbuf *out, const char *file, int line, int col,
		 enum diag_severity severity, const char *message, bool colour);
/* diag_render of every diagnostic of `list`, in order. */
void diag_list_render(struct strbuf *out, const struct diag_list *list, bool colour);
/* The errors of a child's line protocol (the libclang readers'): each diagnostic of
 * `list` as a line "E\tLINE\tCOL\tMESSAGE", and back, from a line's fields after its E
 * tag, as an error at `path`. */
void diag_list_send(struct strbuf *out, const struct diag_list *list);
void diag_take_sent(struct diag_list *list, const char *path, char *fields);
/* The first line of diag_render alone, for a note on a line just quoted. */
void diag_render_header(struct strbuf *out, const char *file, int line, int col,
			enum diag_severity severity, const char *message, bool colour);

#endif
