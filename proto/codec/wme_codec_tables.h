// Private to the codec: the enum tables the French game's converters share (wme_codec.cc,
// wme_scenario_codec.cc, wme_orders_codec.cc, wme_turn_result_codec.cc), each pairing a proto
// value with the engine's.
#ifndef PBEM_PROTO_CODEC_WME_CODEC_TABLES_H_
#define PBEM_PROTO_CODEC_WME_CODEC_TABLES_H_

#include "engine/wme/orders.h"
#include "engine/wme/ruleset.h"
#include "pbem/v1/wme_orders.pb.h"
#include "pbem/v1/wme_ruleset.pb.h"
#include "proto/codec/data_checker.h"

namespace pbem::codec::internal {

inline constexpr EnumPair<pbem::v1::WmeTroopType, wme::TroopType> kWmeTroopTypes[] = {
    {pbem::v1::WME_TROOP_TYPE_INFANTRY, wme::TroopType::kInfantry},
    {pbem::v1::WME_TROOP_TYPE_MONSTER, wme::TroopType::kMonster},
    {pbem::v1::WME_TROOP_TYPE_CAVALRY, wme::TroopType::kCavalry},
    {pbem::v1::WME_TROOP_TYPE_CHARIOT, wme::TroopType::kChariot},
    {pbem::v1::WME_TROOP_TYPE_FLYER, wme::TroopType::kFlyer},
    {pbem::v1::WME_TROOP_TYPE_ARTILLERY, wme::TroopType::kArtillery},
    {pbem::v1::WME_TROOP_TYPE_MACHINE, wme::TroopType::kMachine},
    {pbem::v1::WME_TROOP_TYPE_CHARACTER, wme::TroopType::kCharacter},
    {pbem::v1::WME_TROOP_TYPE_CHARACTER_ON_FLYER, wme::TroopType::kCharacterOnFlyer}};

// A move's kind: in the orders (WmeMove.kind) and in a result's unit_moved event.
inline constexpr EnumPair<pbem::v1::WmeMove::Kind, wme::MoveKindOrder> kWmeMoveKinds[] = {
    {pbem::v1::WmeMove::ADVANCE, wme::MoveKindOrder::kAdvance},
    {pbem::v1::WmeMove::EVADE, wme::MoveKindOrder::kEvade}};

// Bounds of the schema's comments (wme_ruleset.proto, wme_scenario.proto), thousandths of a cm.
inline constexpr std::int64_t kWmeMaxLengthCm = 1'000'000;  // 10 m: beyond any table
inline constexpr std::int64_t kWmeMaxCoordCm = 1'000'000;

}  // namespace pbem::codec::internal

#endif  // PBEM_PROTO_CODEC_WME_CODEC_TABLES_H_
