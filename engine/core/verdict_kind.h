// The kind of an order's verdict, one type for every game system and the game-system boundary
// (engine/system/game_system.h): Morne Plaine (engine/morne_plaine/verdict.h), M42
// (engine/m42/verdict.h) and the French game (engine/wme/verdict.h) name it in their own
// namespaces with a using-declaration, so the adapters pass it through unconverted.
// Each system's verdict says why (its stable reason code); the kind says what became of it.
#ifndef PBEM_ENGINE_CORE_VERDICT_KIND_H_
#define PBEM_ENGINE_CORE_VERDICT_KIND_H_

#include <cstdint>
#include <string_view>

namespace pbem::engine {

// The numbers are stored: Morne Plaine's turn results keep a verdict as pbem.v1.VerdictKind,
// whose values are these plus one (proto/codec/turn_result_decode.cc casts them back). Add
// kinds at the end only.
enum class VerdictKind : std::uint8_t {
  kOk,       // carried out (or, when only checked, acceptable; a check note as reason
             // says what the check cannot promise: depends_on_dice, will_charge)
  kInvalid,  // not understood: malformed, unknown unit, hex off the map; changes nothing
  kIllegal,  // understood but not allowed; the system's rule for refused orders applies
  kPartial,  // carried out up to a point, e.g. a Morne Plaine move truncated at its last
             // legal hex (M42 and the French game never give it)
};
static_assert(static_cast<int>(VerdictKind::kOk) == 0 &&
                  static_cast<int>(VerdictKind::kInvalid) == 1 &&
                  static_cast<int>(VerdictKind::kIllegal) == 2 &&
                  static_cast<int>(VerdictKind::kPartial) == 3,
              "stored turn results rely on these numbers");

// "ok", "invalid", "illegal", "partial": the wire and template name.
constexpr std::string_view VerdictKindName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kOk:
      return "ok";
    case VerdictKind::kInvalid:
      return "invalid";
    case VerdictKind::kIllegal:
      return "illegal";
    case VerdictKind::kPartial:
      return "partial";
  }
  return "?";
}

// Played as checked: kOk or kPartial.
constexpr bool IsAcceptable(VerdictKind kind) {
  return kind == VerdictKind::kOk || kind == VerdictKind::kPartial;
}

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_CORE_VERDICT_KIND_H_
