#include "trace/recorder.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <latch>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <vector>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "trace/gzip_members.h"
#include "trace/record.h"
#include "trace_lines.h"

namespace dlbench::trace {
namespace {

using test::Named;
using test::ReadTrace;
using test::TestRecorderOptions;

TEST(Recorder, WritesABracketedTraceOfParseableLinesWithPerfettoFields) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    NameThread("trainer");
    {
      Span epoch(Event::kEpochBlock, {1});
      Span compute(Event::kCompute, {1, 7});
    }
    recorder.finish();
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  EXPECT_TRUE(trace.opened);
  EXPECT_TRUE(trace.closed);
  EXPECT_TRUE(trace.complete_gzip);
  for (const auto& e : trace.events) {
    ASSERT_TRUE(e.contains("name") && e.contains("cat") && e.contains("pid") && e.contains("tid") &&
                e.contains("ph"))
        << e.dump();
    if (e["ph"] == "X") {
      EXPECT_TRUE(e["ts"].is_number() && e["dur"].is_number()) << e.dump();
    } else {
      EXPECT_EQ(e["ph"], "M") << e.dump();
    }
  }
  const auto compute = Named(trace, "compute");
  ASSERT_EQ(compute.size(), 1u);
  EXPECT_EQ(compute[0]["cat"], "compute");
  EXPECT_EQ(compute[0]["args"]["epoch"], 1);
  EXPECT_EQ(compute[0]["args"]["step"], 7);
  ASSERT_EQ(Named(trace, "epoch.block").size(), 1u);
  EXPECT_EQ(Named(trace, "epoch.block")[0]["cat"], "pipeline");
  bool process_named = false, thread_named = false;
  for (const auto& e : trace.events) {
    if (e["name"] == "process_name") process_named = e["args"]["name"] == "Rank 1";
    if (e["name"] == "thread_name" && e["args"]["name"] == "trainer") {
      thread_named = e["tid"] == compute[0]["tid"];
    }
  }
  EXPECT_TRUE(process_named);
  EXPECT_TRUE(thread_named);
  EXPECT_EQ(Named(trace, "start").size(), 1u);
  ASSERT_EQ(Named(trace, "end").size(), 1u);
  EXPECT_EQ(Named(trace, "end")[0]["args"]["num_events"], 2);
}

TEST(Recorder, TimesAreWholeMicrosecondsOfTheAlignedClock) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw");
  options.compress = false;
  options.steady_origin_ns = 1'000'000'000;
  options.wall_origin_ns = 1'700'000'000'000'000'000;
  {
    Recorder recorder(options);
    Record(Event::kCompute, 1'000'001'234, 1'000'003'235, {1, 1});
    // A child 30 ns inside both ends of its parent: floored to the µs, it still nests (its
    // exact duration written after a floored start would end past the parent's end).
    Record(Event::kRead, 1'000'010'980, 1'000'020'920);
    Record(Event::kItem, 1'000'010'950, 1'000'020'950);
    recorder.finish();
  }
  const std::string text = test::ReadBytes(dir / "t.pfw");
  EXPECT_NE(text.find("\"ts\":1700000000000001,\"dur\":2,\"ph\":\"X\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"name\":\"pread64\",\"cat\":\"POSIX\",\"pid\""), std::string::npos) << text;
  EXPECT_EQ(text.find("\"id\":"), std::string::npos) << text;
  for (const char* name : {"pread64", "item"}) {
    const std::size_t at = text.find(std::string("\"name\":\"") + name);
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_NE(text.find("\"ts\":1700000000000010,\"dur\":10,", at), std::string::npos) << text;
  }
}

TEST(Recorder, SpansOfOneThreadNestAndThreadsKeepTheirEvents) {
  test::TempDir dir;
  constexpr int kThreads = 4;
  constexpr int kOuter = 500;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([t] {
        NameThread("reader-" + std::to_string(t));
        for (int i = 0; i < kOuter; ++i) {
          Span item(Event::kItem, {i, 4096, 0});
          Span pre(Event::kPreprocess, {i});
        }
      });
    }
    for (auto& t : threads) t.join();
    const TraceStats stats = recorder.finish();
    EXPECT_EQ(stats.events, 2u * kThreads * kOuter);
    EXPECT_EQ(stats.dropped, 0u);
    EXPECT_GE(stats.threads, 1u);  // a thread that exits hands its buffer to the next one
    EXPECT_LE(stats.threads, static_cast<std::uint64_t>(kThreads));
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  std::map<int, std::vector<nlohmann::json>> items;  // by tid
  for (const auto& e : Named(trace, "item")) items[e["tid"]].push_back(e);
  ASSERT_EQ(items.size(), static_cast<std::size_t>(kThreads));
  for (const auto& e : Named(trace, "preprocess")) {
    // Inside the item of the same index on the same thread.
    bool inside = false;
    for (const auto& item : items[e["tid"]]) {
      if (item["args"]["image_idx"] != e["args"]["image_idx"]) continue;
      inside = test::Within(e, item);
    }
    EXPECT_TRUE(inside) << e.dump();
  }
}

