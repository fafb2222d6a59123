// Definitions of the libav*/libheif functions livegrid calls, each forwarding to the real function found
// with dlsym in the library opened on first use (the "implib" technique). The Swift code keeps calling
// avcodec_send_packet() and friends as declared in the system headers; only the binding is deferred.
// Adding a call to a new libav/libheif function means adding one line below (the link fails otherwise).
#define _GNU_SOURCE
#include "CCodecLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/dict.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libheif/heif.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>

#define LG_STR2(x) #x
#define LG_STR(x) LG_STR2(x)

enum lg_library { LG_AVUTIL, LG_SWSCALE, LG_AVCODEC, LG_AVFORMAT, LG_HEIF, LG_AVFILTER, LG_SWRESAMPLE, LG_PULSE_SIMPLE,
                  LG_LIBRARY_COUNT };

// Sonames from the headers we compiled against, so a major-version mismatch cannot be loaded by accident.
static const char *const lg_sonames[LG_LIBRARY_COUNT] = {
    "libavutil.so." LG_STR(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." LG_STR(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." LG_STR(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." LG_STR(LIBAVFORMAT_VERSION_MAJOR),
    "libheif.so.1",
    "libavfilter.so." LG_STR(LIBAVFILTER_VERSION_MAJOR),
    "libswresample.so." LG_STR(LIBSWRESAMPLE_VERSION_MAJOR),
    // PulseAudio's simple API (Debian's libpulse0, a Recommends of the .deb): also what PipeWire's pulse server speaks.
    "libpulse-simple.so.0",
};

static void *lg_handles[LG_LIBRARY_COUNT];
static char lg_errors[LG_LIBRARY_COUNT][256];
static pthread_mutex_t lg_lock = PTHREAD_MUTEX_INITIALIZER;

static void *lg_open(enum lg_library library) {
    void *handle = __atomic_load_n(&lg_handles[library], __ATOMIC_ACQUIRE);
    if (handle) return handle;
    pthread_mutex_lock(&lg_lock);
    handle = lg_handles[library];
    if (!handle) {
        handle = dlopen(lg_sonames[library], RTLD_NOW | RTLD_LOCAL);
        if (handle) {
            __atomic_store_n(&lg_handles[library], handle, __ATOMIC_RELEASE);
        } else {
            const char *reason = dlerror();
            snprintf(lg_errors[library], sizeof lg_errors[library], "cannot load %s: %s", lg_sonames[library],
                     reason ? reason : "unknown error");
        }
    }
    pthread_mutex_unlock(&lg_lock);
    return handle;
}

static int lg_load(const enum lg_library *libraries, size_t count, char *message, size_t capacity) {
    for (size_t i = 0; i < count; i++) {
        if (!lg_open(libraries[i])) {
            if (message && capacity > 0) {
                pthread_mutex_lock(&lg_lock);
                snprintf(message, capacity, "%s", lg_errors[libraries[i]]);
                pthread_mutex_unlock(&lg_lock);
            }
            return -1;
        }
    }
    return 0;
}

int lg_codecs_load_libav(char *message, size_t capacity) {
    static const enum lg_library libav[] = { LG_AVUTIL, LG_SWSCALE, LG_AVCODEC, LG_AVFORMAT };
    return lg_load(libav, sizeof libav / sizeof libav[0], message, capacity);
}

int lg_codecs_load_heif(char *message, size_t capacity) {
    static const enum lg_library heif[] = { LG_HEIF };
    return lg_load(heif, 1, message, capacity);
}

// libavfilter only for the studio (edit, export --as loop/bounce/gif/long-exposure): browsing never opens it.
int lg_codecs_load_avfilter(char *message, size_t capacity) {
    static const enum lg_library avfilter[] = { LG_AVUTIL, LG_SWSCALE, LG_AVCODEC, LG_AVFORMAT, LG_AVFILTER };
    return lg_load(avfilter, sizeof avfilter / sizeof avfilter[0], message, capacity);
}

// libswresample for the sound of a movie (with the libav* libraries it needs).
int lg_codecs_load_swresample(char *message, size_t capacity) {
    static const enum lg_library audio[] = { LG_AVUTIL, LG_AVCODEC, LG_AVFORMAT, LG_SWRESAMPLE };
    return lg_load(audio, sizeof audio / sizeof audio[0], message, capacity);
}

// Reached only when a caller skipped lg_codecs_load_*: there is no error value to return from an
// arbitrary libav function, so say clearly what is missing and stop.
static void *lg_symbol(enum lg_library library, const char *name) {
    void *handle = lg_open(library);
    void *symbol = handle ? dlsym(handle, name) : NULL;
    if (!symbol) {
        fprintf(stderr, "livegrid: %s (needed for %s); install the package that provides it\n",
                handle ? "symbol missing" : lg_errors[library], name);
        abort();
    }
    return symbol;
}

// Declares `fn`, the real `name` of type `ret (*) params`, resolved once per function (atomically cached).
#define LG_RESOLVE(library, ret, name, params)                                          \
    typedef ret (*lg_fn) params;                                                        \
    static lg_fn cached;                                                                \
    lg_fn fn = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                              \
    if (!fn) {                                                                          \
        fn = (lg_fn)lg_symbol(library, #name);                                          \
        __atomic_store_n(&cached, fn, __ATOMIC_RELEASE);                                \
    }

#define LG_FORWARD(library, ret, name, params, args)                                   \
    ret name params {                                                                   \
        LG_RESOLVE(library, ret, name, params)                                          \
        return fn args;                                                                 \
    }

#define LG_FORWARD_VOID(library, name, params, args)                                   \
    void name params {                                                                  \
        LG_RESOLVE(library, void, name, params)                                         \
        fn args;                                                                        \
    }

// MARK: libavutil
LG_FORWARD(LG_AVUTIL, double, av_display_rotation_get, (const int32_t matrix[9]), (matrix))
LG_FORWARD_VOID(LG_AVUTIL, av_display_rotation_set, (int32_t matrix[9], double angle), (matrix, angle))
LG_FORWARD(LG_AVUTIL, AVFrame *, av_frame_alloc, (void), ())
LG_FORWARD_VOID(LG_AVUTIL, av_frame_free, (AVFrame **frame), (frame))
LG_FORWARD(LG_AVUTIL, int, av_frame_ref, (AVFrame *dst, const AVFrame *src), (dst, src))
LG_FORWARD_VOID(LG_AVUTIL, av_frame_unref, (AVFrame *frame), (frame))
LG_FORWARD_VOID(LG_AVUTIL, av_free, (void *ptr), (ptr))
LG_FORWARD_VOID(LG_AVUTIL, av_freep, (void *ptr), (ptr))
LG_FORWARD(LG_AVUTIL, void *, av_malloc, (size_t size), (size))
LG_FORWARD(LG_AVUTIL, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt))
LG_FORWARD_VOID(LG_AVUTIL, av_log_set_level, (int level), (level))
LG_FORWARD(LG_AVUTIL, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))

LG_FORWARD(LG_AVUTIL, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align))
LG_FORWARD(LG_AVUTIL, AVFrame *, av_frame_clone, (const AVFrame *src), (src))
LG_FORWARD(LG_AVUTIL, int, av_opt_set, (void *obj, const char *name, const char *val, int search_flags),
           (obj, name, val, search_flags))
