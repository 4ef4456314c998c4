/* clangapi.h - the part of libclang's C API the source readers call, loaded with dlopen
 * in the child process that reads a source: libclang's LLVM in the harness's own process
 * would clash with the other LLVM that PoCL or Oclgrind loads there, and a source that
 * crashes clang takes only the child. Only built with libclang (HAVE_LIBCLANG). */
#ifndef CLH_CLANGAPI_H
#define CLH_CLANGAPI_H

#include <stdbool.h>

#include <clang-c/Index.h>

#include "base/diag.h"
#include "base/util.h"

#define CLANG_API(X)                                                                       \
	X(clang_createIndex)                                                               \
	X(clang_disposeIndex)                                                              \
	X(clang_parseTranslationUnit2)                                                     \
	X(clang_disposeTranslationUnit)                                                    \
	X(clang_getNumDiagnostics)                                                         \
	X(clang_getDiagnostic)                                                             \
	X(clang_disposeDiagnostic)                                                         \
	X(clang_getDiagnosticSeverity)                                                     \
	X(clang_getDiagnosticLocation)                                                     \
	X(clang_getDiagnosticSpelling)                                                     \
	X(clang_getSpellingLocation)                                                       \
	X(clang_getExpansionLocation)                                                      \
	X(clang_getFileName)                                                               \
	X(clang_getCursorPrettyPrinted)                                                    \
	X(clang_getCursorPrintingPolicy)                                                   \
	X(clang_PrintingPolicy_dispose)                                                    \
	X(clang_getTypedefDeclUnderlyingType)                                              \
	X(clang_getCursorLocation)                                                         \
	X(clang_getCursorExtent)                                                           \
	X(clang_getRangeStart)                                                             \
	X(clang_getRangeEnd)                                                               \
	X(clang_tokenize)                                                                  \
	X(clang_disposeTokens)                                                             \
	X(clang_getTokenKind)                                                              \
	X(clang_getTokenSpelling)                                                          \
	X(clang_getTokenExtent)                                                            \
	X(clang_getCString)                                                                \
	X(clang_disposeString)                                                             \
	X(clang_getTranslationUnitCursor)                                                  \
	X(clang_visitChildren)                                                             \
	X(clang_getCursorKind)                                                             \
	X(clang_isCursorDefinition)                                                        \
	X(clang_Location_isFromMainFile)                                                   \
	X(clang_equalLocations)                                                            \
	X(clang_getCursorSpelling)                                                         \
	X(clang_Cursor_getNumArguments)                                                    \
	X(clang_Cursor_getArgument)                                                        \
	X(clang_getCursorType)                                                             \
	X(clang_getTypeSpelling)                                                           \
	X(clang_getCanonicalType)                                                          \
	X(clang_getPointeeType)                                                            \
	X(clang_getNumElements)                                                            \
	X(clang_getElementType)                                                            \
	X(clang_getArrayElementType)                                                       \
	X(clang_getArraySize)                                                              \
	X(clang_Type_getSizeOf)                                                            \
	X(clang_Type_getAlignOf)                                                           \
	X(clang_Type_getOffsetOf)                                                          \
	X(clang_Type_visitFields)                                                          \
	X(clang_getTypeDeclaration)                                                        \
	X(clang_Cursor_isBitField)                                                         \
	X(clang_Cursor_Evaluate)                                                           \
	X(clang_EvalResult_getKind)                                                        \
	X(clang_EvalResult_getAsLongLong)                                                  \
	X(clang_EvalResult_dispose)                                                        \
	X(clang_getCursorReferenced)                                                       \
	X(clang_equalCursors)

#define CLANG_API_DECLARE(f) __typeof__(f) *f;
struct clang_functions {
	CLANG_API(CLANG_API_DECLARE)
};
#undef CLANG_API_DECLARE

/* Filled by clang_api_load. */
extern struct clang_functions clang_api;

/* Whether the libclang configure found can be read. */
bool clang_api_available(void);
/* Loads libclang into clang_api, in the reading child; false with *why (the caller
 * frees it) where it cannot. */
bool clang_api_load(char **why);

/* In the child: parses the file at `path` as OpenCL C as a SPIR device lays it out, with
 * the builtins declared and the program's build `options` after ours (so its -cl-std=
 * wins). Returns the translation unit, or NULL with clang's errors at their lines in
 * diags. */
CXTranslationUnit clang_api_parse(CXIndex index, const char *path, const char *options,
				  struct diag_list *diags);
/* In the child: reads the file at `path` into *src (*len bytes; the caller frees it) and
 * parses it as clang_api_parse does. NULL with why in diags where either fails (*src is
 * then NULL where the file could not be read). */
CXTranslationUnit clang_api_read(CXIndex index, const char *path, const char *options, char **src,
				 size_t *len, struct diag_list *diags);
/* A libclang string as one of ours, the libclang one disposed of. */
char *clang_api_text(CXString s);

/* Runs job(ctx, out) in a child process that has loaded libclang, and returns what the
 * job wrote into `out`: lines of tab-separated fields, "E\tLINE\tCOL\tMESSAGE" for an
 * error (the child writes one when libclang cannot be loaded). *ok is false where the
 * child did not end well; then *why (the caller frees it) says how. */
char *clang_api_in_child(void (*job)(void *ctx, struct strbuf *out), void *ctx, bool *ok,
			 char **why);

#endif
