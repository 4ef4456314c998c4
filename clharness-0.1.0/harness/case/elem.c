/* elem.c - the element types a case's buffers and scalars can hold. */
#include "config.h"

#include "case/elem.h"

#include <string.h>

static const char *const type_names[] = {
	[ELEM_INT] = "int",
	[ELEM_UINT] = "uint",
	[ELEM_FLOAT] = "float",
};

const char *elem_type_name(enum elem_type type)
{
	return type_names[type];
}

int elem_type_parse(const char *name, enum elem_type *type)
{
	for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++) {
		if (strcmp(name, type_names[i]) == 0) {
			*type = (enum elem_type)i;
			return 0;
		}
	}
	return -1;
}

size_t elem_size(enum elem_type type)
{
	(void)type;
	return 4;
}

double elem_get(enum elem_type type, const void *data, size_t i)
{
	switch (type) {
	case ELEM_INT:
		return ((const int32_t *)data)[i];
	case ELEM_UINT:
		return ((const uint32_t *)data)[i];
	case ELEM_FLOAT:
		return ((const float *)data)[i];
	}
	return 0;
}