LG_FORWARD(LG_AVUTIL, int, av_opt_set_bin, (void *obj, const char *name, const uint8_t *val, int size, int search_flags),
           (obj, name, val, size, search_flags))
LG_FORWARD(LG_AVUTIL, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags),
           (pm, key, value, flags))
LG_FORWARD_VOID(LG_AVUTIL, av_dict_free, (AVDictionary **m), (m))
LG_FORWARD(LG_AVUTIL, int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))
LG_FORWARD(LG_AVUTIL, char *, av_strdup, (const char *s), (s))

// MARK: libswscale
LG_FORWARD_VOID(LG_SWSCALE, sws_freeContext, (struct SwsContext *context), (context))
LG_FORWARD(LG_SWSCALE, struct SwsContext *, sws_getCachedContext,
           (struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH,
            enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),
           (context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))
LG_FORWARD(LG_SWSCALE, const int *, sws_getCoefficients, (int colorspace), (colorspace))
LG_FORWARD(LG_SWSCALE, int, sws_isSupportedInput, (enum AVPixelFormat pix_fmt), (pix_fmt))
LG_FORWARD(LG_SWSCALE, int, sws_scale,
           (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY,
            int srcSliceH, uint8_t *const dst[], const int dstStride[]),
           (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))
LG_FORWARD(LG_SWSCALE, int, sws_setColorspaceDetails,
           (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange,
            int brightness, int contrast, int saturation),
           (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))

