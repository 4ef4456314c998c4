# clh_find_libclang.m4 - finds libclang's C API for reading kernel sources.
#
# CLH_FIND_LIBCLANG
# -----------------
# Looks for libclang (Debian package libclang-dev) through llvm-config, newest LLVM
# first, or in the LLVM folder --with-libclang=DIR names. Sets CLANG_CFLAGS (its headers:
# the harness is not linked with it, since its LLVM would clash with the one PoCL and
# Oclgrind load; a child process loads it with dlopen), defines HAVE_LIBCLANG,
# CLH_LIBCLANG (the library's real file) and CLH_CLANG_INCLUDE (the folder holding
# clang's opencl-c-base.h, which an OpenCL C parse needs). --without-libclang builds
# without it; a machine without it fails configure unless told so, since check and hunt
# then read fewer kernel signatures.
AC_DEFUN([CLH_FIND_LIBCLANG], [
  # --with-libclang=DIR
  AC_ARG_WITH([libclang],
    [AS_HELP_STRING([--with-libclang=DIR],
      [the LLVM folder (holding bin/llvm-config) whose libclang reads kernel sources (default: the newest llvm-config found); --without-libclang builds without it])],
    [], [with_libclang=check])
  CLANG_CFLAGS=
  CLANG_LIBS=
  clh_llvm_config=
  AS_CASE([$with_libclang],
    [no], [],
    [yes|check], [
      for clh_v in 19 18 17 16 15 14 13; do
        AS_IF([test -x "/usr/lib/llvm-$clh_v/bin/llvm-config"],
          [clh_llvm_config="/usr/lib/llvm-$clh_v/bin/llvm-config"; break])
      done
      AS_IF([test -z "$clh_llvm_config"], [AC_PATH_PROG([clh_llvm_config], [llvm-config])])],
    [clh_llvm_config="$with_libclang/bin/llvm-config"])
  AS_IF([test "x$with_libclang" != xno], [
    AS_IF([test -z "$clh_llvm_config" || test ! -x "$clh_llvm_config"],
      [AC_MSG_ERROR([libclang not found: install the Debian package libclang-dev (apt-get install libclang-dev), give its LLVM folder with --with-libclang=DIR, or build without it, --without-libclang])])
    clh_llvm_libdir=`"$clh_llvm_config" --libdir`
    clh_llvm_version=`"$clh_llvm_config" --version | sed 's/[[^0-9.]].*//'`
    CLANG_CFLAGS="-I`"$clh_llvm_config" --includedir`"
    CLANG_LIBS="-L$clh_llvm_libdir -lclang"
    clh_clang_include=
    for clh_dir in "$clh_llvm_libdir/clang/$clh_llvm_version/include" \
                   "$clh_llvm_libdir"/clang/*/include; do
      AS_IF([test -r "$clh_dir/opencl-c-base.h"], [clh_clang_include=$clh_dir; break])
    done
    AS_IF([test -z "$clh_clang_include"],
      [AC_MSG_ERROR([clang's opencl-c-base.h not found under $clh_llvm_libdir/clang: install the Debian package libclang-common-$clh_llvm_version-dev])])
    saved_CPPFLAGS=$CPPFLAGS
    saved_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $CLANG_CFLAGS"
    LIBS="$CLANG_LIBS $LIBS"
    AC_CHECK_HEADER([clang-c/Index.h], [],
      [AC_MSG_ERROR([clang-c/Index.h not found beside $clh_llvm_config: install libclang-dev])])
    AC_MSG_CHECKING([whether libclang links])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <clang-c/Index.h>]],
                                    [[clang_disposeIndex(clang_createIndex(0, 0));]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([libclang does not link with $CLANG_LIBS])])
    CPPFLAGS=$saved_CPPFLAGS
    LIBS=$saved_LIBS
    clh_libclang=`readlink -f "$clh_llvm_libdir/libclang.so"`
    AS_IF([test ! -r "$clh_libclang"],
      [AC_MSG_ERROR([$clh_llvm_libdir/libclang.so leads to no readable library])])
    AC_DEFINE([HAVE_LIBCLANG], [1], [Whether libclang reads kernel sources.])
    AC_DEFINE_UNQUOTED([CLH_LIBCLANG], ["$clh_libclang"],
      [The libclang library a child process loads to read kernel sources.])
    AC_DEFINE_UNQUOTED([CLH_CLANG_INCLUDE], ["$clh_clang_include"],
      [The folder of clang's OpenCL C headers (opencl-c-base.h).])
  ])
  AC_MSG_NOTICE([libclang: ${clh_llvm_config:-no (check reads struct definitions as text)}])
  AC_SUBST([CLANG_CFLAGS])
])
