/* devname.h - stable short device names (pocl-cpu, nvidia-h100) and --device matching. */
#ifndef CLH_DEVNAME_H
#define CLH_DEVNAME_H

#include <stdbool.h>

/* Derives a short name from the platform's vendor and name, the device's name and its
 * type word ("cpu", "gpu", "accelerator"): the platform's short word, then "cpu" for CPU
 * devices, else the first word of the device name holding a digit (the model number).
 * Caller frees. */
char *devname_short(const char *platform_vendor, const char *platform_name, const char *device_name,
		    const char *type);

/* Whether `pattern` selects a device: its exact short name, its platform word (the part
 * before the first '-'), its type word, or "all". */
bool devname_matches(const char *pattern, const char *short_name, const char *type);

#endif
