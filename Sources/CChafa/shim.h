#ifndef LIVEGRID_CCHAFA_SHIM_H
#define LIVEGRID_CCHAFA_SHIM_H
#include <chafa.h>
#endif
