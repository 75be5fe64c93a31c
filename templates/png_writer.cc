#include "templates/png_writer.h"

#include <spng.h>

#ifdef PBEM_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#ifdef PBEM_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#if defined(PBEM_HAVE_LIBDEFLATE) || defined(PBEM_HAVE_ISAL)
#define PBEM_HAVE_FAST_DEFLATE 1
#include <zlib.h>

#include <thread>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

namespace pbem::templates {

namespace {

struct SpngCtxDeleter {
  void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};
using SpngCtx = std::unique_ptr<spng_ctx, SpngCtxDeleter>;

int FilterChoice(PngFilter filter) {
  switch (filter) {
    case PngFilter::kNone:
      return SPNG_FILTER_CHOICE_NONE;
    case PngFilter::kSub:
      return SPNG_FILTER_CHOICE_SUB;
    case PngFilter::kUp:
      return SPNG_FILTER_CHOICE_UP;
    case PngFilter::kAverage:
      return SPNG_FILTER_CHOICE_AVG;
    case PngFilter::kPaeth:
      return SPNG_FILTER_CHOICE_PAETH;
    case PngFilter::kAdaptive:
      return SPNG_FILTER_CHOICE_ALL;
  }
  return SPNG_FILTER_CHOICE_UP;
}

Status SpngError(const char* what, int err) {
  return Status::Error(std::string("png encode: ") + what + ": " + spng_strerror(err));
}

// cairo keeps a pixel as one native-endian 32-bit word 0xAARRGGBB (alpha unused in RGB24).
inline std::uint32_t LoadPixel(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void ConvertRowRgb24(const unsigned char* src, int width, std::uint8_t* dst) {
  for (int x = 0; x < width; ++x) {
    const std::uint32_t v = LoadPixel(src + 4 * x);
    dst[0] = static_cast<std::uint8_t>(v >> 16);
    dst[1] = static_cast<std::uint8_t>(v >> 8);
    dst[2] = static_cast<std::uint8_t>(v);
    dst += 3;
  }
}

std::uint8_t Unpremultiply(std::uint32_t c, std::uint32_t a) {
  return static_cast<std::uint8_t>((c * 255 + a / 2) / a);
}

void ConvertRowArgb32(const unsigned char* src, int width, std::uint8_t* dst) {
  for (int x = 0; x < width; ++x) {
    const std::uint32_t v = LoadPixel(src + 4 * x);
    const std::uint32_t a = v >> 24;
    if (a == 0) {
      dst[0] = dst[1] = dst[2] = dst[3] = 0;
    } else {
      dst[0] = Unpremultiply((v >> 16) & 0xff, a);
      dst[1] = Unpremultiply((v >> 8) & 0xff, a);
      dst[2] = Unpremultiply(v & 0xff, a);
      dst[3] = static_cast<std::uint8_t>(a);
    }
    dst += 4;
  }
}

cairo_status_t AppendToVector(void* closure, const unsigned char* data, unsigned int length) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(closure);
  out->insert(out->end(), data, data + length);
  return CAIRO_STATUS_SUCCESS;
}

#ifdef PBEM_HAVE_FAST_DEFLATE
std::uint32_t Crc32(const std::uint8_t* data, std::size_t n) {
#ifdef PBEM_HAVE_LIBDEFLATE
  return libdeflate_crc32(0, data, n);
#else
  return static_cast<std::uint32_t>(crc32(0, data, static_cast<uInt>(n)));
#endif
}

std::uint32_t Adler32(const std::uint8_t* data, std::size_t n) {
#ifdef PBEM_HAVE_ISAL
  return isal_adler32(1, data, n);
#else
  return libdeflate_adler32(1, data, n);
#endif
}

void PutBe32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  out[at] = static_cast<std::uint8_t>(v >> 24);
  out[at + 1] = static_cast<std::uint8_t>(v >> 16);
  out[at + 2] = static_cast<std::uint8_t>(v >> 8);
  out[at + 3] = static_cast<std::uint8_t>(v);
}

// Appends a chunk whose data the caller writes into the `length` bytes reserved after the
// chunk header; returns the offset of the data. FinishChunk then writes the CRC.
std::size_t BeginChunk(std::vector<std::uint8_t>& out, const char type[4], std::size_t length) {
  const std::size_t at = out.size();
  out.resize(at + 8 + length + 4);
  PutBe32(out, at, static_cast<std::uint32_t>(length));
  std::memcpy(&out[at + 4], type, 4);
  return at + 8;
}

void FinishChunk(std::vector<std::uint8_t>& out, std::size_t data_at, std::size_t length) {
  // The CRC covers the type and the data.
  const std::uint32_t crc = Crc32(&out[data_at - 4], length + 4);
  PutBe32(out, data_at + length, crc);
}

#ifdef PBEM_HAVE_LIBDEFLATE
struct CompressorDeleter {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
#endif

void ConvertRows(const unsigned char* data, int width, int stride, bool alpha, int y0, int y1,
                 std::size_t row_bytes, std::uint8_t* raw) {
  for (int y = y0; y < y1; ++y) {
    std::uint8_t* row = raw + static_cast<std::size_t>(y) * row_bytes;
    row[0] = 0;  // filter: none
    const unsigned char* src = data + static_cast<std::ptrdiff_t>(y) * stride;
    if (alpha) {
      ConvertRowArgb32(src, width, row + 1);
    } else {
      ConvertRowRgb24(src, width, row + 1);
    }
  }
}

// Raw deflate of `size` bytes with zlib, ending in a sync flush: byte-aligned and not final,
// so that another deflate stream may follow it. Returns the compressed size, 0 on failure.
std::size_t DeflateNotFinal(const std::uint8_t* in, std::size_t size, int level,
                            std::unique_ptr<std::uint8_t[]>* out) {
  z_stream z{};
  if (deflateInit2(&z, std::clamp(level, 0, 9), Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return 0;
  }
  const std::size_t capacity = deflateBound(&z, size) + 16;
  out->reset(new std::uint8_t[capacity]);  // not zeroed: only what deflate writes is read
  z.next_in = const_cast<Bytef*>(in);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out->get();
  z.avail_out = static_cast<uInt>(capacity);
  const int rc = deflate(&z, Z_SYNC_FLUSH);
  const std::size_t n = rc == Z_OK && z.avail_in == 0 ? capacity - z.avail_out : 0;
  deflateEnd(&z);  // Z_DATA_ERROR: the stream was left open on purpose
  return n;
}

// Raw deflate of `size` bytes with ISA-L's igzip at `level` (0..3); with `final` false the
// stream ends in a full flush (byte-aligned, not final) so that another may follow it.
// Returns the compressed size, 0 on failure.
#ifdef PBEM_HAVE_ISAL
std::size_t DeflateIsal(const std::uint8_t* in, std::size_t size, int level, bool final,
                        std::unique_ptr<std::uint8_t[]>* out) {
  static constexpr std::uint32_t kLevelBuf[4] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
                                                 ISAL_DEF_LVL3_DEFAULT};
  const std::uint32_t buf_size = kLevelBuf[std::clamp(level, 0, 3)];
  // Zeroed, like the stream: igzip reads parts of its level buffer and stream state before
  // writing them (its hash tables), and valgrind saw those reads decide branches; zeroing both
  // keeps the bytes a function of the pixels alone.
  const std::unique_ptr<std::uint8_t[]> level_buf(buf_size > 0 ? new std::uint8_t[buf_size]()
                                                               : nullptr);
  // Stored blocks at worst (5 bytes per 64 KiB) plus room for the block headers and flush.
  const std::size_t capacity = size + size / 16 + 1024;
  out->reset(new std::uint8_t[capacity]);
  isal_zstream z{};
  isal_deflate_stateless_init(&z);
  z.level = static_cast<std::uint32_t>(std::clamp(level, 0, 3));
  z.level_buf = level_buf.get();
  z.level_buf_size = buf_size;
  z.gzip_flag = IGZIP_DEFLATE;
  z.end_of_stream = final ? 1 : 0;
  z.flush = final ? NO_FLUSH : FULL_FLUSH;  // stateless: byte-aligned, not final
  z.next_in = const_cast<std::uint8_t*>(in);
  z.avail_in = static_cast<std::uint32_t>(size);
  z.next_out = out->get();
  z.avail_out = static_cast<std::uint32_t>(capacity);
  if (isal_deflate_stateless(&z) != COMP_OK || z.avail_in != 0) return 0;
  return z.total_out;
}
#endif

// The whole image, every row with filter byte 0 (none), as one zlib stream in one IDAT:
// a PNG with IHDR, IDAT and IEND only (no time: same pixels, same bytes). With `split`, the
// first rows are converted and compressed on a second thread (ending in a flush) while
// this thread does the rest; the two deflate streams join into one.
//   kIsal: igzip for both parts, half of the rows each.
//   kLibdeflate: zlib for the first 7/16 of the rows (libdeflate cannot end a stream
//     without finishing it; zlib being slower, its share is smaller), libdeflate the rest.
Status EncodeUnfiltered(const unsigned char* data, int width, int height, int stride, bool alpha,
                        int level, bool split, PngEncoder encoder, std::vector<std::uint8_t>* out) {
  const std::size_t row_bytes = 1 + static_cast<std::size_t>(width) * (alpha ? 4 : 3);
  const std::size_t raw_size = row_bytes * static_cast<std::size_t>(height);
  if (raw_size > (std::size_t{1} << 31) - 1) return Status::Error("png encode: image too large");
  const bool isal = encoder == PngEncoder::kIsal;
#ifdef PBEM_HAVE_LIBDEFLATE
  std::unique_ptr<libdeflate_compressor, CompressorDeleter> compressor;
  if (!isal) {
    compressor.reset(libdeflate_alloc_compressor(level));
    if (!compressor) return Status::Error("png encode: libdeflate_alloc_compressor failed");
  }
#endif
  // Buffers are left uninitialised (every byte read is written first): zero-filling ~20 MB
  // would cost more than a tenth of the encoding.
  const std::unique_ptr<std::uint8_t[]> raw(new std::uint8_t[raw_size]);
  const int split_rows = split && height >= 2 ? (isal ? height / 2 : height * 7 / 16) : 0;
  const std::size_t head_size = static_cast<std::size_t>(split_rows) * row_bytes;

  std::unique_ptr<std::uint8_t[]> head;
  std::size_t head_length = 0;
  std::uint32_t head_adler = 1;
  std::thread head_thread;
  if (split_rows > 0) {
    head_thread = std::thread([&] {
      ConvertRows(data, width, stride, alpha, 0, split_rows, row_bytes, raw.get());
#ifdef PBEM_HAVE_ISAL
      if (isal) {
        head_length = DeflateIsal(raw.get(), head_size, level, false, &head);
      } else {
        head_length = DeflateNotFinal(raw.get(), head_size, level, &head);
      }
#else
      head_length = DeflateNotFinal(raw.get(), head_size, level, &head);
#endif
      head_adler = Adler32(raw.get(), head_size);
    });
  }
  ConvertRows(data, width, stride, alpha, split_rows, height, row_bytes, raw.get());
  const std::size_t tail_size = raw_size - head_size;

  static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  out->assign(kSignature, kSignature + 8);
  const std::size_t ihdr = BeginChunk(*out, "IHDR", 13);
  PutBe32(*out, ihdr, static_cast<std::uint32_t>(width));
  PutBe32(*out, ihdr + 4, static_cast<std::uint32_t>(height));
  (*out)[ihdr + 8] = 8;              // bit depth
  (*out)[ihdr + 9] = alpha ? 6 : 2;  // truecolour with alpha, truecolour
  (*out)[ihdr + 10] = 0;             // deflate
  (*out)[ihdr + 11] = 0;             // adaptive filtering (each row names its filter)
  (*out)[ihdr + 12] = 0;             // no interlace
  FinishChunk(*out, ihdr, 13);
  // The zlib stream: header 78 01 (deflate, 32K window; the level hint is informative only),
  // the head (if any), the tail, the Adler-32 of all the raw bytes.
  std::unique_ptr<std::uint8_t[]> tail;
  std::size_t tail_length = 0;
#ifdef PBEM_HAVE_ISAL
  if (isal) tail_length = DeflateIsal(raw.get() + head_size, tail_size, level, true, &tail);
#endif
#ifdef PBEM_HAVE_LIBDEFLATE
  if (!isal) {
    const std::size_t bound = libdeflate_deflate_compress_bound(compressor.get(), tail_size);
    tail.reset(new std::uint8_t[bound]);
    tail_length = libdeflate_deflate_compress(compressor.get(), raw.get() + head_size, tail_size,
                                              tail.get(), bound);
  }
#endif
  const std::uint32_t tail_adler = Adler32(raw.get() + head_size, tail_size);
  if (head_thread.joinable()) head_thread.join();
  if (tail_length == 0 || (split_rows > 0 && head_length == 0)) {
    out->clear();
    return Status::Error("png encode: the image data could not be compressed");
  }
  const std::uint32_t adler = split_rows > 0
                                  ? static_cast<std::uint32_t>(adler32_combine(
                                        head_adler, tail_adler, static_cast<z_off_t>(tail_size)))
                                  : tail_adler;
  const std::size_t length = 2 + head_length + tail_length + 4;
  out->reserve(out->size() + 12 + length + 12);
  const std::size_t idat = BeginChunk(*out, "IDAT", length);
  (*out)[idat] = 0x78;
  (*out)[idat + 1] = 0x01;
  if (head_length > 0) {
    std::copy_n(head.get(), head_length, out->begin() + static_cast<std::ptrdiff_t>(idat) + 2);
  }
  std::copy_n(tail.get(), tail_length,
              out->begin() + static_cast<std::ptrdiff_t>(idat + 2 + head_length));
  PutBe32(*out, idat + length - 4, adler);
  FinishChunk(*out, idat, length);
  const std::size_t iend = BeginChunk(*out, "IEND", 0);
  FinishChunk(*out, iend, 0);
  return Status::Ok();
}
#endif

}  // namespace

bool HaveLibdeflate() {
#ifdef PBEM_HAVE_LIBDEFLATE
  return true;
#else
  return false;
#endif
}

bool HaveIsal() {
#ifdef PBEM_HAVE_ISAL
  return true;
#else
  return false;
#endif
}

Status EncodePng(cairo_surface_t* surface, const PngOptions& options,
                 std::vector<std::uint8_t>* out) {
  out->clear();
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    return Status::Error(std::string("png encode: bad surface: ") +
                         cairo_status_to_string(cairo_surface_status(surface)));
  }
  if (cairo_surface_get_type(surface) != CAIRO_SURFACE_TYPE_IMAGE) {
    return Status::Error("png encode: not an image surface");
  }
  cairo_surface_flush(surface);
  const cairo_format_t format = cairo_image_surface_get_format(surface);
  if (format != CAIRO_FORMAT_RGB24 && format != CAIRO_FORMAT_ARGB32) {
    return Status::Error("png encode: unsupported pixel format (need RGB24 or ARGB32)");
  }
  const bool alpha = format == CAIRO_FORMAT_ARGB32;
  const int width = cairo_image_surface_get_width(surface);
  const int height = cairo_image_surface_get_height(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  if (width <= 0 || height <= 0 || data == nullptr) {
    return Status::Error("png encode: empty image");
  }

#ifdef PBEM_HAVE_FAST_DEFLATE
  // kIsal without ISA-L falls back to libdeflate, kLibdeflate without libdeflate to libspng.
  // kIsal above ISA-L's levels (0..3) also means libdeflate, which compresses harder.
  PngEncoder encoder = options.encoder;
  if (encoder == PngEncoder::kIsal && (!HaveIsal() || options.compression_level > 3)) {
    encoder = PngEncoder::kLibdeflate;
  }
  if (encoder == PngEncoder::kLibdeflate && !HaveLibdeflate()) encoder = PngEncoder::kSpng;
  if (encoder != PngEncoder::kSpng && options.filter == PngFilter::kNone &&
      options.compression_strategy == 0) {
    if (options.compression_level < 0 || options.compression_level > 12) {
      return Status::Error("png encode: compression level " +
                           std::to_string(options.compression_level) +
                           " is outside libdeflate's 0..12");
    }
    const bool split =
        options.threads >= 2 ||
        (options.threads == 0 && static_cast<long long>(width) * height >= 1'000'000);
    return EncodeUnfiltered(data, width, height, stride, alpha, options.compression_level, split,
                            encoder, out);
  }
#endif

  SpngCtx ctx(spng_ctx_new(SPNG_CTX_ENCODER));
  if (!ctx) return Status::Error("png encode: spng_ctx_new failed");
  int err = spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
  if (err == 0) {
    err = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, options.compression_level);
  }
  if (err == 0) {
    err = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_STRATEGY, options.compression_strategy);
  }
  if (err == 0) err = spng_set_option(ctx.get(), SPNG_FILTER_CHOICE, FilterChoice(options.filter));
  if (err != 0) return SpngError("options", err);

  spng_ihdr ihdr{};
  ihdr.width = static_cast<std::uint32_t>(width);
  ihdr.height = static_cast<std::uint32_t>(height);
  ihdr.bit_depth = 8;
  ihdr.color_type = alpha ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR;
  err = spng_set_ihdr(ctx.get(), &ihdr);
  if (err != 0) return SpngError("header", err);

  err = spng_encode_image(ctx.get(), nullptr, 0, SPNG_FMT_PNG,
                          SPNG_ENCODE_PROGRESSIVE | SPNG_ENCODE_FINALIZE);
  if (err != 0) return SpngError("start", err);

  // Rows are converted one at a time into a small buffer that stays in cache.
  const std::size_t row_bytes = static_cast<std::size_t>(width) * (alpha ? 4 : 3);
  std::vector<std::uint8_t> row(row_bytes);
  for (int y = 0; y < height; ++y) {
    const unsigned char* src = data + static_cast<std::ptrdiff_t>(y) * stride;
    if (alpha) {
      ConvertRowArgb32(src, width, row.data());
    } else {
      ConvertRowRgb24(src, width, row.data());
    }
    err = spng_encode_row(ctx.get(), row.data(), row.size());
    // The last row returns SPNG_EOI: the image is complete.
    if (err != 0 && !(err == SPNG_EOI && y == height - 1)) return SpngError("row", err);
  }

  std::size_t length = 0;
  void* png = spng_get_png_buffer(ctx.get(), &length, &err);
  if (png == nullptr || err != 0) return SpngError("finish", err);
  const auto* bytes = static_cast<const std::uint8_t*>(png);
  out->assign(bytes, bytes + length);
  std::free(png);
  return Status::Ok();
}

