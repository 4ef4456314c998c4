/* yamlguard.h - tries a text on libfyaml in a child process before the harness parses
 * it: libfyaml 0.8 dies of SIGSEGV on some malformed input (14 bytes of '?' keys and
 * tabs) and loops for ever on some more, which must not take the harness with it. */
#ifndef CLH_YAMLGUARD_H
#define CLH_YAMLGUARD_H

#include <stdbool.h>

/* Whether libfyaml parses `text` (as JSON when `json`; each line on its own when `lines`)
 * without crashing or hanging. Returns 0, or -1 with why in *why (the caller frees it).
 * Where no child process can be made, it says 0: the text is then parsed unguarded. */
int yaml_survives(const char *text, bool json, bool lines, char **why);

#endif
