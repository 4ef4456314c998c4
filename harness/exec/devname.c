/* devname.c - stable short device names (pocl-cpu, nvidia-h100) and --device matching. */
#include "config.h"

#include "exec/devname.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Platforms whose vendor strings are long or vary between driver releases. */
static const struct {
	const char *needle;
	const char *word;
} platform_words[] = {
	{ "pocl", "pocl" },
	{ "portable computing language", "pocl" },
	{ "oclgrind", "oclgrind" },
	{ "nvidia", "nvidia" },
	{ "advanced micro devices", "amd" },
	{ "amd", "amd" },
	{ "intel", "intel" },
	{ "apple", "apple" },
	{ "arm", "arm" },
	{ "qualcomm", "qualcomm" },
	{ "rusticl", "rusticl" },
	{ "mesa", "mesa" },
};

static char *lowercase(const char *s)
{
	char *copy = xstrdup(s ? s : "");
	for (char *p = copy; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return copy;
}

/* The first run of letters and digits in s, lowercased; "device" if there is none. */
static char *first_word(const char *s, bool need_digit)
{
	const char *p = s;
	while (*p) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *start = p;
		bool digit = false;
		while (*p && (isalnum((unsigned char)*p) || *p == '-' || *p == '_')) {
			digit |= isdigit((unsigned char)*p) != 0;
			p++;
		}
		if (p > start && (!need_digit || digit)) {
			char *word = xstrndup(start, (size_t)(p - start));
			char *low = lowercase(word);
			free(word);
			return low;
		}
	}
	return NULL;
}

char *devname_short(const char *platform_vendor, const char *platform_name, const char *device_name,
		    const char *type)
{
	char *vendor = lowercase(platform_vendor);
	char *pname = lowercase(platform_name);
	const char *platform = NULL;
	for (size_t i = 0; i < sizeof platform_words / sizeof platform_words[0] && !platform; i++)
		if (strstr(pname, platform_words[i].needle) ||
		    strstr(vendor, platform_words[i].needle))
			platform = platform_words[i].word;
	char *fallback = platform ? NULL : first_word(vendor, false);
	if (!platform)
		platform = fallback ? fallback : "opencl";

	char *model = NULL;
	if (strcmp(type, "cpu") != 0)
		model = first_word(device_name ? device_name : "", true);
	char *name = xasprintf("%s-%s", platform, model ? model : type);
	free(model);
	free(fallback);
	free(vendor);
	free(pname);
	return name;
}

bool devname_matches(const char *pattern, const char *short_name, const char *type)
{
	if (strcmp(pattern, "all") == 0 || strcmp(pattern, short_name) == 0 ||
	    strcmp(pattern, type) == 0)
		return true;
	/* A device's pattern with a backend's suffix (nvidia+racecheck) names that backend's
	 * target of each device the pattern names (nvidia-h200+racecheck). */
	const char *plus = strrchr(pattern, '+'), *name_plus = strrchr(short_name, '+');
	if (plus && name_plus && strcmp(plus, name_plus) == 0) {
		size_t len = (size_t)(plus - pattern), name_len = (size_t)(name_plus - short_name);
		return strncmp(pattern, short_name, len) == 0 &&
		       (len == name_len || short_name[len] == '-');
	}
	size_t len = strlen(pattern);
	return strncmp(pattern, short_name, len) == 0 && short_name[len] == '-';
}
