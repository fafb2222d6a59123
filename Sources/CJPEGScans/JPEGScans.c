// Progressive JPEGs at 1/8 scale through libjpeg's buffered-image mode (libjpeg-turbo's libjpeg API):
// TurboJPEG 2.1 has no way to stop after some scans, so a thumbnail of a progressive file would entropy-decode
// every scan for the DC coefficients alone. libjpeg reports errors with longjmp, which Swift cannot catch:
// this file holds the setjmp.
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include "CJPEGScans.h"

struct lg_error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int warnings;
};

static void lg_error_exit(j_common_ptr cinfo) {
    struct lg_error_manager *manager = (struct lg_error_manager *)cinfo->err;
    longjmp(manager->jump, 1);
}

static void lg_emit_message(j_common_ptr cinfo, int level) {
    struct lg_error_manager *manager = (struct lg_error_manager *)cinfo->err;
    if (level < 0) manager->warnings++;
}

static void lg_output_message(j_common_ptr cinfo) { (void)cinfo; }

// True when every component's DC coefficient has arrived with at most its lowest bit missing (successive
// approximation sends that bit last, after most AC data): an error of at most Q_dc / 8 grey levels, under one
// level for usual quality tables.
static int lg_dc_is_known(j_decompress_ptr cinfo) {
    if (cinfo->coef_bits == NULL) return 0;
    for (int component = 0; component < cinfo->num_components; component++) {
        int bits = cinfo->coef_bits[component][0];
        if (bits < 0 || bits > 1) return 0;
    }
    return 1;
}

int lg_jpeg_decode_progressive_eighth(const unsigned char *data, size_t size, unsigned char *rgba,
                                      int width, int height, lg_jpeg_outcome *outcome) {
    struct jpeg_decompress_struct cinfo;
    struct lg_error_manager manager;
    memset(outcome, 0, sizeof *outcome);
    cinfo.err = jpeg_std_error(&manager.pub);
    manager.pub.error_exit = lg_error_exit;
    manager.pub.emit_message = lg_emit_message;
    manager.pub.output_message = lg_output_message;
    manager.warnings = 0;
    jpeg_create_decompress(&cinfo);
    if (setjmp(manager.jump)) {
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, outcome->message);
        jpeg_destroy_decompress(&cinfo);
        return LG_JPEG_FAILED;
    }
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    int convertible = cinfo.jpeg_color_space == JCS_YCbCr || cinfo.jpeg_color_space == JCS_GRAYSCALE
        || cinfo.jpeg_color_space == JCS_RGB;
    if (!cinfo.progressive_mode || !convertible) {
        jpeg_destroy_decompress(&cinfo);
        return LG_JPEG_NOT_APPLICABLE;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = 8;
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.buffered_image = TRUE;
    cinfo.do_block_smoothing = FALSE;
    jpeg_calc_output_dimensions(&cinfo);
    if ((int)cinfo.output_width != width || (int)cinfo.output_height != height) {
        jpeg_destroy_decompress(&cinfo);
        return LG_JPEG_NOT_APPLICABLE;
    }
    jpeg_start_decompress(&cinfo);
    for (;;) {
        int status = jpeg_consume_input(&cinfo);
        if (status == JPEG_SUSPENDED || status == JPEG_REACHED_EOI) break;   // memory source: never suspends
        if (status == JPEG_SCAN_COMPLETED && lg_dc_is_known(&cinfo)) {
            outcome->stopped_early = !jpeg_input_complete(&cinfo);
            break;
        }
    }
    jpeg_start_output(&cinfo, cinfo.input_scan_number);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = rgba + (size_t)cinfo.output_scanline * (size_t)width * 4;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_output(&cinfo);
    outcome->scans_read = cinfo.input_scan_number;
    outcome->warnings = manager.warnings;
    // No jpeg_finish_decompress: it would read the scans left. Destroying is enough to free everything.
    jpeg_destroy_decompress(&cinfo);
    return manager.warnings > 0 ? LG_JPEG_DAMAGED : LG_JPEG_DECODED;
}
