/* icd.h - the ICD loader's vendor files and the driver libraries they name, read as the
 * loader reads them ($OCL_ICD_VENDORS, else /etc/OpenCL/vendors; a file a driver, its
 * first line the library), for what the harness must know of the drivers before any of
 * them is loaded. */
#ifndef CLH_ICD_H
#define CLH_ICD_H

/* The folder the loader reads vendor files from. */
const char *icd_vendors_dir(void);

/* Calls each(library, ctx) for each library $OCL_ICD_FILENAMES names and the library
 * every vendor file names, as written there: a path, or a name the dynamic linker looks
 * for. */
void icd_each_library(void (*each)(const char *library, void *ctx), void *ctx);

#endif
