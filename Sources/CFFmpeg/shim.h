#ifndef LIVEGRID_CFFMPEG_SHIM_H
#define LIVEGRID_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <errno.h>

// AVERROR(e) and friends are macros: Swift cannot see them.
static inline int lg_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int lg_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t lg_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int lg_seek_size(void) { return AVSEEK_SIZE; }
static inline int lg_averror_from_errno(int e) { return AVERROR(e); }
#endif
