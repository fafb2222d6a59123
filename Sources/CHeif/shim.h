#ifndef LIVEGRID_CHEIF_SHIM_H
#define LIVEGRID_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
