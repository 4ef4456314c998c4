/* yamltext.h - a YAML or JSON document parsed from a string, with libfyaml's first error
 * kept for the caller's own message. */
#ifndef CLH_YAMLTEXT_H
#define CLH_YAMLTEXT_H

#include <libfyaml.h>
#include <stdbool.h>

struct yaml_error {
	int line, col; /* 0 where libfyaml said nothing */
	char *msg;     /* NULL where libfyaml said nothing */
};

/* Parses `text`, as JSON when `json`, printing nothing; first in a child process
 * (yaml_survives) when `guard`, which a caller that tried the text already leaves off.
 * Returns the document, which the caller destroys, or NULL with the first error in *err
 * (freed by yaml_error_free). */
struct fy_document *yaml_from_text(const char *text, bool json, bool guard, struct yaml_error *err);
void yaml_error_free(struct yaml_error *err);

/* Reading back the JSON objects the harness writes. A member of `map` (NULL when map is
 * NULL or lacks it); a string member copied (NULL when absent, null or not a string); a
 * number member (`fallback` when absent or not a number); a boolean member (false
 * unless true). */
struct fy_node *json_member(struct fy_node *map, const char *key);
char *json_text(struct fy_node *map, const char *key);
double json_number(struct fy_node *map, const char *key, double fallback);
/* A number member that is a whole number from lo to hi, else `fallback`: a file read back
 * may hold any number, and converting one out of range to an integer is undefined. */
long long json_whole(struct fy_node *map, const char *key, long long lo, long long hi,
		     long long fallback);
bool json_bool(struct fy_node *map, const char *key);

#endif
