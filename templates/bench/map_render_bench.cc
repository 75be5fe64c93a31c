// Map rendering benchmarks (issue 6). Three images: the bundled scenario "Le Bois de la
// Morne" (30x20; loaded from engine/scenarios with the codec when it is built, else its
// transcription in templates/testing, which a test keeps identical), a generated 60x40 map
// at the default size (hexes of 22 px: 2359x1509), and the same map in a 1600 px wide image
// (hexes of 14.7 px, labels inside hexes left out). For each:
//   Draw        RenderMap alone (cairo drawing into the image surface; the two large maps
//               are drawn in two bands on two threads, DrawOneThread draws them in one)
//   EncodePng   EncodePng with the default options (ISA-L level 1), on one drawn image
//   EncodeLibdeflate  EncodePng through libdeflate (level 1), the same image
//   EncodeSpng  EncodePng through libspng (zlib level 1), the same image
//   EncodeCairo cairo's own PNG writer on the same image
//   Whole       RenderMap + EncodePng, what `pbem render` pays per map (goal: < 30 ms at 60x40)
//   WholeOneThread  the same with one thread for the drawing and one for the encoding
//   WholeTwoIdleCores  the same as Whole, timed as it would run on two idle cores (see there)
// These draw everything every time (RenderOptions::reuse_static_layer off: the first map of
// a game in a process). The *ReusedLayer cases copy the static layer (terrain, hexsides,
// roads, labels) from the cache instead, as every later turn of the same game does:
//   DrawReusedLayer, WholeReusedLayer, WholeReusedLayerOneThread,
//   WholeReusedLayerTwoIdleCores
// plus EncodePng with other levels, filters, strategies and encoders, to show why the
// defaults were chosen. Counters: png_kB is the size of the PNG produced.
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#ifdef PBEM_BENCH_WITH_CODEC
#include "proto/codec/codec.h"
#endif
#include "templates/map_renderer.h"
#include "templates/png_writer.h"
#include "templates/testing/sample_maps.h"

