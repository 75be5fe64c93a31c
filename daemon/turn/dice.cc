#include "daemon/turn/dice.h"

#include <Poco/SHA2Engine.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace pbem::daemon {

Result<Bytes> SystemEntropy::Draw(std::size_t n) {
  std::ifstream in("/dev/urandom", std::ios::binary);
  if (!in) {
    return Status::IoError(std::string("opening /dev/urandom for a dice seed: ") +
                           std::strerror(errno));
  }
  Bytes out(n, '\0');
  in.read(out.data(), static_cast<std::streamsize>(n));
  if (static_cast<std::size_t>(in.gcount()) != n) {
    return Status::IoError("reading " + std::to_string(n) +
                           " bytes from /dev/urandom for a dice seed: short read");
  }
  return out;
}

Result<Bytes> FixedEntropy::Draw(std::size_t n) {
  const Bytes block = Sha256(label_ + std::to_string(draws_++));
  Bytes out;
  while (out.size() < n) out += block;
  out.resize(n);
  return out;
}

Bytes Sha256(std::string_view bytes) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(bytes.data(), static_cast<unsigned>(bytes.size()));
  const Poco::DigestEngine::Digest& digest = engine.digest();
  return Bytes(digest.begin(), digest.end());
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

pbem::v1::DiceCommitment CommitmentFor(const Bytes& seed) {
  pbem::v1::DiceCommitment commitment;
  commitment.set_commitment(Hex(Sha256(seed)));
  commitment.set_derivation(std::string(kDiceDerivation));
  return commitment;
}

pbem::v1::DiceCommitment RevealedCommitmentFor(const Bytes& seed) {
  pbem::v1::DiceCommitment commitment = CommitmentFor(seed);
  commitment.set_revealed_seed(Hex(seed));
  return commitment;
}

std::uint64_t DiceKey(const Bytes& seed, const Bytes& canonical_orders) {
  const Bytes key = Sha256(seed + canonical_orders);
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = (value << 8) | static_cast<unsigned char>(key[i]);
  return value;
}

}  // namespace pbem::daemon
