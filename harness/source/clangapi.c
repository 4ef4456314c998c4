/* clangapi.c - libclang's C API, loaded where a source is read (clangapi.h). */
#include "config.h"

#ifdef HAVE_LIBCLANG

#include "source/clangapi.h"

#include <dlfcn.h>
#include <unistd.h>

#include "base/util.h"

struct clang_functions clang_api;

bool clang_api_available(void)
{
	return access(CLH_LIBCLANG, R_OK) == 0;
}

bool clang_api_load(char **why)
{
	void *lib = dlopen(CLH_LIBCLANG, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		*why = xasprintf("cannot load libclang (%s): %s; install the Debian package "
				 "libclang1 of that version",
				 CLH_LIBCLANG, dlerror());
		return false;
	}
#define RESOLVE(f)                                                                         \
	if ((clang_api.f = (__typeof__(f) *)dlsym(lib, #f)) == NULL) {                     \
		*why = xasprintf("%s has no %s", CLH_LIBCLANG, #f);                        \
		return false;                                                              \
	}
	CLANG_API(RESOLVE)
#undef RESOLVE
	return true;
}

#endif
