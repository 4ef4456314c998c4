/* fuzz_npy.c - libFuzzer target: a data file's bytes as a .npy file, read for each element
 * type a buffer can have. */
#include "config.h"

#include "case/npy.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum elem_type types[] = { ELEM_INT, ELEM_UINT, ELEM_FLOAT };
	for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
		struct data_file f;
		char *why = NULL;
		if (npy_parse(data, size, types[t], &f, &why) == 0)
			data_file_free(&f);
		free(why);
	}
	return 0;
}