TEST(Recorder, ThreadsThatExitHandTheirBufferToTheNextOnes) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    for (int t = 0; t < 10; ++t) {  // one reader pool after another, as epochs start them
      std::thread([t] {
        for (int i = 0; i < 100; ++i) Record(Event::kItem, i, i + 1, {t, i, 0});
      }).join();
    }
    const TraceStats stats = recorder.finish();
    EXPECT_EQ(stats.threads, 1u);
    EXPECT_EQ(stats.events, 1000u);
  }
  std::map<int, std::set<int>> tids;  // per thread (image_idx = t), the tids its events carry
  for (const auto& e : Named(ReadTrace(dir / "t.pfw.gz"), "item")) {
    tids[e["args"]["image_idx"]].insert(e["tid"].get<int>());
  }
  ASSERT_EQ(tids.size(), 10u);
  std::set<int> all;
  for (const auto& [t, set] : tids) {
    EXPECT_EQ(set.size(), 1u);
    all.insert(*set.begin());
  }
  EXPECT_EQ(all.size(), 10u);  // each thread's own tid, though they shared one buffer
}

// A thread's buffer is its own while it lives: a second thread that starts recording meanwhile gets
// another one. (It once did not: the thread's cache was assigned from a temporary whose destructor
// handed the buffer back at once, so the next thread shared it, and two producers on one ring
// published slots before they were written — an intermittent ASan report in the test above.)
TEST(Recorder, ThreadsAliveAtOnceNeverShareABuffer) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    std::latch first_recorded(1), second_done(1);
    std::thread first([&] {
      for (int i = 0; i < 100; ++i) Record(Event::kItem, i, i + 1, {0, 4096, i});
      first_recorded.count_down();
      second_done.wait();
      for (int i = 100; i < 200; ++i) Record(Event::kItem, i, i + 1, {0, 4096, i});
    });
    std::thread second([&] {
      first_recorded.wait();
      for (int i = 0; i < 100; ++i) Record(Event::kItem, i, i + 1, {1, 4096, i});
      second_done.count_down();
    });
    first.join();
    second.join();
    const TraceStats stats = recorder.finish();
    EXPECT_EQ(stats.threads, 2u);
    EXPECT_EQ(stats.events, 300u);
  }
  std::map<int, std::vector<int>> steps;  // per thread (image_idx), its events' step in file order
  for (const auto& e : Named(ReadTrace(dir / "t.pfw.gz"), "item")) {
    steps[e["args"]["image_idx"]].push_back(e["args"]["step"]);
  }
  ASSERT_EQ(steps.size(), 2u);
  for (const auto& [t, got] : steps) {
    ASSERT_EQ(got.size(), t == 0 ? 200u : 100u) << "thread " << t;
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], static_cast<int>(i));
  }
}

TEST(Recorder, TotalsPerKindHoldTheEventsWrittenAndTheirDurations) {
  test::TempDir dir;
  Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
  for (int i = 0; i < 10; ++i) {
    const std::int64_t start = NowNs();
    Record(Event::kItem, start, start + 3000000, {i, 4096, 0});      // 3 ms
    Record(Event::kPreprocess, start + 1000, start + 2001000, {i});  // 2 ms, inside
  }
  Record(Event::kRead, NowNs(), NowNs() + 500, {4096, 0, 4096});
  const TraceStats stats = recorder.finish();
  const auto at = [&](Event e) { return stats.totals[static_cast<std::size_t>(e)]; };
  EXPECT_EQ(at(Event::kItem).count, 10u);
  EXPECT_EQ(at(Event::kItem).dur_ns, 30000000);
  EXPECT_EQ(at(Event::kPreprocess).count, 10u);
  EXPECT_EQ(at(Event::kPreprocess).dur_ns, 20000000);
  EXPECT_EQ(at(Event::kRead).count, 1u);
  EXPECT_EQ(at(Event::kCompute).count, 0u);
  std::uint64_t all = 0;
  for (const EventTotal& total : stats.totals) all += total.count;
  EXPECT_EQ(all, stats.events);
}

