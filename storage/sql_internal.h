// Internal to the SQL repository's implementation (storage/sql_*.cc), not for its users: the
// Poco::Data keywords, row conversions, the write transaction and Guarded, shared by the files
// that SqlRepository's methods are split into:
//   sql_repository.cc  connections, reconnection, the schema migrations
//   sql_games.cc       games, players, tokens, submissions
//   sql_turns.cc       turns, open turns, pauses, deadlines, endings, scheduling, failures
//   sql_outbox.cc      the outbox and named locks
//   sql_leagues.cc     LeagueRepository: leagues, players, games, ratings, seasons, corrections
#ifndef PBEM_STORAGE_SQL_INTERNAL_H_
#define PBEM_STORAGE_SQL_INTERNAL_H_

#include <Poco/Data/DataException.h>
#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>

#include <chrono>
#include <exception>
#include <string>
#include <string_view>

#include "storage/sql_repository.h"

namespace pbem::storage {
namespace sql_internal {

using Poco::Data::BLOB;
using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using Poco::Data::Keywords::use;

inline void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

inline BLOB ToBlob(const Bytes& bytes) {
  return BLOB(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

inline Bytes FromBlob(const BLOB& blob) {
  if (blob.size() == 0) return Bytes();
  return Bytes(reinterpret_cast<const char*>(blob.rawContent()), blob.size());
}

inline Timestamp FromMillis(Poco::Int64 ms) { return Timestamp(std::chrono::milliseconds(ms)); }
inline Poco::Int64 ToMillis(Timestamp t) { return t.time_since_epoch().count(); }

inline std::string ChannelName(Channel channel) {
  switch (channel) {
    case Channel::kMail:
      return "mail";
    case Channel::kHttp:
      return "http";
  }
  return "mail";
}

inline Channel ChannelFromName(const std::string& name) {
  return name == "http" ? Channel::kHttp : Channel::kMail;
}

// Comparing hex digests of a secret: no early exit on the first difference.
inline bool SameDigest(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

}  // namespace sql_internal

// A write transaction: begun on construction, rolled back on destruction unless committed.
class SqlRepository::Transaction {
 public:
  Transaction(Poco::Data::Session& session, const SqlDialect& dialect) : session_(session) {
    if (dialect.begin_write.empty()) {
      session_.begin();
      uses_session_api_ = true;
    } else {
      session_ << dialect.begin_write, sql_internal::now;
    }
  }
  ~Transaction() {
    if (done_) return;
    try {
      if (uses_session_api_) {
        session_.rollback();
      } else {
        session_ << "ROLLBACK", sql_internal::now;
      }
    } catch (...) {  // never throw from a destructor
      // The connection is broken; the database rolls back on its own.
    }
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void Commit() {
    if (uses_session_api_) {
      session_.commit();
    } else {
      session_ << "COMMIT", sql_internal::now;
    }
    done_ = true;
  }

 private:
  Poco::Data::Session& session_;
  bool uses_session_api_ = false;
  bool done_ = false;
};

template <typename Body>
auto SqlRepository::Guarded(const std::string& what, Body body, LostLocks lost)
    -> decltype(body()) {
  if (Status ready = Ready(what, lost); !ready.ok()) return ready;
  try {
    return body();
  } catch (const Poco::Exception& e) {
    return Failed(what, e.displayText());
  } catch (const std::exception& e) {
    return Status::Internal(what + ": " + e.what());
  }
}

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_SQL_INTERNAL_H_
