/* rawlaunch.h - what the capture layer (layer.c, inside the application) leaves in its
 * folder for clharness capture to turn into cases. The layer writes, under DIR/raw/:
 *
 *   programs/P.cl        the source of program P, as the application gave it
 *   programs/P.options   the options its last build was given ("" for none)
 *   launches/NNNNNN/     one launch: argK.before and argK.after (a buffer's bytes just
 *                        before and just after it, after RAWLAUNCH_BYTES_AT bytes kept
 *                        free) and, written last, under its own name only once whole,
 *                        `launch`, the manifest
 *   notes                a line for each launch or argument that was not captured, and why
 *
 * The manifest is text, a line a fact, fields separated by single spaces:
 *
 *   clharness-capture 1
 *   program P
 *   kernel NAME
 *   global G0 [G1 [G2]]
 *   local L0 [L1 [L2]]          or "local none": the application let the driver choose
 *   offset O0 [O1 [O2]]
 *   arg K buffer NAME TYPE SPACE MEM SIZE PARENT ORIGIN WRITABLE
 *   arg K null NAME TYPE SPACE
 *   arg K local NAME TYPE BYTES
 *   arg K value NAME TYPE HEX
 *
 * TYPE is the driver's spelling of the parameter's type with spaces as '~' ("unsigned~int*"
 * is never written: drivers say "uint*"); SPACE is global or constant; MEM is the memory
 * object's handle, so one buffer passed twice shows as one; PARENT and ORIGIN place a
 * sub-buffer in its buffer (0 0 for none); WRITABLE is 1 where the kernel may write it
 * (argK.after exists then); HEX is a value's bytes. */
#ifndef CLH_RAWLAUNCH_H
#define CLH_RAWLAUNCH_H

#define RAWLAUNCH_MAGIC "clharness-capture 1"

/* The environment the layer reads its settings from; clharness capture sets them. */
#define RAWLAUNCH_ENV_DIR "CLHARNESS_CAPTURE_DIR"		/* DIR: where raw/ goes */
#define RAWLAUNCH_ENV_KERNELS "CLHARNESS_CAPTURE_KERNELS"	/* NAME,NAME: only these */
#define RAWLAUNCH_ENV_MAX_LAUNCHES "CLHARNESS_CAPTURE_MAX_LAUNCHES" /* a kernel's */
#define RAWLAUNCH_ENV_MAX_BYTES "CLHARNESS_CAPTURE_MAX_BYTES"	/* all buffers' bytes */

/* Where a buffer's bytes start in argK.before and argK.after: the room before them is
 * where clharness capture writes a .npy header and links the file into the case's data,
 * so that a large buffer's bytes are written once. 128 holds the header of any 1-D or
 * 2-D array a case takes; the layer leaves it zero. */
#define RAWLAUNCH_BYTES_AT 128

/* Distinct launches of one kernel captured when no limit is given. */
#define RAWLAUNCH_DEFAULT_LAUNCHES 3
/* Bytes of buffer contents written when no limit is given: 256 MiB. */
#define RAWLAUNCH_DEFAULT_BYTES (256ull << 20)

#endif
