// Verifiable dice: the secret seed of a turn, its published commitment, the canonical bytes of
// the orders resolved and the dice key derived from both. The derivation is specified in
// proto/README.md ("Verifiable dice") so that anyone can re-implement `pbem verify`:
//
//   seed        32 bytes from a secure random source, drawn when the turn opens
//   commitment  lower-case hex SHA-256(seed), published when the turn opens
//   orders      the canonical bytes of the orders resolved (Morne Plaine's:
//               codec::CanonicalOrders, proto/codec/codec.h)
//   key         SHA-256(seed || orders)       (|| is plain concatenation of the bytes)
//   dice        engine::SeededDice(first 8 bytes of key read as a big-endian uint64)
#ifndef PBEM_DAEMON_TURN_DICE_H_
#define PBEM_DAEMON_TURN_DICE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pbem/v1/dice.pb.h"
#include "storage/status.h"

namespace pbem::daemon {

using Bytes = std::string;

// Size of a turn's secret seed.
inline constexpr std::size_t kSeedBytes = 32;

// The value of DiceCommitment.derivation: names the derivation above.
inline constexpr std::string_view kDiceDerivation =
    "pbem.v1: key = SHA-256(seed || canonical orders); dice = SeededDice(key[0..8] as "
    "big-endian uint64)";

// Where seeds come from. Implementations: SystemEntropy (the service), FixedEntropy (tests).
class EntropySource {
 public:
  virtual ~EntropySource() = default;
  // `n` bytes. A failure is IO_ERROR naming the source; never weak bytes instead.
  virtual Result<Bytes> Draw(std::size_t n) = 0;
};

// The kernel's secure random source, /dev/urandom.
class SystemEntropy final : public EntropySource {
 public:
  Result<Bytes> Draw(std::size_t n) override;
};

// Deterministic bytes for tests: draw k (0, 1, ...) returns SHA-256(label || decimal k),
// repeated as needed. Never use it for real games.
class FixedEntropy final : public EntropySource {
 public:
  explicit FixedEntropy(std::string label) : label_(std::move(label)) {}
  Result<Bytes> Draw(std::size_t n) override;

 private:
  std::string label_;
  std::uint64_t draws_ = 0;
};

// SHA-256 of bytes, 32 raw bytes.
Bytes Sha256(std::string_view bytes);
// Lower-case hex of bytes.
std::string Hex(std::string_view bytes);

// The commitment published when a turn opens: {commitment: hex SHA-256(seed), derivation}.
pbem::v1::DiceCommitment CommitmentFor(const Bytes& seed);
// The same with revealed_seed set to hex(seed): what a turn's result carries.
pbem::v1::DiceCommitment RevealedCommitmentFor(const Bytes& seed);

// SHA-256(seed || canonical_orders), first 8 bytes as a big-endian uint64: the seed of the
// turn's engine::SeededDice.
std::uint64_t DiceKey(const Bytes& seed, const Bytes& canonical_orders);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_DICE_H_
