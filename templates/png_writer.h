// PNG encoding of a rendered map. cairo's own writer (libpng with default settings, through
// cairo_surface_write_to_png_stream) costs several times the drawing; EncodePng writes the
// chunks itself and deflates with ISA-L (or libdeflate, or libspng) with settings tuned for
// map images (see PngOptions), many times faster than cairo's writer for a file of about
// the same size.
//
// The output is deterministic: no time stamp or other varying chunk is written, so the same
// pixels always give the same bytes.
#ifndef PBEM_TEMPLATES_PNG_WRITER_H_
#define PBEM_TEMPLATES_PNG_WRITER_H_

#include <cairo.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "templates/status.h"

namespace pbem::templates {

// The PNG row filter applied to every row (libspng SPNG_FILTER_CHOICE_*).
enum class PngFilter : std::uint8_t { kNone, kSub, kUp, kAverage, kPaeth, kAdaptive };

// Which deflate implementation writes the image data.
//   kIsal: ISA-L's igzip (Debian libisal-dev), levels 0..3 (higher levels: kLibdeflate);
//     on the 60x40 benchmark map at level 1 about three times as fast as libdeflate's
//     level 1 for a file 6-7% larger. Its output is the same on every x86-64 with SSE4.2
//     (the CPU features it dispatches on above that give the same bytes). Without ISA-L in
//     the build: kLibdeflate.
//   kLibdeflate: libdeflate (Debian libdeflate-dev) compresses the whole image in one call
//     and the chunks are written here; on the 60x40 benchmark map at level 1 it is about
//     twice as fast as zlib's level 1 and 8% smaller. Without libdeflate: kSpng.
//   kSpng: libspng (zlib), any filter and strategy.
// kIsal and kLibdeflate take PngFilter::kNone and the default strategy only; other settings
// use libspng.
enum class PngEncoder : std::uint8_t { kLibdeflate, kSpng, kIsal };

// True when this build has libdeflate (else kLibdeflate falls back to kSpng).
bool HaveLibdeflate();
// True when this build has ISA-L (else kIsal falls back to kLibdeflate).
bool HaveIsal();

// The defaults were measured on rendered maps (templates/bench): level 1 with no row
// filter is the fastest setting and, on these images, also smaller than the UP/SUB/PAETH
// filters or the RLE strategy at the same level (hex stamps repeat exactly, which LZ77
// matches find on unfiltered rows).
struct PngOptions {
  // zlib level 0..9 (libdeflate: 0..12; ISA-L: 0..3, above that libdeflate).
  int compression_level = 1;
  // zlib strategy: 0 default, 1 filtered, 2 Huffman only, 3 RLE.
  int compression_strategy = 0;
  PngFilter filter = PngFilter::kNone;
  PngEncoder encoder = PngEncoder::kIsal;
  // kIsal and kLibdeflate: 2 or more compresses the first rows on a second thread (ISA-L:
  // half of them; libdeflate: 7/16 with zlib) while this one does the rest (one zlib stream
  // all the same); 0 does so for images of a million pixels or more, whatever the machine's
  // core count (so a map's bytes are the same on every machine); 1 never. The bytes depend on
  // this setting and the image size, never on timing or the number of cores.
  int threads = 0;
};

// Encodes an image surface of format CAIRO_FORMAT_RGB24 (written as 8-bit RGB) or
// CAIRO_FORMAT_ARGB32 (unpremultiplied, written as 8-bit RGBA). The surface is flushed
// first. REQUIRES: `surface` is an image surface; `out` is not null (it is overwritten).
Status EncodePng(cairo_surface_t* surface, const PngOptions& options,
                 std::vector<std::uint8_t>* out);

// The same image through cairo's own PNG writer, for comparison (benchmarks, tests).
Status EncodePngWithCairo(cairo_surface_t* surface, std::vector<std::uint8_t>* out);

// Writes bytes to a file, replacing it.
Status WriteFile(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

// A decoded PNG as 8-bit RGBA rows without padding (stride = 4 * width). Used by tests and
// tools to check what an encoder wrote.
struct DecodedPng {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;
};
Status DecodePng(const std::vector<std::uint8_t>& png, DecodedPng* out);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_PNG_WRITER_H_
