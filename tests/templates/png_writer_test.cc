#include "templates/png_writer.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace pbem::templates {
namespace {

struct Surface {
  cairo_surface_t* s;
  explicit Surface(cairo_surface_t* surface) : s(surface) {}
  Surface(Surface&& other) noexcept : s(other.s) { other.s = nullptr; }
  ~Surface() {
    if (s != nullptr) cairo_surface_destroy(s);
  }
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;
};

void Put(cairo_surface_t* s, int x, int y, std::uint32_t argb) {
  cairo_surface_flush(s);
  unsigned char* data = cairo_image_surface_get_data(s);
  std::memcpy(data + y * cairo_image_surface_get_stride(s) + 4 * x, &argb, 4);
  cairo_surface_mark_dirty(s);
}

const std::uint8_t* At(const DecodedPng& d, int x, int y) {
  return &d.rgba[4 * (static_cast<std::size_t>(y) * d.width + x)];
}

// A 37x11 RGB24 image with a gradient, so rows and columns all differ.
Surface Gradient() {
  Surface img(cairo_image_surface_create(CAIRO_FORMAT_RGB24, 37, 11));
  for (int y = 0; y < 11; ++y) {
    for (int x = 0; x < 37; ++x) {
      Put(img.s, x, y, 0xff000000u | (x * 7u) << 16 | (y * 23u) << 8 | ((x * y) & 0xffu));
    }
  }
  return img;
}

TEST_CASE("RGB24 round trip through every filter and strategy", "[templates][png]") {
  const Surface img = Gradient();
  for (PngFilter filter : {PngFilter::kNone, PngFilter::kSub, PngFilter::kUp, PngFilter::kAverage,
                           PngFilter::kPaeth, PngFilter::kAdaptive}) {
    for (int strategy : {0, 1, 2, 3}) {
      for (int level : {0, 1, 6, 9}) {
        INFO("filter " << static_cast<int>(filter) << " strategy " << strategy << " level "
                       << level);
        std::vector<std::uint8_t> png;
        REQUIRE(EncodePng(img.s, PngOptions{level, strategy, filter}, &png).ok);
        REQUIRE(png.size() > 8);
        CHECK(std::memcmp(png.data(), "\x89PNG\r\n\x1a\n", 8) == 0);
        DecodedPng d;
        REQUIRE(DecodePng(png, &d).ok);
        REQUIRE(d.width == 37);
        REQUIRE(d.height == 11);
        for (int y = 0; y < 11; ++y) {
          for (int x = 0; x < 37; ++x) {
            const std::uint8_t* p = At(d, x, y);
            REQUIRE(p[0] == static_cast<std::uint8_t>(x * 7));
            REQUIRE(p[1] == static_cast<std::uint8_t>(y * 23));
            REQUIRE(p[2] == static_cast<std::uint8_t>(x * y));
            REQUIRE(p[3] == 255);
          }
        }
      }
    }
  }
}

TEST_CASE("ARGB32 is unpremultiplied and keeps its alpha", "[templates][png]") {
  const Surface img(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 3, 1));
  Put(img.s, 0, 0, 0xff204060u);  // opaque
  Put(img.s, 1, 0, 0x80402000u);  // half transparent, premultiplied (0x80, 0x40, 0x00)
  Put(img.s, 2, 0, 0x00000000u);  // fully transparent
  std::vector<std::uint8_t> png;
  REQUIRE(EncodePng(img.s, PngOptions{}, &png).ok);
  DecodedPng d;
  REQUIRE(DecodePng(png, &d).ok);
  const std::uint8_t* p0 = At(d, 0, 0);
  CHECK((p0[0] == 0x20 && p0[1] == 0x40 && p0[2] == 0x60 && p0[3] == 0xff));
  const std::uint8_t* p1 = At(d, 1, 0);
  CHECK(p1[3] == 0x80);
  CHECK(p1[0] == 0x80);  // 0x40 * 255 / 0x80, rounded
  CHECK(p1[1] == 0x40);
  CHECK(p1[2] == 0x00);
  CHECK(At(d, 2, 0)[3] == 0);
}

