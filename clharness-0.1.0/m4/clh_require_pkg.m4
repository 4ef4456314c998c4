# clh_require_pkg.m4 - the project's own macros for finding required libraries.

# CLH_REQUIRE_PKG(VARIABLE-PREFIX, PKG-CONFIG-MODULES, DEBIAN-PACKAGE)
# ---------------------------------------------------------------
# Like PKG_CHECK_MODULES, but a missing library stops configure with the Debian package
# that provides it, since a user on a fresh machine needs the package name, not the
# pkg-config module name.
AC_DEFUN([CLH_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found through pkg-config: install the Debian package $3 (apt-get install $3), or set PKG_CONFIG_PATH to where its .pc file is])])
])
