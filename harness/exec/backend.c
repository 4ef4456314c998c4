/* backend.c - the registry of backends, and what they share about kernel signatures. */
#include "config.h"

#include "exec/backend.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const struct backend *const backends[] = {
	&backend_device,
	&backend_oclgrind,
};
const size_t backend_count = sizeof backends / sizeof backends[0];

void kernel_sig_free(struct kernel_sig *sig)
{
	for (size_t i = 0; i < sig->count; i++) {
		free(sig->params[i].name);
		free(sig->params[i].type);
	}
	free(sig->params);
	*sig = (struct kernel_sig){ 0 };
}

void target_free(struct target *t)
{
	free(t->name);
	free(t->type);
	free(t->device);
	free(t->platform);
	free(t->driver);
	free(t->opencl);
	*t = (struct target){ 0 };
}

bool backend_can(const struct backend *b, enum capability what)
{
	return (b->capabilities & what) != 0;
}

bool target_can(const struct target *t, enum capability what)
{
	return (t->capabilities & what) != 0;
}

void kernel_type_normal(struct strbuf *out, const char *type)
{
	static const struct {
		const char *from, *to;
	} spellings[] = { { "unsigned int", "uint" },	  { "unsigned char", "uchar" },
			  { "unsigned short", "ushort" }, { "unsigned long", "ulong" },
			  { "unsigned", "uint" },	  { "signed int", "int" },
			  /* A bool in memory is a byte holding 0 or 1, as clang lays it
			   * out; the language keeps bool off scalar parameters. */
			  { "bool", "uchar" } };
	char *flat = xstrdup(type);
	for (char *p = flat; *p; p++)
		if (*p == '*')
			*p = ' ';
	char *trimmed = flat;
	while (isspace((unsigned char)*trimmed))
		trimmed++;
	char *end = trimmed + strlen(trimmed);
	while (end > trimmed && isspace((unsigned char)end[-1]))
		*--end = '\0';
	const char *base = trimmed;
	for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
		if (strcmp(trimmed, spellings[i].from) == 0)
			base = spellings[i].to;
	strbuf_puts(out, base);
	if (strchr(type, '*'))
		strbuf_puts(out, "*");
	free(flat);
}
