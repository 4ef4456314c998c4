/* html.h - the report as one self-contained page (DIR/index.html), written from a
 * findlog: the summary, and each finding with its line and the other access's line shown
 * in the source side by side, its work-items, memory space and fix; each failed run with
 * the outputs that differ; every run's verdict. Styles are inline and nothing is fetched,
 * so the page opens from a CI artifact, a mail or a student's laptop as it is. */
#ifndef CLH_HTML_H
#define CLH_HTML_H

#include "base/util.h"
#include "results/findlog.h"

/* Makes `dir` (one level) where missing and makes sure a page can be written there;
 * -1 with errno set when it cannot. */
int html_prepare(const char *dir);
/* The page, as HTML text. */
void html_text(const struct findlog *log, struct strbuf *out);

/* For pages of other commands (grade's, bench's), in the same style (text goes in through
 * report.h's xml_text, which escapes it for HTML as well): */
/* The document up to the header: `title` in the tab, `heading` on the page, and where
 * the command ran (NULL: not said). */
void html_page_begin(struct strbuf *out, const char *title, const char *heading,
		     const char *where);
/* The log's summary, its findings with their source, and its runs. */
void html_findings(struct strbuf *out, const struct findlog *log);
void html_page_end(struct strbuf *out);
/* Writes `page` to dir/name, replacing it at once; -1 with errno set on failure. */
int html_write_page(const char *dir, const char *name, const char *page);
/* Writes the page to dir/index.html, replacing it at once; -1 with errno set when it
 * cannot be written. */
int html_write(const struct findlog *log, const char *dir);

#endif
