/* gradescope_schema.c - checks a results.json against Gradescope's documented autograder
 * output format: the top level's fields and each test's, their types, the visibility
 * and status words it knows, and that the tests' scores add up to the total. Prints
 * each departure and exits 1, or exits 0 for a file Gradescope takes.
 * Usage: gradescope_schema results.json */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/yamltext.h"

static int problems;

/* Says that, in `where`, `what` `says`. */
static void problem(const char *where, const char *what, const char *says)
{
	fprintf(stderr, "gradescope_schema: %s: %s %s\n", where, what, says);
	problems++;
}

/* Whether `key` is one of the NULL-ended `known`. */
static bool one_of(const char *key, const char *const *known)
{
	for (size_t i = 0; known[i]; i++)
		if (strcmp(key, known[i]) == 0)
			return true;
	return false;
}

static bool is_number(struct fy_node *map, const char *key)
{
	return !isnan(json_number(map, key, NAN));
}

/* Every key of `map` must be documented; those in `numbers` numbers, `strings` strings. */
static void check_keys(struct fy_node *map, const char *where, const char *const *known,
		       const char *const *numbers, const char *const *strings)
{
	void *iter = NULL;
	struct fy_node_pair *pair;
	while ((pair = fy_node_mapping_iterate(map, &iter)) != NULL) {
		size_t len;
		const char *k = fy_node_get_scalar(fy_node_pair_key(pair), &len);
		char *key = xstrndup(k ? k : "", len);
		if (!one_of(key, known))
			problem(where, key, "is not a field of the format");
		if (one_of(key, numbers) && !is_number(map, key))
			problem(where, key, "must be a number");
		char *text = json_text(map, key);
		if (one_of(key, strings) && text == NULL)
			problem(where, key, "must be a string");
		free(text);
		free(key);
	}
}

static const char *const visibilities[] = { "hidden", "after_due_date", "after_published",
					    "visible", NULL };
static const char *const formats[] = { "text", "html", "simple_format", "md", "ansi", NULL };

/* A field naming one of `words`, where present. */
static void check_word(struct fy_node *map, const char *key, const char *const *words)
{
	char *v = json_text(map, key);
	if (json_member(map, key) && (v == NULL || !one_of(v, words)))
		problem("a field", key, "names no value the format knows");
	free(v);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gradescope_schema results.json\n");
		return 2;
	}
	size_t len;
	char *text = read_file(argv[1], &len);
	struct yaml_error err = { 0 };
	struct fy_document *doc = text ? yaml_from_text(text, true, false, &err) : NULL;
	struct fy_node *root = doc ? fy_document_root(doc) : NULL;
	if (root == NULL || !fy_node_is_mapping(root)) {
		fprintf(stderr, "gradescope_schema: %s is no JSON object\n", argv[1]);
		return 1;
	}
	static const char *const top[] = {
		"score",	 "execution_time",     "output",
		"output_format", "test_output_format", "test_name_format",
		"visibility",	 "stdout_visibility",  "extra_data",
		"tests",	 "leaderboard",	       NULL
	};
	static const char *const top_numbers[] = { "score", "execution_time", NULL };
	static const char *const top_strings[] = { "output", "output_format", "visibility",
						   "stdout_visibility", NULL };
	check_keys(root, "the top level", top, top_numbers, top_strings);
	check_word(root, "visibility", visibilities);
	check_word(root, "stdout_visibility", visibilities);
	check_word(root, "output_format", formats);
	check_word(root, "test_output_format", formats);
	struct fy_node *tests = json_member(root, "tests");
	if (!json_member(root, "score") && !tests)
		problem("the top level", "score", "is needed, on the whole or on each test");
	double sum = 0;
	bool every_scored = true;
	if (tests && !fy_node_is_sequence(tests)) {
		problem("the top level", "tests", "must be a list");
	} else if (tests) {
		static const char *const fields[] = { "score",	    "max_score",     "status",
						      "name",	    "name_format",   "number",
						      "output",	    "output_format", "tags",
						      "visibility", "extra_data",    NULL };
		static const char *const numbers[] = { "score", "max_score", NULL };
		static const char *const strings[] = { "status", "name",       "number",
						       "output", "visibility", NULL };
		static const char *const statuses[] = { "passed", "failed", NULL };
		void *iter = NULL;
		struct fy_node *t;
		while ((t = fy_node_sequence_iterate(tests, &iter)) != NULL) {
			if (!fy_node_is_mapping(t)) {
				problem("tests", "each test", "must be an object");
				continue;
			}
			check_keys(t, "a test", fields, numbers, strings);
			check_word(t, "visibility", visibilities);
			check_word(t, "status", statuses);
			check_word(t, "output_format", formats);
			if (is_number(t, "score"))
				sum += json_number(t, "score", 0);
			else
				every_scored = false;
			if (is_number(t, "score") && is_number(t, "max_score") &&
			    json_number(t, "score", 0) > json_number(t, "max_score", 0))
				problem("a test", "score", "exceeds its max_score");
		}
	}
	if (every_scored && tests && is_number(root, "score") &&
	    fabs(sum - json_number(root, "score", 0)) > 0.005 * (1 + sum))
		problem("the top level", "score", "is not the sum of the tests' scores");
	fy_document_destroy(doc);
	yaml_error_free(&err);
	free(text);
	return problems ? 1 : 0;
}
