# clh_find_oclgrind.m4 - finds Oclgrind's ICD library, which the oclgrind backend loads.

# CLH_FIND_OCLGRIND
# -----------------
# Looks for liboclgrind-rt-icd.so in the folder --with-oclgrind=DIR names, or else where
# Debian's package oclgrind and a source build put it, and defines CLH_OCLGRIND_ICD to its
# path ("" when it is not found). Oclgrind is not required: without it the oclgrind
# backend reports itself unavailable and the real devices still run. A folder given on
# the command line must hold the library, since the user asked for it.
AC_DEFUN([CLH_FIND_OCLGRIND], [
  # --with-oclgrind=DIR
  AC_ARG_WITH([oclgrind],
    [AS_HELP_STRING([--with-oclgrind=DIR],
      [the folder holding Oclgrind's liboclgrind-rt-icd.so (default: search /usr/lib/oclgrind, /usr/local/lib/oclgrind and the library folders); --without-oclgrind leaves the backend unavailable])],
    [], [with_oclgrind=check])
  clh_oclgrind_icd=
  AS_CASE([$with_oclgrind],
    [no], [],
    [yes|check],
      [for clh_dir in /usr/lib/oclgrind /usr/local/lib/oclgrind /usr/lib/*/oclgrind \
                      /usr/lib64/oclgrind /usr/local/lib; do
         AS_IF([test -r "$clh_dir/liboclgrind-rt-icd.so"],
           [clh_oclgrind_icd="$clh_dir/liboclgrind-rt-icd.so"; break])
       done
       AS_IF([test -z "$clh_oclgrind_icd" && test "x$with_oclgrind" = xyes],
         [AC_MSG_ERROR([--with-oclgrind: liboclgrind-rt-icd.so not found; install the Debian package oclgrind or give its folder, --with-oclgrind=DIR])])],
    [AS_IF([test -r "$with_oclgrind/liboclgrind-rt-icd.so"],
       [clh_oclgrind_icd="$with_oclgrind/liboclgrind-rt-icd.so"],
       [AC_MSG_ERROR([--with-oclgrind=$with_oclgrind: no readable liboclgrind-rt-icd.so in that folder])])])
  AC_MSG_CHECKING([for Oclgrind's ICD library])
  AC_MSG_RESULT([${clh_oclgrind_icd:-no (the oclgrind backend will report itself unavailable)}])
  AC_DEFINE_UNQUOTED([CLH_OCLGRIND_ICD], ["$clh_oclgrind_icd"],
    [Oclgrind's ICD library, loaded by the oclgrind backend; empty when configure found none.])
])
