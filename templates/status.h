// The result of an operation of the templates module that can fail for operational reasons
// (a file cannot be written, an encoder refuses its input). No exception leaves templates/.
#ifndef PBEM_TEMPLATES_STATUS_H_
#define PBEM_TEMPLATES_STATUS_H_

#include <string>
#include <utility>

namespace pbem::templates {

struct [[nodiscard]] Status {
  bool ok = true;
  std::string message;  // empty when ok; otherwise what failed and why, in English for logs

  static Status Ok() { return Status{}; }
  static Status Error(std::string message) { return Status{false, std::move(message)}; }
};

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_STATUS_H_
