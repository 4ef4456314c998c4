/* shadowrt.h - the OpenCL C text of racecheck's device runtime (shadowrt.c). It expects
 * __RC_MAXG and __RC_MAXL (the most buffers and local arrays a kernel of the program
 * has), __RC_SHIFT (the granule's log2, a constant the compiler folds), __RC_SINK, __RC_RECORD and the __RC_CTL_ words of enum shadow_ctl defined before
 * it. */
#ifndef CLH_SHADOWRT_H
#define CLH_SHADOWRT_H

extern const char shadow_runtime[];

#endif
