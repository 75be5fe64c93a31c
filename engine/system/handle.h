// Opaque handles: a system's own value (its loaded ruleset and scenario, a state, a set of
// orders, a verdict, an event) carried through code that must not name the system's types.
// Only the system that made a handle reads it back (As<T>), type-checked: a handle of another
// system, or of another kind, gives nullptr, never a wrong cast. Immutable and cheap to copy
// (the value is shared).
#ifndef PBEM_ENGINE_SYSTEM_HANDLE_H_
#define PBEM_ENGINE_SYSTEM_HANDLE_H_

#include <any>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace pbem::game_system {

class Handle {
 public:
  Handle() = default;

  template <typename T>
  static Handle Of(std::string_view system, T value) {
    Handle h;
    h.system_ = std::string(system);
    h.value_ = std::shared_ptr<const T>(std::make_shared<T>(std::move(value)));
    return h;
  }

  // The name of the system that made it ("" for an empty handle).
  const std::string& system() const { return system_; }
  bool empty() const { return !value_.has_value(); }

  // The value when it was made by `system` with type T, else nullptr.
  template <typename T>
  const T* As(std::string_view system) const {
    if (system != system_) return nullptr;
    const auto* p = std::any_cast<std::shared_ptr<const T>>(&value_);
    return p != nullptr ? p->get() : nullptr;
  }

 private:
  std::string system_;
  std::any value_;
};

// Distinct types so that a state cannot be passed where orders are expected.
struct Setup {  // a loaded ruleset and scenario
  Handle handle;
};
struct State {
  Handle handle;
};
struct Orders {
  Handle handle;
};

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_HANDLE_H_
