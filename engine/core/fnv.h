// 64-bit FNV-1a over bytes: the fingerprint of whole games that the soak runs and `pbem play`
// print, so that two runs (or two compilers) can be shown to have produced the same bytes. Not
// a cryptographic hash. Header only.
#ifndef PBEM_ENGINE_CORE_FNV_H_
#define PBEM_ENGINE_CORE_FNV_H_

#include <cstdint>
#include <string_view>

namespace pbem::engine {

class Fnv1a64 {
 public:
  void Add(std::string_view bytes) {
    for (const char c : bytes) {
      hash_ ^= static_cast<std::uint8_t>(c);
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_CORE_FNV_H_