namespace {

using pbem::templates::EncodePng;
using pbem::templates::EncodePngWithCairo;
using pbem::templates::MapImage;
using pbem::templates::PngEncoder;
using pbem::templates::PngFilter;
using pbem::templates::PngOptions;
using pbem::templates::RenderMap;
using pbem::templates::RenderOptions;

[[maybe_unused]] const bool kFontCachesReleased =
    pbem::templates::testing::ReleaseFontCachesAtExit();

struct Sample {
  std::string name;
  pbem::engine::Ruleset ruleset;
  pbem::engine::Scenario scenario;
  pbem::engine::GameState state;
  std::vector<pbem::engine::Event> events;
  RenderOptions options;
};

// The static layer drawn every time (the first render of a map in a process), unless a
// benchmark turns reuse on.
RenderOptions NoReuse() {
  RenderOptions options;
  options.reuse_static_layer = false;
  return options;
}

Sample Bundled() {
  Sample s;
#ifdef PBEM_BENCH_WITH_CODEC
  const std::filesystem::path dir = PBEM_SOURCE_DIR;
  auto rs = pbem::codec::LoadRulesetDir(dir / "engine/rulesets/morne-plaine");
  if (rs.ok()) {
    auto sc = pbem::codec::LoadScenarioFile(dir / "engine/scenarios/bois-de-la-morne.textproto",
                                            rs.value().ruleset);
    if (sc.ok()) {
      s.name = "bundled_30x20_files";
      s.ruleset = rs.value().ruleset;
      s.scenario = sc.value().scenario;
    }
  }
#endif
  s.options = NoReuse();
  if (s.name.empty()) {
    s.name = "bundled_30x20";
    s.ruleset = pbem::templates::testing::MornePlaineRuleset();
    s.scenario = pbem::templates::testing::BoisDeLaMorne(s.ruleset);
  }
  s.state = pbem::engine::InitialState(s.scenario, "bench");
  // Blue's sample turn-1 moves (engine/scenarios/bois-de-la-morne.orders-blue.textproto).
  const auto move = [&](const char* unit, std::vector<const char*> labels) {
    std::vector<pbem::engine::Hex> path;
    for (const char* l : labels) path.push_back(*pbem::engine::ParseLabel(l));
    const pbem::engine::UnitId id = *s.scenario.FindUnit(unit);
    const auto ev = pbem::templates::testing::MoveEvents(id, path);
    s.events.insert(s.events.end(), ev.begin(), ev.end());
    s.state.unit(id).hex = path.back();
  };
  move("b-i2", {"1604", "1605", "1606", "1607", "1608", "1609", "1610"});
  move("b-lc1", {"2204", "2205", "2206", "2207", "2208", "2209"});
  return s;
}

const Sample& GetSample(int which) {
  static const Sample bundled = Bundled();
  static const Sample large = [] {
    Sample s;
    s.name = "generated_60x40";
    s.options = NoReuse();
    s.ruleset = pbem::templates::testing::MornePlaineRuleset();
    s.scenario = pbem::templates::testing::LargeSampleMap(s.ruleset, 60, 40);
    s.state = pbem::engine::InitialState(s.scenario, "bench");
    // A few moves so that arrows are part of the cost.
    for (int u = 0; u < 6; ++u) {
      const pbem::engine::UnitId id{u * 3};
      const pbem::engine::Hex from = *s.state.unit(id).hex;
      const pbem::engine::Hex to{from.q, from.r + 2};
      const pbem::engine::Hex mid{from.q, from.r + 1};
      if (s.state.UnitAt(to) || s.state.UnitAt(mid) || !s.scenario.map.Contains(to)) continue;
      const auto ev = pbem::templates::testing::MoveEvents(id, {from, mid, to});
      s.events.insert(s.events.end(), ev.begin(), ev.end());
      s.state.unit(id).hex = to;
    }
    return s;
  }();
  static const Sample narrow = [] {
    Sample s = large;
    s.name = "generated_60x40_w1600";
    s.options.max_image_width = 1600;
    return s;
  }();
  return which == 0 ? bundled : which == 1 ? large : narrow;
}

MapImage Draw(const Sample& s) {
  MapImage image;
  const auto st = RenderMap(s.ruleset, s.scenario, s.state, &s.events, s.options, &image);
  if (!st.ok) {
    std::fprintf(stderr, "render failed: %s\n", st.message.c_str());
    std::abort();
  }
  return image;
}

void SetLabel(benchmark::State& state, const Sample& s, const MapImage& image) {
  state.SetLabel(s.name + " " + std::to_string(image.width()) + "x" +
                 std::to_string(image.height()));
}

void DrawLoop(benchmark::State& state, const Sample& s) {
  MapImage image = Draw(s);  // warms fontconfig and the glyph caches (and fills the layer cache)
  for (auto _ : state) {
    image = Draw(s);
    benchmark::DoNotOptimize(image.surface());
  }
  SetLabel(state, s, image);
}

void BM_Draw(benchmark::State& state) {
  DrawLoop(state, GetSample(static_cast<int>(state.range(0))));
}

void BM_DrawReusedLayer(benchmark::State& state) {
  Sample s = GetSample(static_cast<int>(state.range(0)));
  s.options.reuse_static_layer = true;
  DrawLoop(state, s);
  if (!Draw(s).static_layer_reused()) state.SkipWithError("the static layer was not reused");
}

void Encode(benchmark::State& state, const PngOptions& options) {
  const Sample& s = GetSample(static_cast<int>(state.range(0)));
  const MapImage image = Draw(s);
  std::vector<std::uint8_t> png;
  for (auto _ : state) {
    if (!EncodePng(image.surface(), options, &png).ok) std::abort();
    benchmark::DoNotOptimize(png.data());
  }
  state.counters["png_kB"] = static_cast<double>(png.size()) / 1024.0;
  SetLabel(state, s, image);
}

void BM_DrawOneThread(benchmark::State& state) {
  Sample s = GetSample(static_cast<int>(state.range(0)));
  s.options.threads = 1;
  DrawLoop(state, s);
}

void BM_EncodePng(benchmark::State& state) { Encode(state, PngOptions{}); }

void BM_EncodeLibdeflate(benchmark::State& state) {
  PngOptions options;
  options.encoder = PngEncoder::kLibdeflate;
  Encode(state, options);
}

void BM_EncodeSpng(benchmark::State& state) {
  PngOptions options;
  options.encoder = PngEncoder::kSpng;
  Encode(state, options);
}

void BM_EncodeCairo(benchmark::State& state) {
  const Sample& s = GetSample(static_cast<int>(state.range(0)));
  const MapImage image = Draw(s);
  std::vector<std::uint8_t> png;
  for (auto _ : state) {
    if (!EncodePngWithCairo(image.surface(), &png).ok) std::abort();
    benchmark::DoNotOptimize(png.data());
  }
  state.counters["png_kB"] = static_cast<double>(png.size()) / 1024.0;
  SetLabel(state, s, image);
}

// RenderMap + EncodePng; threads 0: automatic, 1: one thread for each.
void WholeLoop(benchmark::State& state, Sample s, bool reuse, int threads) {
  s.options.reuse_static_layer = reuse;
  s.options.threads = threads;
  PngOptions png_options;
  png_options.threads = threads;
  MapImage image = Draw(s);
  std::vector<std::uint8_t> png;
  for (auto _ : state) {
    image = Draw(s);
    if (!EncodePng(image.surface(), png_options, &png).ok) std::abort();
    benchmark::DoNotOptimize(png.data());
  }
  if (reuse && !image.static_layer_reused()) state.SkipWithError("the static layer was not reused");
  state.counters["png_kB"] = static_cast<double>(png.size()) / 1024.0;
  SetLabel(state, s, image);
}

void BM_Whole(benchmark::State& state) {
  WholeLoop(state, GetSample(static_cast<int>(state.range(0))), false, 0);
}
void BM_WholeOneThread(benchmark::State& state) {
  WholeLoop(state, GetSample(static_cast<int>(state.range(0))), false, 1);
}
void BM_WholeReusedLayer(benchmark::State& state) {
  WholeLoop(state, GetSample(static_cast<int>(state.range(0))), true, 0);
}
void BM_WholeReusedLayerOneThread(benchmark::State& state) {
  WholeLoop(state, GetSample(static_cast<int>(state.range(0))), true, 1);
}

// What BM_Whole would take on two idle cores, measured on a busy machine: each phase (draw,
// encode) runs on two threads; its time on idle cores is the larger of the two threads' CPU
// times (the calling thread's, from CLOCK_THREAD_CPUTIME_ID, and the rest of the process's).
// Reported as manual time. Valid for the two large maps (two bands, two encoder threads).
double CpuMs(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

void TwoIdleCoresLoop(benchmark::State& state, Sample s, bool reuse) {
  s.options.reuse_static_layer = reuse;
  MapImage image = Draw(s);
  std::vector<std::uint8_t> png;
  double draw_total = 0;
  double encode_total = 0;
  for (auto _ : state) {
    const double t0 = CpuMs(CLOCK_THREAD_CPUTIME_ID);
    const double p0 = CpuMs(CLOCK_PROCESS_CPUTIME_ID);
    image = Draw(s);
    const double t1 = CpuMs(CLOCK_THREAD_CPUTIME_ID);
    const double p1 = CpuMs(CLOCK_PROCESS_CPUTIME_ID);
    if (!EncodePng(image.surface(), PngOptions{}, &png).ok) std::abort();
    const double t2 = CpuMs(CLOCK_THREAD_CPUTIME_ID);
    const double p2 = CpuMs(CLOCK_PROCESS_CPUTIME_ID);
    const double draw = std::max(t1 - t0, (p1 - p0) - (t1 - t0));
    const double encode = std::max(t2 - t1, (p2 - p1) - (t2 - t1));
    draw_total += draw;
    encode_total += encode;
    state.SetIterationTime((draw + encode) / 1e3);
  }
  if (reuse && !image.static_layer_reused()) state.SkipWithError("the static layer was not reused");
  const double n = static_cast<double>(state.iterations());
  state.counters["draw_ms"] = draw_total / n;
  state.counters["encode_ms"] = encode_total / n;
  SetLabel(state, s, image);
}

void BM_WholeTwoIdleCores(benchmark::State& state) {
  TwoIdleCoresLoop(state, GetSample(static_cast<int>(state.range(0))), false);
}
void BM_WholeReusedLayerTwoIdleCores(benchmark::State& state) {
  TwoIdleCoresLoop(state, GetSample(static_cast<int>(state.range(0))), true);
}

// Other settings on the 60x40 image: range(0) level, range(1) zlib strategy, range(2) filter,
// range(3) encoder (0 libdeflate, 1 libspng, 2 ISA-L; libdeflate and ISA-L only take filter
// none, strategy 0), range(4) threads (0 auto, 1 one thread, 2: a second thread compresses
// the top rows: ISA-L half of them, zlib beside libdeflate 7/16).
void BM_EncodeSettings(benchmark::State& state) {
  const Sample& s = GetSample(1);
  const MapImage image = Draw(s);
  PngOptions options;
  options.compression_level = static_cast<int>(state.range(0));
  options.compression_strategy = static_cast<int>(state.range(1));
  options.filter = static_cast<PngFilter>(state.range(2));
  options.encoder = static_cast<PngEncoder>(state.range(3));
  options.threads = static_cast<int>(state.range(4));
  std::vector<std::uint8_t> png;
  for (auto _ : state) {
    if (!EncodePng(image.surface(), options, &png).ok) std::abort();
    benchmark::DoNotOptimize(png.data());
  }
  state.counters["png_kB"] = static_cast<double>(png.size()) / 1024.0;
  static constexpr const char* kFilters[] = {"none", "sub", "up", "avg", "paeth", "adaptive"};
  static constexpr const char* kStrategies[] = {"default", "filtered", "huffman", "rle"};
  const bool plain = options.filter == PngFilter::kNone && options.compression_strategy == 0;
  const bool isal = plain && options.encoder == PngEncoder::kIsal && pbem::templates::HaveIsal() &&
                    options.compression_level <= 3;
  const bool libdeflate =
      plain && !isal && options.encoder != PngEncoder::kSpng && pbem::templates::HaveLibdeflate();
  state.SetLabel(
      std::string(isal         ? "ISA-L"
                  : libdeflate ? "libdeflate"
                               : "libspng") +
      (isal || libdeflate ? " threads " + std::to_string(options.threads) : std::string()) +
      " level " + std::to_string(options.compression_level) + " " +
      kStrategies[options.compression_strategy] + " filter " +
      kFilters[static_cast<int>(options.filter)]);
}

// With --benchmark_repetitions=N, the "min" line is the best estimate on a busy machine.
// CPU times are the whole process's (large maps are drawn on two threads): compare the wall
// ("Time") column with the goal, the CPU column with what the machine pays.
double Min(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

BENCHMARK(BM_Draw)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DrawReusedLayer)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DrawOneThread)
    ->DenseRange(1, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodePng)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeLibdeflate)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeSpng)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeCairo)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Whole)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WholeOneThread)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WholeTwoIdleCores)
    ->DenseRange(1, 2)
    ->UseManualTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WholeReusedLayer)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WholeReusedLayerOneThread)
    ->DenseRange(0, 2)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WholeReusedLayerTwoIdleCores)
    ->DenseRange(1, 2)
    ->UseManualTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeSettings)
    ->Args({1, 0, 0, 2, 0})  // the default: ISA-L level 1, no filter, two threads
    ->Args({1, 0, 0, 2, 1})  // ISA-L level 1, one thread
    ->Args({0, 0, 0, 2, 1})  // ISA-L level 0
    ->Args({2, 0, 0, 2, 1})  // ISA-L level 2
    ->Args({3, 0, 0, 2, 1})  // ISA-L level 3
    ->Args({1, 0, 0, 0, 0})  // libdeflate level 1, no filter, zlib beside it
    ->Args({1, 0, 0, 0, 1})  // libdeflate level 1 alone
    ->Args({2, 0, 0, 0, 1})  // libdeflate level 2
    ->Args({6, 0, 0, 0, 1})  // libdeflate level 6
    ->Args({1, 0, 0, 1, 0})  // libspng (zlib) level 1, no filter: the former default
    ->Args({1, 0, 2, 1, 0})  // zlib level 1, up filter
    ->Args({1, 3, 2, 1, 0})  // zlib level 1, RLE, up filter
    ->Args({2, 0, 0, 1, 0})  // zlib level 2
    ->Args({6, 0, 5, 1, 0})  // zlib's default level with the adaptive filter (what libpng does)
    ->MeasureProcessCPUTime()
    ->ComputeStatistics("min", Min)
    ->Unit(benchmark::kMillisecond);

}  // namespace