TEST(Recorder, DropPolicyCountsEveryDiscardedEvent) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.policy = OverflowPolicy::kDrop;
  options.buffer_events = kMinBufferEvents;
  options.poll_interval = std::chrono::hours(1);  // the writer never looks before Finish
  {
    Recorder recorder(options);
    for (int i = 0; i < 1000; ++i) Record(Event::kCompute, i, i + 1, {1, i});
    const TraceStats stats = recorder.finish();
    EXPECT_EQ(stats.events, kMinBufferEvents);
    EXPECT_EQ(stats.dropped, 1000u - kMinBufferEvents);
    EXPECT_EQ(stats.blocked, 0u);
    EXPECT_EQ(stats.totals[static_cast<std::size_t>(Event::kCompute)].count, kMinBufferEvents);
  }
  EXPECT_EQ(Named(ReadTrace(dir / "t.pfw.gz"), "compute").size(), kMinBufferEvents);
}

TEST(Recorder, BlockPolicyWaitsForTheWriterAndCountsTheWaits) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.buffer_events = kMinBufferEvents;
  options.poll_interval = std::chrono::hours(1);  // only a blocked producer wakes the writer
  {
    Recorder recorder(options);
    for (int i = 0; i < 1000; ++i) Record(Event::kCompute, i, i + 1, {1, i});
    const TraceStats stats = recorder.finish();
    EXPECT_EQ(stats.events, 1000u);
    EXPECT_EQ(stats.dropped, 0u);
    EXPECT_GE(stats.blocked, 1u);
    EXPECT_GT(stats.blocked_seconds, 0.0);
  }
  const auto compute = Named(ReadTrace(dir / "t.pfw.gz"), "compute");
  ASSERT_EQ(compute.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(compute[static_cast<std::size_t>(i)]["args"]["step"], i);
}

// The writer runs at the priority asked (profiling.trace_writer_priority) from the moment the
// constructor returns, read back from the writer thread itself; the constructing thread keeps its
// own.
TEST(Recorder, TheWriterThreadRunsAtTheAskedPriority) {
  test::TempDir dir;
  errno = 0;
  const int own_nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
  const int own_policy = ::sched_getscheduler(0);
  struct Case {
    std::optional<ThreadPriority> asked;
    int policy;
    int nice;
  };
  for (const Case& c : {Case{ThreadPriority::kIdle, SCHED_IDLE, own_nice},
                        Case{ThreadPriority::kLow, own_policy, std::max(own_nice, 10)},
                        Case{std::nullopt, own_policy, own_nice}}) {
    RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
    options.writer_priority = c.asked;
    Recorder recorder(options);
    const auto writer = static_cast<pid_t>(recorder.writer_thread_id());
    ASSERT_GT(writer, 0);
    EXPECT_NE(writer, ::gettid());
    EXPECT_EQ(::sched_getscheduler(writer), c.policy);
    errno = 0;
    EXPECT_EQ(::getpriority(PRIO_PROCESS, static_cast<id_t>(writer)), c.nice);
    EXPECT_EQ(errno, 0);
    recorder.finish();
  }
  EXPECT_EQ(::sched_getscheduler(0), own_policy);
  EXPECT_EQ(::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid())), own_nice);
}

TEST(Recorder, FlushEmptiesTheBuffersSoAFullOneTakesEventsAgainWithoutWaiting) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.buffer_events = kMinBufferEvents;
  options.poll_interval = std::chrono::hours(1);  // only flush (or a blocked producer) wakes it
  {
    Recorder recorder(options);
    for (int round = 0; round < 3; ++round) {
      for (std::size_t i = 0; i < kMinBufferEvents; ++i) {
        Record(Event::kCompute, 0, 1, {round, static_cast<std::int64_t>(i)});
      }
      recorder.flush();
    }
    const TraceStats stats = recorder.finish();
    EXPECT_EQ(stats.events, 3 * kMinBufferEvents);
    EXPECT_EQ(stats.blocked, 0u);  // each round found the buffer empty
    EXPECT_EQ(stats.dropped, 0u);
    recorder.flush();  // after finish: returns
  }
  EXPECT_EQ(Named(ReadTrace(dir / "t.pfw.gz"), "compute").size(), 3 * kMinBufferEvents);
}

