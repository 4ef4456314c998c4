/* icd.c - the ICD loader's vendor files and the driver libraries they name (icd.h). */
#include "config.h"

#include "exec/icd.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *icd_vendors_dir(void)
{
	const char *dir = getenv("OCL_ICD_VENDORS");
	return dir && *dir ? dir : "/etc/OpenCL/vendors";
}

void icd_each_library(void (*each)(const char *library, void *ctx), void *ctx)
{
	/* Libraries named outright, colon-separated, which the loader also reads. */
	const char *named = getenv("OCL_ICD_FILENAMES");
	for (const char *p = named; p && *p;) {
		size_t len = strcspn(p, ":");
		char *library = xstrndup(p, len);
		if (*library)
			each(library, ctx);
		free(library);
		p += len + (p[len] == ':');
	}
	const char *dir = icd_vendors_dir();
	DIR *d = opendir(dir);
	if (d == NULL)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".icd") != 0)
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "r");
		char library[4096];
		if (f && fgets(library, sizeof library, f)) {
			library[strcspn(library, "\r\n")] = '\0';
			if (*library)
				each(library, ctx);
		}
		if (f)
			fclose(f);
		free(path);
	}
	closedir(d);
}
