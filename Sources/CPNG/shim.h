#ifndef LIVEGRID_CPNG_SHIM_H
#define LIVEGRID_CPNG_SHIM_H
// Only libpng's simplified API (png_image_*) is used: it reports errors in the struct instead of
// longjmp-ing, so Swift can call it safely. tEXt chunks are written and read in Swift.
#include <png.h>

static inline png_uint_32 lg_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 lg_png_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline png_uint_32 lg_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 lg_png_image_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }
#endif
