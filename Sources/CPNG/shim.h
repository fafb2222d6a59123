#ifndef LIVEGRID_CPNG_SHIM_H
#define LIVEGRID_CPNG_SHIM_H
// libpng's simplified API (png_image_*) reports errors in the struct instead of longjmp-ing, so Swift calls it
// directly. The one exception is `lg_png_encode_sub_filtered` below: the simplified API offers only "no filters,
// level 3" or "every filter, most effort", and a movie frame needs one cheap filter at a low level; its setjmp
// stays inside this C function, so no longjmp ever crosses Swift frames. tEXt chunks are written and read in Swift.
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static inline png_uint_32 lg_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 lg_png_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline png_uint_32 lg_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 lg_png_image_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }

typedef struct { unsigned char *data; size_t size; size_t capacity; } lg_png_memory;

static void lg_png_write_to_memory(png_structp png, png_bytep bytes, size_t length) {
    lg_png_memory *memory = (lg_png_memory *)png_get_io_ptr(png);
    if (memory->size + length > memory->capacity) {
        size_t capacity = memory->capacity ? memory->capacity : 65536;
        while (capacity < memory->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(memory->data, capacity);
        if (!grown) png_error(png, "out of memory");
        memory->data = grown;
        memory->capacity = capacity;
    }
    memcpy(memory->data + memory->size, bytes, length);
    memory->size += length;
}

static void lg_png_flush_nothing(png_structp png) { (void)png; }

/// Encodes 8-bit RGB (`channels` 3) or RGBA (4) rows with PNG's Sub filter on every row and zlib at `level`.
/// Returns 0 and a malloc'd PNG in *out (the caller frees it), or -1 (nothing to free).
static inline int lg_png_encode_sub_filtered(const unsigned char *pixels, png_uint_32 width, png_uint_32 height,
                                             size_t row_bytes, int channels, int level,
                                             unsigned char **out, size_t *out_size) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    // On the heap, so its contents are what the callback wrote whatever a longjmp did to this frame's registers.
    lg_png_memory *memory = (lg_png_memory *)calloc(1, sizeof(lg_png_memory));
    if (!info || !memory) {
        free(memory);
        png_destroy_write_struct(&png, info ? &info : NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(memory->data);
        free(memory);
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, memory, lg_png_write_to_memory, lg_png_flush_nothing);
    png_set_IHDR(png, info, width, height, 8, channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, level);
    png_write_info(png, info);
    for (png_uint_32 row = 0; row < height; row++) png_write_row(png, pixels + (size_t)row * row_bytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = memory->data;
    *out_size = memory->size;
    free(memory);
    return 0;
}
#endif
