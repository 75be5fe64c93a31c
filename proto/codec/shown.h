// An untrusted string as an error message shows it: at most kMaxShownBytes of it (cut on a
// UTF-8 character boundary, "..." after a cut), control characters as '?'. Every codec error
// that quotes what a file, archive or player wrote goes through it, so a 30 KB id or a line
// break in a name cannot make a message huge or forge lines in a reply.
#ifndef PBEM_PROTO_CODEC_SHOWN_H_
#define PBEM_PROTO_CODEC_SHOWN_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pbem::codec {

inline constexpr std::size_t kMaxShownBytes = 64;

inline std::string Shown(std::string_view text) {
  std::size_t keep = text.size();
  if (keep > kMaxShownBytes) {
    keep = kMaxShownBytes;
    // Back off over UTF-8 continuation bytes (10xxxxxx) to a character's first byte.
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  }
  std::string out;
  out.reserve(keep + 3);
  for (std::size_t i = 0; i < keep; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
  }
  if (keep < text.size()) out += "...";
  return out;
}

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_SHOWN_H_
