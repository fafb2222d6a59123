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
#include <libavutil/opt.h>
#include <libavutil/mathematics.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <errno.h>

// AVERROR(e) and friends are macros: Swift cannot see them.
static inline int lg_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int lg_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t lg_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int lg_seek_size(void) { return AVSEEK_SIZE; }
static inline int lg_averror_from_errno(int e) { return AVERROR(e); }
// AVIO_FLAG_WRITE and AVFMT_GLOBALHEADER/AV_CODEC_FLAG_GLOBAL_HEADER are plain macros Swift imports; these are not.
static inline int lg_av_buffersrc_flag_keep_ref(void) { return AV_BUFFERSRC_FLAG_KEEP_REF; }
// A decoded audio frame's channel layout, or the default one for its channel count when the container left the
// order unspecified (swresample wants a real layout). 0 on success.
static inline int lg_audio_input_layout(const AVFrame *frame, AVChannelLayout *layout) {
    if (frame->ch_layout.order != AV_CHANNEL_ORDER_UNSPEC && av_channel_layout_check(&frame->ch_layout))
        return av_channel_layout_copy(layout, &frame->ch_layout);
    if (frame->ch_layout.nb_channels <= 0) return -1;
    av_channel_layout_default(layout, frame->ch_layout.nb_channels);
    return 0;
}
#endif
