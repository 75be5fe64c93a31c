// Exact-integer traversal of the straight segment between two hex centres,
// the geometric basis of line of sight.
//
// Contract of TraceLine(from, to):
//  * Items are ordered from `from` to `to` by where along the segment they
//    begin. The `from` and `to` hexes themselves are never listed.
//  * A hex is listed (kHex) iff the segment crosses its interior for a
//    positive length. Touching only a corner (vertex) or crossing a hexside
//    at a single point does not list it: tangency never counts.
//  * Where the segment runs along a hexside for a positive length (e.g. due
//    north-south lines such as Hex{0,0} -> Hex{-1,2}), that hexside is listed
//    once (kHexside, canonical form) at that place in the order, and the two
//    hexes beside it are not listed for that stretch: neither interior is
//    crossed there.
//  * TraceLine(a, a) and TraceLine of adjacent hexes are empty.
//  * TraceLine(b, a) lists exactly the items of TraceLine(a, b) in reverse.
//  * Every listed hex h satisfies Distance(from, h) <= D and
//    Distance(h, to) <= D, where D = Distance(from, to).
//
// The computation is exact (integers only) for |q|, |r| < 2^24; its cost is
// proportional to Distance(from, to).

#ifndef PBEM_ENGINE_HEX_LINE_H_
#define PBEM_ENGINE_HEX_LINE_H_

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "engine/hex/hex.h"

namespace pbem::engine {

// One feature crossed by a traced segment.
struct LineItem {
  enum class Kind : std::uint8_t { kHex, kHexside };

  Kind kind = Kind::kHex;
  Hex hex;       // kHex: the hex whose interior the segment crosses.
  Hexside side;  // kHexside: the side the segment runs along (canonical).

  static LineItem ForHex(Hex h) { return LineItem{Kind::kHex, h, Hexside{}}; }
  static LineItem ForSide(Hexside s) { return LineItem{Kind::kHexside, Hex{}, s}; }

  friend bool operator==(const LineItem&, const LineItem&) = default;
};

// The ordered features crossed between two hex centres (see file comment).
struct LineTrace {
  std::vector<LineItem> items;
};

LineTrace TraceLine(Hex from, Hex to);

// Debug form: "hex (q,r)" or "side (q,r)/E".
std::ostream& operator<<(std::ostream& os, const LineItem& item);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_HEX_LINE_H_
