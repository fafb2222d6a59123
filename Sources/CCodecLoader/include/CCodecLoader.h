#ifndef LIVEGRID_CCODECLOADER_H
#define LIVEGRID_CCODECLOADER_H
#include <stddef.h>
#include <stdint.h>

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
// libswresample, with the libav* libraries it needs (the sound of a movie).
int lg_codecs_load_swresample(char *message, size_t capacity);

// PulseAudio's simple API, opened on first use (never a link-time dependency: no package is needed to build or
// to run silently). lg_pulse_load returns 0 when libpulse-simple.so.0 is there. A connection is an opaque pointer;
// the calls return < 0 (or NULL) on failure with PulseAudio's error code in `error` (lg_pulse_strerror names it).
// s16le interleaved at `rate` with `channels`; `target_bytes` is the server-side buffer asked for.
int lg_pulse_load(char *message, size_t capacity);
void *lg_pulse_connect(const char *application, const char *stream_name, unsigned rate, unsigned channels,
                       unsigned target_bytes, int *error);
int lg_pulse_write(void *connection, const void *data, size_t bytes, int *error);
int64_t lg_pulse_latency_usec(void *connection, int *error);
int lg_pulse_flush(void *connection, int *error);
int lg_pulse_drain(void *connection, int *error);
void lg_pulse_free(void *connection);
const char *lg_pulse_strerror(int error);

#endif