TEST_CASE("encoding is deterministic and agrees with cairo's writer", "[templates][png]") {
  const Surface img = Gradient();
  std::vector<std::uint8_t> a;
  std::vector<std::uint8_t> b;
  REQUIRE(EncodePng(img.s, PngOptions{}, &a).ok);
  REQUIRE(EncodePng(img.s, PngOptions{}, &b).ok);
  CHECK(a == b);
  std::vector<std::uint8_t> c;
  REQUIRE(EncodePngWithCairo(img.s, &c).ok);
  DecodedPng da;
  DecodedPng dc;
  REQUIRE(DecodePng(a, &da).ok);
  REQUIRE(DecodePng(c, &dc).ok);
  CHECK(da.rgba == dc.rgba);
}

// The chunk types of a PNG in order (lengths followed, so a bad length fails).
std::vector<std::string> ChunkTypes(const std::vector<std::uint8_t>& png) {
  std::vector<std::string> types;
  std::size_t at = 8;
  while (at + 12 <= png.size()) {
    const std::size_t length = (std::size_t{png[at]} << 24) | (std::size_t{png[at + 1]} << 16) |
                               (std::size_t{png[at + 2]} << 8) | std::size_t{png[at + 3]};
    types.emplace_back(png.begin() + static_cast<std::ptrdiff_t>(at) + 4,
                       png.begin() + static_cast<std::ptrdiff_t>(at) + 8);
    at += 12 + length;
  }
  if (at != png.size()) types.emplace_back("<trailing bytes>");
  return types;
}

TEST_CASE("ISA-L, libdeflate and libspng encode the same pixels", "[templates][png]") {
  const Surface img = Gradient();
  const Surface argb(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 3, 1));
  Put(argb.s, 0, 0, 0xff204060u);
  Put(argb.s, 1, 0, 0x80402000u);
  struct Case {
    PngEncoder encoder;
    int level;
    int threads;
  };
  const std::vector<Case> cases = {{PngEncoder::kLibdeflate, 0, 1}, {PngEncoder::kLibdeflate, 1, 1},
                                   {PngEncoder::kLibdeflate, 6, 1}, {PngEncoder::kLibdeflate, 9, 1},
                                   {PngEncoder::kLibdeflate, 0, 2}, {PngEncoder::kLibdeflate, 1, 2},
                                   {PngEncoder::kLibdeflate, 6, 2}, {PngEncoder::kLibdeflate, 1, 3},
                                   {PngEncoder::kIsal, 0, 1},       {PngEncoder::kIsal, 1, 1},
                                   {PngEncoder::kIsal, 2, 1},       {PngEncoder::kIsal, 3, 1},
                                   {PngEncoder::kIsal, 0, 2},       {PngEncoder::kIsal, 1, 2},
                                   {PngEncoder::kIsal, 3, 2},       {PngEncoder::kIsal, 1, 3}};
  for (const Surface* s : {&img, &argb}) {
    for (const Case& c : cases) {
      const bool isal = c.encoder == PngEncoder::kIsal;
      INFO((isal ? "ISA-L" : "libdeflate") << " level " << c.level << " threads " << c.threads
                                           << (s == &argb ? " ARGB32" : " RGB24"));
      // threads 2: the top rows on a second thread (ISA-L: half of them; libdeflate: 7/16
      // with zlib), joined into one stream.
      const PngOptions fast{c.level, 0, PngFilter::kNone, c.encoder, c.threads};
      const PngOptions spng{std::min(c.level, 9), 0, PngFilter::kNone, PngEncoder::kSpng};
      std::vector<std::uint8_t> a;
      std::vector<std::uint8_t> b;
      REQUIRE(EncodePng(s->s, fast, &a).ok);
      REQUIRE(EncodePng(s->s, spng, &b).ok);
      // One header, one data chunk, the end: nothing that varies (no time chunk).
      CHECK(ChunkTypes(a) == std::vector<std::string>{"IHDR", "IDAT", "IEND"});
      DecodedPng da;
      DecodedPng db;
      REQUIRE(DecodePng(a, &da).ok);  // libspng checks every CRC and the zlib checksum
      REQUIRE(DecodePng(b, &db).ok);
      CHECK(da.width == db.width);
      CHECK(da.height == db.height);
      CHECK(da.rgba == db.rgba);
      // The chosen library really is another encoder than libspng, and ISA-L another than
      // libdeflate (each when built in; the 3-pixel image comes out the same from both).
      const bool have = isal ? HaveIsal() || HaveLibdeflate() : HaveLibdeflate();
      if (c.level > 0) CHECK((a != b) == have);
      if (isal && HaveIsal() && HaveLibdeflate() && c.level > 0 && s == &img) {
        std::vector<std::uint8_t> other;
        REQUIRE(
            EncodePng(s->s,
                      PngOptions{c.level, 0, PngFilter::kNone, PngEncoder::kLibdeflate, c.threads},
                      &other)
                .ok);
        CHECK(other != a);
      }
      std::vector<std::uint8_t> again;
      REQUIRE(EncodePng(s->s, fast, &again).ok);
      CHECK(again == a);
      // The split really ran on the 11-row image (the 1-row one has nothing to split).
      if (c.threads >= 2 && s == &img && have) {
        std::vector<std::uint8_t> single;
        REQUIRE(
            EncodePng(s->s, PngOptions{c.level, 0, PngFilter::kNone, c.encoder, 1}, &single).ok);
        CHECK(single != a);
      }
    }
  }
  std::vector<std::uint8_t> png;
  const Status st =
      EncodePng(img.s, PngOptions{13, 0, PngFilter::kNone, PngEncoder::kLibdeflate}, &png);
  CHECK_FALSE(st.ok);
  CHECK(png.empty());
  if (HaveLibdeflate()) CHECK(st.message.find("0..12") != std::string::npos);
  // ISA-L has levels 0..3: above them, libdeflate compresses.
  std::vector<std::uint8_t> isal6;
  std::vector<std::uint8_t> libdeflate6;
  REQUIRE(EncodePng(img.s, PngOptions{6, 0, PngFilter::kNone, PngEncoder::kIsal}, &isal6).ok);
  REQUIRE(
      EncodePng(img.s, PngOptions{6, 0, PngFilter::kNone, PngEncoder::kLibdeflate}, &libdeflate6)
          .ok);
  CHECK(isal6 == libdeflate6);
}

