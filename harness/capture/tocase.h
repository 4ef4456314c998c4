/* tocase.h - turns the launches the capture layer left in a folder into ordinary cases
 * there: a case file a launch, the programs' sources under kernels/, each buffer's bytes
 * before the launch as its input and after it as the output the checks compare with,
 * under data/. */
#ifndef CLH_TOCASE_H
#define CLH_TOCASE_H

#include <stddef.h>

#include "base/diag.h"

struct capture_tally {
	size_t cases;	   /* case files written */
	size_t cut_off;	   /* launches the program died in the middle of */
	size_t unreadable; /* manifests that could not be read, each a note */
};

/* Writes the cases of DIR/raw/ into DIR. `command` is the program's command line, for the
 * cases' comments; `cwd` the folder it ran in, where a relative -I of its build options
 * points. What the layer noted and every launch that could not become a case is a note in
 * `notes` (DIAG_NOTE, or DIAG_WARNING where a launch is lost). Returns 0, or -1 after an
 * error in `notes` where DIR cannot be written. */
int capture_write_cases(const char *dir, const char *command, const char *cwd,
			struct capture_tally *tally, struct diag_list *notes);

#endif
