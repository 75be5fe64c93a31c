// The main of the fuzz targets outside fuzz builds: runs LLVMFuzzerTestOneInput once on every
// file named, or in a directory named (sorted), so that each seed corpus and every crash kept
// in it is a regression test of the ordinary and sanitizer builds (ctest fuzz_replay_*).
// Exits 1 when no input was found, so an emptied corpus cannot pass.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"

namespace {

namespace fs = std::filesystem;

int Replay(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "replay: cannot read " << file << "\n";
    return 1;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg = argv[i];
    if (fs::is_directory(arg)) {
      for (const auto& entry : fs::directory_iterator(arg)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "replay: no input given or found\n";
    return 1;
  }
  int failures = 0;
  for (const fs::path& file : files) failures += Replay(file);
  std::cout << "replayed " << files.size() - static_cast<std::size_t>(failures) << " inputs\n";
  return failures == 0 ? 0 : 1;
}
