#include "templates/map_style.h"

#include <array>

namespace pbem::templates {

namespace {

std::optional<int> HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

// Light enough that the strip stands out on a counter of the side's own colour.
constexpr std::array<Rgb, 5> kBlueCorps{{
    {0xbf, 0xe3, 0xff},  // pale sky
    {0x8c, 0x7b, 0xff},  // periwinkle
    {0x3a, 0x1f, 0x9c},  // indigo
    {0x6c, 0xd0, 0xe8},  // cyan blue
    {0x1a, 0x17, 0x5c},  // deep indigo
}};
constexpr std::array<Rgb, 5> kOrangeCorps{{
    {0xff, 0xf0, 0x6a},  // yellow
    {0xc8, 0x28, 0x1a},  // red
    {0xff, 0xc9, 0x33},  // gold
    {0x7e, 0x14, 0x0c},  // dark red
    {0xff, 0xe0, 0xb0},  // pale yellow
}};

}  // namespace

std::optional<Rgb> ParseHexColour(std::string_view text) {
  if (text.size() != 7 || text[0] != '#') return std::nullopt;
  std::array<int, 6> digits{};
  for (std::size_t i = 0; i < 6; ++i) {
    const auto d = HexDigit(text[i + 1]);
    if (!d) return std::nullopt;
    digits[i] = *d;
  }
  return Rgb{static_cast<std::uint8_t>(digits[0] * 16 + digits[1]),
             static_cast<std::uint8_t>(digits[2] * 16 + digits[3]),
             static_cast<std::uint8_t>(digits[4] * 16 + digits[5])};
}

Rgb SideColour(engine::Side side) {
  return side == engine::Side::kBlue ? kBlueSideColour : kOrangeSideColour;
}

Rgb CounterInkColour(engine::Side side) {
  return side == engine::Side::kBlue ? Rgb{0xff, 0xff, 0xff} : Rgb{0x1c, 0x14, 0x0c};
}

Rgb CorpsStripColour(engine::Side side, int corps_index) {
  const auto& palette = side == engine::Side::kBlue ? kBlueCorps : kOrangeCorps;
  const int n = static_cast<int>(palette.size());
  const int i = ((corps_index % n) + n) % n;
  return palette[static_cast<std::size_t>(i)];
}

int Luma(Rgb colour) { return (299 * colour.r + 587 * colour.g + 114 * colour.b) / 1000; }

}  // namespace pbem::templates
