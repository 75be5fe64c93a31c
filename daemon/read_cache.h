// The encoded answers of the API's public reads that never change once made (a game's state
// after a given committed turn, the map after player-turn n), kept in memory for the next
// read, and the validators (ETag, If-None-Match) that let a client skip the body altogether.
//
// The cache never decides whether an entry is current: the caller keys each entry on what the
// database says now (storage::GameVersion, read on every request), so a commit, an end or a
// re-created game, by this process or another sharing the database, makes a new key and the
// old entry is never served again (it ages out of the LRU).
#ifndef PBEM_DAEMON_READ_CACHE_H_
#define PBEM_DAEMON_READ_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pbem::daemon {

// A least-recently-used map from key to encoded answer, bounded by the bytes it holds (keys,
// bodies and a fixed overhead per entry). Thread-safe. An answer larger than the bound is not
// kept; max_bytes 0 keeps nothing.
class ReadCache {
 public:
  struct Entry {
    std::string etag;  // with its quotes, as sent
    std::string content_type;
    std::shared_ptr<const std::string> body;
  };

  explicit ReadCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  std::optional<Entry> Get(const std::string& key);
  void Put(const std::string& key, Entry entry);

  std::size_t bytes() const;
  std::size_t entries() const;

 private:
  static std::size_t Cost(const std::string& key, const Entry& entry);

  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  std::list<std::pair<std::string, Entry>> order_;  // most recently used first
  std::unordered_map<std::string, std::list<std::pair<std::string, Entry>>::iterator> index_;
  std::size_t bytes_ = 0;
};

// A strong entity-tag for `key` (RFC 9110 8.8.3): "<label>-<16 hex digits of SHA-256(key)>",
// quotes included. `label` must be etagc characters (letters, digits, '-', '.').
std::string StrongEtag(std::string_view label, const std::string& key);

// Whether an If-None-Match field value (RFC 9110 13.1.2; several fields joined with ", ")
// names `etag`: "*", or a list of entity-tags one of which matches it by the weak comparison
// (W/"x" matches "x"). A malformed value (an unquoted tag, a stray character) matches
// nothing: the field is ignored and the full answer sent.
bool IfNoneMatchHits(std::string_view field, std::string_view etag);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_READ_CACHE_H_