Status EncodePngWithCairo(cairo_surface_t* surface, std::vector<std::uint8_t>* out) {
  out->clear();
  const cairo_status_t st = cairo_surface_write_to_png_stream(surface, &AppendToVector, out);
  if (st != CAIRO_STATUS_SUCCESS) {
    return Status::Error(std::string("cairo png writer: ") + cairo_status_to_string(st));
  }
  return Status::Ok();
}

Status WriteFile(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return Status::Error("cannot open " + path.string() + " for writing");
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return Status::Error("cannot write " + path.string());
  return Status::Ok();
}

Status DecodePng(const std::vector<std::uint8_t>& png, DecodedPng* out) {
  *out = DecodedPng{};
  SpngCtx ctx(spng_ctx_new(0));
  if (!ctx) return Status::Error("png decode: spng_ctx_new failed");
  int err = spng_set_png_buffer(ctx.get(), png.data(), png.size());
  spng_ihdr ihdr{};
  if (err == 0) err = spng_get_ihdr(ctx.get(), &ihdr);
  std::size_t size = 0;
  if (err == 0) err = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size);
  if (err != 0) return Status::Error(std::string("png decode: ") + spng_strerror(err));
  out->rgba.resize(size);
  err = spng_decode_image(ctx.get(), out->rgba.data(), size, SPNG_FMT_RGBA8, 0);
  if (err != 0) {
    out->rgba.clear();
    return Status::Error(std::string("png decode: ") + spng_strerror(err));
  }
  out->width = static_cast<int>(ihdr.width);
  out->height = static_cast<int>(ihdr.height);
  return Status::Ok();
}

}  // namespace pbem::templates
