#ifndef NARRATE_CPOPPLER_SHIM_H
#define NARRATE_CPOPPLER_SHIM_H
/* poppler-glib: PDF documents, their pages' text and its layout. */
#include <poppler.h>
#endif