TEST(Recorder, ATruncatedFileStillInflatesUpToItsLastCompleteMember) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.member_bytes = 4096;  // many members
  {
    Recorder recorder(options);
    for (int i = 0; i < 2000; ++i) Record(Event::kCompute, i, i + 1, {1, i});
    EXPECT_GT(recorder.finish().members, 10u);
  }
  const std::string bytes = test::ReadBytes(dir / "t.pfw.gz");
  const Inflated cut = InflateMembers(std::string_view(bytes).substr(0, bytes.size() / 2));
  EXPECT_FALSE(cut.complete);
  const auto partial = test::ParseTraceText(cut.text);  // every kept line parses
  EXPECT_TRUE(partial.opened);
  EXPECT_FALSE(partial.closed);
  const auto compute = Named(partial, "compute");
  EXPECT_GT(compute.size(), 100u);
  EXPECT_LT(compute.size(), 2000u);
  // Members end on line boundaries: the kept events are the first ones, in order.
  for (std::size_t i = 0; i < compute.size(); ++i) EXPECT_EQ(compute[i]["args"]["step"], i);
}

TEST(Recorder, SamplingKeepsAboutOneInN) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.sample = 4;
  Recorder recorder(options);
  int kept = 0;
  for (std::uint64_t key = 0; key < 4000; ++key) kept += Sampled(key) ? 1 : 0;
  EXPECT_GT(kept, 800);
  EXPECT_LT(kept, 1200);
  recorder.finish();
  EXPECT_TRUE(Sampled(3));  // no recorder: everything
}

TEST(Recorder, OneActiveRecorderAtATimeAndBadOptionsAreUsageErrors) {
  test::TempDir dir;
  Recorder recorder(TestRecorderOptions(dir / "a.pfw.gz"));
  test::ExpectError([&] { Recorder second(TestRecorderOptions(dir / "b.pfw.gz")); },
                    ExitCode::kInternal, {"active"});
  RecorderOptions bad = TestRecorderOptions(dir / "c.pfw.gz");
  bad.sample = 0;
  test::ExpectError([&] { Recorder r(bad); }, ExitCode::kUsage, {"trace_sample"});
  bad = TestRecorderOptions(dir / "d.pfw.gz");
  bad.buffer_events = kMinBufferEvents - 1;
  test::ExpectError([&] { Recorder r(bad); }, ExitCode::kUsage, {"trace_buffer_events"});
}

TEST(Recorder, AnUnwritableFileIsAnIoErrorNamingIt) {
  test::TempDir dir;
  test::ExpectError([&] { Recorder r(TestRecorderOptions(dir / "no" / "such" / "t.pfw.gz")); },
                    ExitCode::kIo, {"t.pfw.gz"});
  EXPECT_EQ(Active(), nullptr);
}

TEST(Recorder, TracksKeepOverlappingIntervalsApart) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    const std::vector<Interval> files{{1.0, 3.0, 10}, {2.0, 4.0, 20}, {3.5, 5.0, 30}};
    RecordOnTracks(Event::kCapture, files);
    recorder.finish();
  }
  const auto captures = Named(ReadTrace(dir / "t.pfw.gz"), "capture");
  ASSERT_EQ(captures.size(), 3u);
  EXPECT_EQ(captures[0]["tid"], captures[2]["tid"]);  // 1-3 then 3.5-5 on the first track
  EXPECT_NE(captures[0]["tid"], captures[1]["tid"]);
  EXPECT_EQ(captures[1]["args"]["size"], 20);
}

TEST(Recorder, AThreadNamedTwiceWithOneNameHasOneThreadNameLine) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    NameThread("trainer");
    Span compute(Event::kCompute, {1, 1});
    NameThread("trainer");  // the run names the thread, then its phase does
    recorder.finish();
  }
  {
    Recorder recorder(TestRecorderOptions(dir / "u.pfw.gz"));
    std::thread([] {  // a thread of its own: this one's name is remembered for later recorders
      NameThread("main");
      NameThread("trainer");  // renamed: both lines, the last one is Perfetto's
    })
        .join();
    recorder.finish();
  }
  // Per thread, its thread_name lines in order.
  const auto names = [&](const char* file) {
    std::map<std::int64_t, std::vector<std::string>> by_thread;
    for (const auto& e : ReadTrace(dir / file).events) {
      if (e["name"] == "thread_name") by_thread[e["tid"]].push_back(e["args"]["name"]);
    }
    return by_thread;
  };
  const auto t = names("t.pfw.gz");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.begin()->second, std::vector<std::string>{"trainer"});
  const auto u = names("u.pfw.gz");  // this thread (remembered "trainer") and the renamed one
  ASSERT_EQ(u.size(), 2u);
  std::vector<std::vector<std::string>> lists;
  for (const auto& [tid, list] : u) lists.push_back(list);
  std::sort(lists.begin(), lists.end());
  EXPECT_EQ(lists, (std::vector<std::vector<std::string>>{{"main", "trainer"}, {"trainer"}}));
}