// MARK: libavcodec
LG_FORWARD(LG_AVCODEC, AVPacket *, av_packet_alloc, (void), ())
LG_FORWARD_VOID(LG_AVCODEC, av_packet_free, (AVPacket **pkt), (pkt))
LG_FORWARD_VOID(LG_AVCODEC, av_packet_unref, (AVPacket *pkt), (pkt))
LG_FORWARD(LG_AVCODEC, int, av_new_packet, (AVPacket *pkt, int size), (pkt, size))
LG_FORWARD(LG_AVCODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
LG_FORWARD(LG_AVCODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
LG_FORWARD_VOID(LG_AVCODEC, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx))
LG_FORWARD_VOID(LG_AVCODEC, avcodec_free_context, (AVCodecContext **avctx), (avctx))
LG_FORWARD(LG_AVCODEC, const char *, avcodec_get_name, (enum AVCodecID id), (id))
LG_FORWARD(LG_AVCODEC, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),
           (avctx, codec, options))
LG_FORWARD(LG_AVCODEC, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par),
           (codec, par))
LG_FORWARD(LG_AVCODEC, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame))
LG_FORWARD(LG_AVCODEC, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt))
LG_FORWARD(LG_AVCODEC, unsigned, avcodec_version, (void), ())
LG_FORWARD(LG_AVCODEC, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
LG_FORWARD(LG_AVCODEC, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame))
LG_FORWARD(LG_AVCODEC, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt))
LG_FORWARD(LG_AVCODEC, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec),
           (par, codec))
LG_FORWARD(LG_AVCODEC, int, avcodec_parameters_copy, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src))
LG_FORWARD_VOID(LG_AVCODEC, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst),
                (pkt, tb_src, tb_dst))

LG_FORWARD(LG_AVUTIL, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src))
LG_FORWARD_VOID(LG_AVUTIL, av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels))
LG_FORWARD_VOID(LG_AVUTIL, av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout))
LG_FORWARD(LG_AVUTIL, int, av_channel_layout_check, (const AVChannelLayout *channel_layout), (channel_layout))

// MARK: libswresample
LG_FORWARD(LG_SWRESAMPLE, int, swr_alloc_set_opts2,
           (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt,
            int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt,
            int in_sample_rate, int log_offset, void *log_ctx),
           (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset,
            log_ctx))
LG_FORWARD(LG_SWRESAMPLE, int, swr_init, (struct SwrContext *s), (s))
LG_FORWARD_VOID(LG_SWRESAMPLE, swr_free, (struct SwrContext **s), (s))
LG_FORWARD(LG_SWRESAMPLE, int, swr_convert,
           (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, int in_count),
           (s, out, out_count, in, in_count))
LG_FORWARD(LG_SWRESAMPLE, int, swr_get_out_samples, (struct SwrContext *s, int in_samples), (s, in_samples))

// MARK: libavformat
LG_FORWARD(LG_AVFORMAT, int, av_find_best_stream,
           (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
            const AVCodec **decoder_ret, int flags),
           (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))
LG_FORWARD(LG_AVFORMAT, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))
LG_FORWARD(LG_AVFORMAT, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
LG_FORWARD(LG_AVFORMAT, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags),
           (s, stream_index, timestamp, flags))
LG_FORWARD(LG_AVFORMAT, uint8_t *, av_stream_get_side_data,
           (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
LG_FORWARD(LG_AVFORMAT, AVFormatContext *, avformat_alloc_context, (void), ())
LG_FORWARD_VOID(LG_AVFORMAT, avformat_close_input, (AVFormatContext **s), (s))
LG_FORWARD(LG_AVFORMAT, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options))
LG_FORWARD(LG_AVFORMAT, int, avformat_open_input,
           (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
           (ps, url, fmt, options))
LG_FORWARD(LG_AVFORMAT, unsigned, avformat_version, (void), ())
LG_FORWARD(LG_AVFORMAT, AVIOContext *, avio_alloc_context,
           (unsigned char *buffer, int buffer_size, int write_flag, void *opaque,
            int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),
            int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),
            int64_t (*seek)(void *opaque, int64_t offset, int whence)),
           (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))
