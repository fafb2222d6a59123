#ifndef LIVEGRID_CCODECLOADER_H
#define LIVEGRID_CCODECLOADER_H
#include <stddef.h>

// libav* and libheif are loaded on first use (dlopen), not when livegrid starts: together with what they
// pull in (libjxl's Highway timer calibration, libde265's tables, ~150 libraries) they cost ~36 ms of
// start-up on every run, which a grid painted from cached thumbnails never needs.
//
// Call a loader before the first libav/libheif call. It returns 0 when the libraries are there, or -1
// and a message (for example a missing package) in `message`. Later calls are cheap.
int lg_codecs_load_libav(char *message, size_t capacity);
int lg_codecs_load_heif(char *message, size_t capacity);
// libavfilter, with the libav* libraries it needs (the studio: edit and export effects).
int lg_codecs_load_avfilter(char *message, size_t capacity);

#endif