TEST_CASE("unsupported surfaces and bad input are errors, not crashes", "[templates][png]") {
  std::vector<std::uint8_t> png{1, 2, 3};
  const Surface a8(cairo_image_surface_create(CAIRO_FORMAT_A8, 4, 4));
  Status st = EncodePng(a8.s, PngOptions{}, &png);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("format") != std::string::npos);
  CHECK(png.empty());

  const Surface recording(cairo_recording_surface_create(CAIRO_CONTENT_COLOR, nullptr));
  CHECK_FALSE(EncodePng(recording.s, PngOptions{}, &png).ok);

  const Surface zero(cairo_image_surface_create(CAIRO_FORMAT_RGB24, 0, 0));
  CHECK_FALSE(EncodePng(zero.s, PngOptions{}, &png).ok);

  const Surface img = Gradient();
  CHECK_FALSE(EncodePng(img.s, PngOptions{42, 3, PngFilter::kUp}, &png).ok);  // level > 9

  DecodedPng d;
  CHECK_FALSE(DecodePng({}, &d).ok);
  CHECK_FALSE(DecodePng({0x89, 'P', 'N', 'G', 1, 2, 3}, &d).ok);
  std::vector<std::uint8_t> good;
  REQUIRE(EncodePng(img.s, PngOptions{}, &good).ok);
  good.resize(good.size() / 2);  // truncated
  CHECK_FALSE(DecodePng(good, &d).ok);
}

TEST_CASE("WriteFile writes the bytes and reports a bad path", "[templates][png]") {
  const std::vector<std::uint8_t> bytes{0, 1, 2, 255};
  const auto path = std::filesystem::temp_directory_path() / "pbem_png_writer_test.bin";
  REQUIRE(WriteFile(path, bytes).ok);
  CHECK(std::filesystem::file_size(path) == 4);
  std::filesystem::remove(path);
  const Status st = WriteFile("/nonexistent-dir/x/y.png", bytes);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("/nonexistent-dir/x/y.png") != std::string::npos);
}

}  // namespace
}  // namespace pbem::templates
