/* sarif.h - SARIF 2.1.0, the log code review and CI systems read, written from a findlog:
 * each entry a result with its rule (the finding's kind), level, message, location and the
 * conflicting access as a related location, the work-items and the fix in its
 * properties. Rules are described once, in the tool's driver. Paths are written relative
 * to the source root (uriBaseId SRCROOT), as code scanning matches them to the
 * repository; a log that did not check everything says so in its invocation. */
#ifndef CLH_SARIF_H
#define CLH_SARIF_H

#include "base/util.h"
#include "results/findlog.h"

/* The log as JSON. */
void sarif_text(const struct findlog *log, struct strbuf *out);
/* Writes the log to `path`; -1 with errno set when it cannot be written. */
int sarif_write(const struct findlog *log, const char *path);

#endif
