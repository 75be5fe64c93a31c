// Connectivity of a small graph given by a predicate, for M42-P14 (coherency) and WME-P05
// (formation). O(n^2) calls of `linked`: units are small.
#ifndef PBEM_ENGINE_TABLE_GRAPH_H_
#define PBEM_ENGINE_TABLE_GRAPH_H_

#include <cstddef>
#include <optional>
#include <vector>

namespace pbem::table {

// Breadth-first search from node 0; `reached[i]` tells whether node i is in node 0's group.
template <typename Linked>
std::vector<bool> ReachedFromFirst(std::size_t n, Linked linked) {
  std::vector<bool> reached(n, false);
  if (n == 0) return reached;
  std::vector<std::size_t> queue{0};
  reached[0] = true;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (std::size_t j = 0; j < n; ++j) {
      if (!reached[j] && linked(queue[head], j)) {
        reached[j] = true;
        queue.push_back(j);
      }
    }
  }
  return reached;
}

// The first node outside node 0's group, or nullopt when the graph is connected.
inline std::optional<std::size_t> FirstUnreached(const std::vector<bool>& reached) {
  for (std::size_t j = 0; j < reached.size(); ++j) {
    if (!reached[j]) return j;
  }
  return std::nullopt;
}

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_GRAPH_H_
