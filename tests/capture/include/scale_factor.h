/* A header race_host's "include" mode builds with -I, as an application keeps its
 * kernels' headers: it includes one of its own from a folder beside it. */
#include "sub/base.h"
#define SCALE_FACTOR (BASE * 3)
