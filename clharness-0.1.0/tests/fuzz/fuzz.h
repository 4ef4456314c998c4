/* fuzz.h - what the libFuzzer targets share: the entry point libFuzzer calls, and the
 * input as the NUL-terminated text the parsers take. */
#ifndef CLH_FUZZ_H
#define CLH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a string the caller frees; a NUL inside it ends the text early, as it
 * would in a file read by the harness. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

#endif
