#include "daemon/read_cache.h"

#include <utility>

#include "storage/game_repository.h"

namespace pbem::daemon {

std::size_t ReadCache::Cost(const std::string& key, const Entry& entry) {
  constexpr std::size_t kOverhead = 160;  // list and map nodes, the strings' own sizes
  return kOverhead + key.size() + entry.etag.size() + entry.content_type.size() +
         (entry.body ? entry.body->size() : 0);
}

std::optional<ReadCache::Entry> ReadCache::Get(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto found = index_.find(key);
  if (found == index_.end()) return std::nullopt;
  order_.splice(order_.begin(), order_, found->second);
  return found->second->second;
}

void ReadCache::Put(const std::string& key, Entry entry) {
  const std::size_t cost = Cost(key, entry);
  if (cost > max_bytes_) return;
  std::lock_guard lock(mutex_);
  if (auto found = index_.find(key); found != index_.end()) {
    bytes_ -= Cost(key, found->second->second);
    order_.erase(found->second);
    index_.erase(found);
  }
  while (!order_.empty() && bytes_ + cost > max_bytes_) {
    bytes_ -= Cost(order_.back().first, order_.back().second);
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  order_.emplace_front(key, std::move(entry));
  index_.emplace(key, order_.begin());
  bytes_ += cost;
}

std::size_t ReadCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::size_t ReadCache::entries() const {
  std::lock_guard lock(mutex_);
  return order_.size();
}

std::string StrongEtag(std::string_view label, const std::string& key) {
  return "\"" + std::string(label) + "-" + storage::Sha256Hex(key).substr(0, 16) + "\"";
}

namespace {

bool IsOws(char c) { return c == ' ' || c == '\t'; }

// etagc = %x21 / %x23-7E / obs-text
bool IsEtagc(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u == 0x21 || (u >= 0x23 && u != 0x7F);
}

// The opaque-tag of an entity-tag (its quotes included), W/ dropped.
std::string_view Opaque(std::string_view tag) {
  return tag.substr(0, 2) == "W/" ? tag.substr(2) : tag;
}

}  // namespace

bool IfNoneMatchHits(std::string_view field, std::string_view etag) {
  std::size_t begin = 0, end = field.size();
  while (begin < end && IsOws(field[begin])) ++begin;
  while (end > begin && IsOws(field[end - 1])) --end;
  field = field.substr(begin, end - begin);
  if (field == "*") return true;
  const std::string_view wanted = Opaque(etag);
  bool hit = false;
  std::size_t i = 0;
  while (i < field.size()) {
    // Empty list elements (", ,") are allowed: skip separators first.
    if (IsOws(field[i]) || field[i] == ',') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    if (field.substr(i, 2) == "W/") i += 2;
    if (i >= field.size() || field[i] != '"') return false;
    ++i;
    while (i < field.size() && field[i] != '"') {
      if (!IsEtagc(field[i])) return false;
      ++i;
    }
    if (i >= field.size()) return false;  // no closing quote
    ++i;
    if (Opaque(field.substr(start, i - start)) == wanted) hit = true;
    while (i < field.size() && IsOws(field[i])) ++i;
    if (i < field.size() && field[i] != ',') return false;
  }
  return hit;
}

}  // namespace pbem::daemon
