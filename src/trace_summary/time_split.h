// One rank's wall time split into compute, I/O and their overlap, from complete events that
// arrive in any order, in memory bounded by kMaxBins whatever the trace's length.
//
// Time is cut into bins (1 ms; the width doubles, merging neighbours, whenever the run would need
// more than kMaxBins). Each bin adds up the microseconds of compute and of I/O events that fall in
// it, each capped at the bin's width (the union within one class: exact when events of a class do
// not overlap inside a bin). A bin's overlap is max(0, compute + I/O − width): exact in bins that
// one class covers entirely, a lower bound in bins that both cover partly. So every figure is
// within one bin width per event edge of the exact union, and exact for events aligned to bins.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace dlbench::trace_summary {

struct TimeSplit {
  double wall = 0;       // last event end − first event start, seconds
  double compute = 0;    // compute events (union), seconds
  double io = 0;         // I/O events (union), seconds
  double overlap = 0;    // time both ran at once, seconds
  double bin_width = 0;  // seconds, the resolution of the three above
  double compute_only() const { return compute - overlap; }
  double io_only() const { return io - overlap; }
  double other() const { return wall - (compute + io - overlap); }
  TimeSplit& operator+=(const TimeSplit& other);  // sums (rank-seconds); bin width the largest
};

class TimeSplitter {
 public:
  enum Class { kCompute = 0, kIo = 1 };
  static constexpr std::size_t kMaxBins = std::size_t{1} << 18;

  void span(double start_us, double end_us);  // any event: extends the wall time
  void add(Class c, double start_us, double end_us);
  TimeSplit result() const;

 private:
  void cover(double start_us, double end_us);  // grows or coarsens the bins to hold the range

  double first_ = 0, last_ = 0;  // event span, µs
  bool any_ = false;
  double origin_ = 0;    // start of bins_[0], µs
  double width_ = 1000;  // µs
  std::vector<std::array<float, 2>> bins_;
};

}  // namespace dlbench::trace_summary
