#ifndef LIVEGRID_CTURBOJPEG_SHIM_H
#define LIVEGRID_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
