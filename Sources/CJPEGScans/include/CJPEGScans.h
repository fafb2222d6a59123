#ifndef LIVEGRID_CJPEGSCANS_H
#define LIVEGRID_CJPEGSCANS_H

#include <stddef.h>

/// What `lg_jpeg_decode_progressive_eighth` did.
typedef struct {
    /// Scans read before the picture was drawn (the file may have more).
    int scans_read;
    /// 1 when the decode stopped before the end of the file (the scans left add nothing at 1/8 scale).
    int stopped_early;
    /// libjpeg's warnings (corrupt data, file cut short).
    int warnings;
    /// libjpeg's message when the decode failed.
    char message[200];
} lg_jpeg_outcome;

enum {
    LG_JPEG_DECODED = 0,
    /// Not a progressive JPEG, a colour space without an RGBA conversion, or another output size.
    LG_JPEG_NOT_APPLICABLE = 1,
    /// A warning was raised: the caller decodes again the ordinary way (which reports the damage).
    LG_JPEG_DAMAGED = 2,
    LG_JPEG_FAILED = 3,
};

/// Decodes a progressive JPEG at 1/8 scale into `rgba` (`width` x `height` x 4 bytes, which must be the 1/8
/// size libjpeg computes), reading scans only until every component's DC coefficients are known to within
/// their last bit: a 1/8-scale IDCT uses the DC coefficient alone.
int lg_jpeg_decode_progressive_eighth(const unsigned char *data, size_t size, unsigned char *rgba,
                                      int width, int height, lg_jpeg_outcome *outcome);

#endif