LG_FORWARD_VOID(LG_AVFORMAT, avio_context_free, (AVIOContext **s), (s))
LG_FORWARD(LG_AVFORMAT, int, avformat_alloc_output_context2,
           (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),
           (ctx, oformat, format_name, filename))
LG_FORWARD_VOID(LG_AVFORMAT, avformat_free_context, (AVFormatContext *s), (s))
LG_FORWARD(LG_AVFORMAT, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c))
LG_FORWARD(LG_AVFORMAT, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags))
LG_FORWARD(LG_AVFORMAT, int, avio_closep, (AVIOContext **s), (s))
LG_FORWARD(LG_AVFORMAT, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options))
LG_FORWARD(LG_AVFORMAT, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
LG_FORWARD(LG_AVFORMAT, int, av_write_trailer, (AVFormatContext *s), (s))

// MARK: libavfilter
LG_FORWARD(LG_AVFILTER, AVFilterGraph *, avfilter_graph_alloc, (void), ())
LG_FORWARD_VOID(LG_AVFILTER, avfilter_graph_free, (AVFilterGraph **graph), (graph))
LG_FORWARD(LG_AVFILTER, const AVFilter *, avfilter_get_by_name, (const char *name), (name))
LG_FORWARD(LG_AVFILTER, int, avfilter_graph_create_filter,
           (AVFilterContext **filt_ctx, const AVFilter *filt, const char *name, const char *args, void *opaque,
            AVFilterGraph *graph_ctx),
           (filt_ctx, filt, name, args, opaque, graph_ctx))
LG_FORWARD(LG_AVFILTER, int, avfilter_graph_parse_ptr,
           (AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log_ctx),
           (graph, filters, inputs, outputs, log_ctx))
LG_FORWARD(LG_AVFILTER, AVFilterInOut *, avfilter_inout_alloc, (void), ())
LG_FORWARD_VOID(LG_AVFILTER, avfilter_inout_free, (AVFilterInOut **inout), (inout))
LG_FORWARD(LG_AVFILTER, int, avfilter_graph_config, (AVFilterGraph *graphctx, void *log_ctx), (graphctx, log_ctx))
LG_FORWARD(LG_AVFILTER, int, av_buffersrc_add_frame_flags, (AVFilterContext *ctx, AVFrame *frame, int flags),
           (ctx, frame, flags))
LG_FORWARD(LG_AVFILTER, int, av_buffersink_get_frame, (AVFilterContext *ctx, AVFrame *frame), (ctx, frame))
LG_FORWARD(LG_AVFILTER, AVRational, av_buffersink_get_time_base, (const AVFilterContext *ctx), (ctx))
LG_FORWARD(LG_AVFILTER, AVRational, av_buffersink_get_frame_rate, (const AVFilterContext *ctx), (ctx))
LG_FORWARD(LG_AVFILTER, unsigned, avfilter_version, (void), ())

// MARK: libheif
LG_FORWARD(LG_HEIF, struct heif_context *, heif_context_alloc, (void), ())
LG_FORWARD_VOID(LG_HEIF, heif_context_free, (struct heif_context *context), (context))
LG_FORWARD(LG_HEIF, struct heif_error, heif_context_get_primary_image_handle,
           (struct heif_context *ctx, struct heif_image_handle **handle), (ctx, handle))
LG_FORWARD(LG_HEIF, struct heif_error, heif_context_read_from_memory_without_copy,
           (struct heif_context *ctx, const void *mem, size_t size, const struct heif_reading_options *options),
           (ctx, mem, size, options))
LG_FORWARD(LG_HEIF, struct heif_error, heif_decode_image,
           (const struct heif_image_handle *in_handle, struct heif_image **out_img, enum heif_colorspace colorspace,
            enum heif_chroma chroma, const struct heif_decoding_options *options),
           (in_handle, out_img, colorspace, chroma, options))
LG_FORWARD(LG_HEIF, const char *, heif_get_version, (void), ())
LG_FORWARD(LG_HEIF, int, heif_image_get_height, (const struct heif_image *image, enum heif_channel channel),
           (image, channel))
LG_FORWARD(LG_HEIF, int, heif_image_get_width, (const struct heif_image *image, enum heif_channel channel),
           (image, channel))
LG_FORWARD(LG_HEIF, const uint8_t *, heif_image_get_plane_readonly,
           (const struct heif_image *image, enum heif_channel channel, int *out_stride), (image, channel, out_stride))
LG_FORWARD(LG_HEIF, int, heif_image_handle_get_height, (const struct heif_image_handle *handle), (handle))
LG_FORWARD(LG_HEIF, int, heif_image_handle_get_width, (const struct heif_image_handle *handle), (handle))
LG_FORWARD(LG_HEIF, int, heif_image_handle_get_list_of_thumbnail_IDs,
           (const struct heif_image_handle *handle, heif_item_id *ids, int count), (handle, ids, count))
LG_FORWARD(LG_HEIF, int, heif_image_handle_get_number_of_thumbnails, (const struct heif_image_handle *handle),
           (handle))
LG_FORWARD(LG_HEIF, struct heif_error, heif_image_handle_get_thumbnail,
           (const struct heif_image_handle *main_image_handle, heif_item_id thumbnail_id,
            struct heif_image_handle **out_thumbnail_handle),
           (main_image_handle, thumbnail_id, out_thumbnail_handle))
LG_FORWARD_VOID(LG_HEIF, heif_image_handle_release, (const struct heif_image_handle *handle), (handle))
LG_FORWARD_VOID(LG_HEIF, heif_image_release, (const struct heif_image *image), (image))

// libheif writing (the studio's HEIC stills)
LG_FORWARD(LG_HEIF, int, heif_image_handle_get_number_of_metadata_blocks,
           (const struct heif_image_handle *handle, const char *type_filter), (handle, type_filter))
LG_FORWARD(LG_HEIF, int, heif_image_handle_get_list_of_metadata_block_IDs,
           (const struct heif_image_handle *handle, const char *type_filter, heif_item_id *ids, int count),
           (handle, type_filter, ids, count))
LG_FORWARD(LG_HEIF, size_t, heif_image_handle_get_metadata_size,
           (const struct heif_image_handle *handle, heif_item_id metadata_id), (handle, metadata_id))
LG_FORWARD(LG_HEIF, struct heif_error, heif_image_handle_get_metadata,
           (const struct heif_image_handle *handle, heif_item_id metadata_id, void *out_data),
           (handle, metadata_id, out_data))
LG_FORWARD(LG_HEIF, struct heif_error, heif_context_get_encoder_for_format,
           (struct heif_context *context, enum heif_compression_format format, struct heif_encoder **encoder),
           (context, format, encoder))
LG_FORWARD_VOID(LG_HEIF, heif_encoder_release, (struct heif_encoder *encoder), (encoder))
LG_FORWARD(LG_HEIF, struct heif_error, heif_encoder_set_lossy_quality, (struct heif_encoder *encoder, int quality),
           (encoder, quality))
LG_FORWARD(LG_HEIF, struct heif_error, heif_image_create,
           (int width, int height, enum heif_colorspace colorspace, enum heif_chroma chroma, struct heif_image **out_image),
           (width, height, colorspace, chroma, out_image))
LG_FORWARD(LG_HEIF, struct heif_error, heif_image_add_plane,
           (struct heif_image *image, enum heif_channel channel, int width, int height, int bit_depth),
           (image, channel, width, height, bit_depth))
LG_FORWARD(LG_HEIF, uint8_t *, heif_image_get_plane, (struct heif_image *image, enum heif_channel channel, int *out_stride),
           (image, channel, out_stride))
LG_FORWARD(LG_HEIF, struct heif_error, heif_context_encode_image,
           (struct heif_context *ctx, const struct heif_image *image, struct heif_encoder *encoder,
            const struct heif_encoding_options *options, struct heif_image_handle **out_image_handle),
           (ctx, image, encoder, options, out_image_handle))
LG_FORWARD(LG_HEIF, struct heif_error, heif_context_add_exif_metadata,
           (struct heif_context *ctx, const struct heif_image_handle *image_handle, const void *data, int size),
           (ctx, image_handle, data, size))
LG_FORWARD(LG_HEIF, struct heif_error, heif_context_write,
           (struct heif_context *ctx, struct heif_writer *writer, void *userdata), (ctx, writer, userdata))

// MARK: versions (for `livegrid version`)
LG_FORWARD(LG_AVUTIL, unsigned, avutil_version, (void), ())
LG_FORWARD(LG_SWSCALE, unsigned, swscale_version, (void), ())

// MARK: PulseAudio's simple API (libpulse-simple.so.0), declared here so that building needs no libpulse-dev.
// The layouts are PulseAudio's stable ABI (pulse/sample.h, pulse/def.h, pulse/simple.h).
typedef struct { int format; uint32_t rate; uint8_t channels; } lg_pa_sample_spec;
typedef struct { uint32_t maxlength, tlength, prebuf, minreq, fragsize; } lg_pa_buffer_attr;
enum { LG_PA_SAMPLE_S16LE = 3, LG_PA_STREAM_PLAYBACK = 1 };

int lg_pulse_load(char *message, size_t capacity) {
    static const enum lg_library pulse[] = { LG_PULSE_SIMPLE };
    return lg_load(pulse, 1, message, capacity);
}

// The pulse functions are looked up by hand rather than forwarded: a missing one is a silent playback, not an abort.
static void *lg_pulse_symbol(const char *name) {
    void *handle = lg_open(LG_PULSE_SIMPLE);
    return handle ? dlsym(handle, name) : NULL;
}

#define LG_PULSE(ret, name, params)                                                     \
    typedef ret (*lg_fn) params;                                                        \
    static lg_fn cached;                                                                \
    lg_fn fn = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                              \
    if (!fn) {                                                                          \
        fn = (lg_fn)lg_pulse_symbol(#name);                                             \
        __atomic_store_n(&cached, fn, __ATOMIC_RELEASE);                                \
    }

void *lg_pulse_connect(const char *application, const char *stream_name, unsigned rate, unsigned channels,
                       unsigned target_bytes, int *error) {
    LG_PULSE(void *, pa_simple_new, (const char *, const char *, int, const char *, const char *,
                                     const lg_pa_sample_spec *, const void *, const lg_pa_buffer_attr *, int *))
    if (!fn) { if (error) *error = -1; return NULL; }
    lg_pa_sample_spec spec = { LG_PA_SAMPLE_S16LE, rate, (uint8_t)channels };
    // A small target buffer: release stops the sound within it (flush), and the server asks for more in minreq.
    lg_pa_buffer_attr attr = { (uint32_t)-1, target_bytes, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1 };
    return fn(NULL, application, LG_PA_STREAM_PLAYBACK, NULL, stream_name, &spec, NULL, &attr, error);
}

int lg_pulse_write(void *connection, const void *data, size_t bytes, int *error) {
    LG_PULSE(int, pa_simple_write, (void *, const void *, size_t, int *))
    return fn ? fn(connection, data, bytes, error) : -1;
}

int64_t lg_pulse_latency_usec(void *connection, int *error) {
    LG_PULSE(uint64_t, pa_simple_get_latency, (void *, int *))
    if (!fn) return -1;
    int local = 0;
    uint64_t latency = fn(connection, &local);
    if (error) *error = local;
    return latency == (uint64_t)-1 ? -1 : (int64_t)latency;
}

int lg_pulse_flush(void *connection, int *error) {
    LG_PULSE(int, pa_simple_flush, (void *, int *))
    return fn ? fn(connection, error) : -1;
}

int lg_pulse_drain(void *connection, int *error) {
    LG_PULSE(int, pa_simple_drain, (void *, int *))
    return fn ? fn(connection, error) : -1;
}

void lg_pulse_free(void *connection) {
    LG_PULSE(void, pa_simple_free, (void *))
    if (fn && connection) fn(connection);
}

const char *lg_pulse_strerror(int error) {
    LG_PULSE(const char *, pa_strerror, (int))
    const char *text = fn ? fn(error) : NULL;
    return text ? text : "unknown PulseAudio error";
}