TEST(Recorder, EachEventCarriesItsOwnFilesIdWhenThreadsInterleaveFiles) {
  test::TempDir dir;
  const std::uint64_t a = HashPath("/data/a");
  const std::uint64_t b = HashPath("/data/b");
  const auto at = [](int k) { return std::int64_t{1'000'000} * k; };  // event k starts at k ms
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    Record(Event::kOpen, at(1), at(1) + 500, {}, a, "/data/a");
    Record(Event::kRead, at(2), at(2) + 500, {}, a);
    std::thread([&] {
      Record(Event::kRead, at(3), at(3) + 500, {}, b);  // b seen before its open (and its path)
      Record(Event::kRead, at(4), at(4) + 500, {}, a);
    }).join();
    Record(Event::kOpen, at(5), at(5) + 500, {}, b, "/data/b");
    Record(Event::kRead, at(6), at(6) + 500, {}, b);
    Record(Event::kRead, at(7), at(7) + 500, {}, a);
    Record(Event::kCompute, at(8), at(8) + 500, {1, 1});
    recorder.finish();
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  std::map<std::int64_t, std::string> paths;  // fhash -> path, from the FH lines
  for (const auto& e : trace.events) {
    if (e["name"] == "FH") paths[e["args"]["value"].get<std::int64_t>()] = e["args"]["name"];
  }
  ASSERT_EQ(paths.size(), 2u);
  std::map<double, std::string> by_start;  // ts -> the event's file
  for (const auto& e : trace.events) {
    if (e["ph"] == "X" && e["cat"] == "POSIX") {
      by_start[e["ts"].get<double>()] = paths.at(e["args"]["fhash"].get<std::int64_t>());
    }
  }
  std::vector<std::string> files;
  for (const auto& [ts, path] : by_start) files.push_back(path);
  EXPECT_EQ(files, (std::vector<std::string>{"/data/a", "/data/a", "/data/b", "/data/a", "/data/b",
                                             "/data/b", "/data/a"}));
  const auto compute = Named(trace, "compute");
  ASSERT_EQ(compute.size(), 1u);
  EXPECT_FALSE(compute[0]["args"].contains("fhash"));
}
// A writer thread that cannot start (std::thread throws std::system_error when the system refuses
// one) leaves no recorder registered: nothing records into the object that was never built, and
// the next recorder starts.
TEST(Recorder, AWriterThreadThatFailsToStartLeavesNoRecorderActive) {
  test::TempDir dir;
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.start_writer = [](std::function<void()>) -> std::thread {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "thread");
  };
  NameThread("main");  // registered before the thread starts: undone as well
  EXPECT_THROW(Recorder{options}, std::system_error);
  EXPECT_EQ(Active(), nullptr);
  Record(Event::kCompute, 1000, 2000, {1, 1});                              // a no-op
  std::thread([] { Record(Event::kCompute, 1000, 2000, {1, 2}); }).join();  // hands nothing back
  {
    Recorder recorder(TestRecorderOptions(dir / "u.pfw.gz"));
    EXPECT_EQ(Active(), &recorder);
    Record(Event::kCompute, 3000, 4000, {1, 3});
    EXPECT_EQ(recorder.finish().events, 1u);
  }
  EXPECT_EQ(Active(), nullptr);
  NameThread("");
}

// The smallest buffer holds one event with the longest path: under the block policy a buffer
// smaller than that event (64 slots held one, a 4 KiB path needs 65) waited forever.
TEST(Recorder, TheSmallestBufferHoldsAnEventWithTheLongestPath) {
  test::TempDir dir;
  const std::string path = "/" + std::string(kMaxPathBytes + 100, 'p');
  {
    RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
    options.buffer_events = kMinBufferEvents;
    options.policy = OverflowPolicy::kBlock;
    Recorder recorder(options);
    for (int k = 0; k < 3; ++k) Record(Event::kOpen, k * 1000, k * 1000 + 500, {}, 7, path);
    recorder.finish();
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  int opens = 0;
  for (const auto& e : trace.events) opens += e["ph"] == "X" && e["cat"] == "POSIX" ? 1 : 0;
  EXPECT_EQ(opens, 3);
}
}  // namespace
}  // namespace dlbench::trace
