// CHECK for programming errors (house style: errors 3). Unlike assert() it
// stays on in release builds: a broken contract aborts with file and line
// instead of reading or writing out of bounds.
#ifndef PBEM_ENGINE_CORE_CHECK_H_
#define PBEM_ENGINE_CORE_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define PBEM_CHECK(cond)                                                            \
  do {                                                                              \
    if (!(cond)) [[unlikely]] {                                                     \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                 \
    }                                                                               \
  } while (false)

#endif  // PBEM_ENGINE_CORE_CHECK_H_
