#include "dataset/sample_size_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "dataset/element_type.h"
#include "dataset/legacy_normal.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::dataset {
namespace {

SampleSizeModel Model(double length, double stdev, std::uint64_t files,
                      std::vector<std::int64_t> record_dims = {}, const char* dtype = "uint8") {
  return SampleSizeModel(length, stdev, std::move(record_dims), ParseElementType(dtype), files);
}

using Dims = std::vector<std::int64_t>;

TEST(LegacyNormal, MatchesNumpyRandomState) {
  std::mt19937 mt(10);
  EXPECT_EQ(mt(), 3312796937u);
  // np.random.seed(10); np.random.normal(12107, 2822.204974094854, 4)
  LegacyNormal normal(10);
  const double stdev = 68341808.0 / 2 / std::sqrt(146600628.0);
  EXPECT_EQ(stdev, 2822.204974094854);
  EXPECT_EQ(normal.normal(12107, stdev), 15865.010055391904);
  EXPECT_EQ(normal.normal(12107, stdev), 14125.663879412647);
  EXPECT_EQ(normal.normal(12107, stdev), 7745.563608635938);
  EXPECT_EQ(normal.normal(12107, stdev), 12083.33905702966);
}

TEST(SampleSizeModel, Unet3dFiles) {
  const auto model = Model(146600628, 68341808, 168);
  EXPECT_EQ(model.dim(), 12107);
  EXPECT_EQ(model.dim_stdev(), 2822.204974094854);
  EXPECT_TRUE(model.varies());
  EXPECT_EQ(model.dims(0), (Dims{15865, 14125}));
  EXPECT_EQ(model.sample_bytes(0), 224093125u);
  EXPECT_EQ(model.dims(1), (Dims{7745, 12083}));
  EXPECT_EQ(model.sample_bytes(1), 93582835u);
  EXPECT_EQ(model.dims(2), (Dims{13860, 10074}));
  EXPECT_EQ(model.sample_bytes(2), 139625640u);
  EXPECT_EQ(model.dims(3), (Dims{12856, 12413}));
  EXPECT_EQ(model.sample_bytes(3), 159581528u);
  EXPECT_EQ(model.dims(4), (Dims{12119, 11614}));
  EXPECT_EQ(model.sample_bytes(4), 140750066u);
  EXPECT_EQ(model.dims(5), (Dims{13329, 15502}));
  EXPECT_EQ(model.sample_bytes(5), 206626158u);
  EXPECT_EQ(model.dims(167), (Dims{15535, 14952}));
  EXPECT_EQ(model.sample_bytes(167), 232279320u);

  Bytes sum = 0, low = ~Bytes{0}, high = 0;
  for (FileIndex f = 0; f < 168; ++f) {
    const Bytes s = model.sample_bytes(f);
    sum += s;
    low = std::min(low, s);
    high = std::max(high, s);
  }
  EXPECT_EQ(sum, 25285981919u);
  EXPECT_EQ(low, 46888650u);
  EXPECT_EQ(high, 301601979u);
  EXPECT_NEAR(static_cast<double>(sum) / 168, 150511797.1, 0.05);
  EXPECT_THROW(model.sample_bytes(168), Error);
}

TEST(SampleSizeModel, PrefixDoesNotDependOnTheFileCount) {
  const auto small = Model(146600628, 68341808, 3);
  const auto large = Model(146600628, 68341808, 168);
  for (FileIndex f = 0; f < 3; ++f) EXPECT_EQ(small.dims(f), large.dims(f));
}

TEST(SampleSizeModel, CosmoflowAllFiles) {
  const auto model = Model(2828486, 71311, 524288);
  EXPECT_EQ(model.dim(), 1681);
  EXPECT_EQ(model.dim_stdev(), 21.200666493917847);
  EXPECT_EQ(model.dims(0), (Dims{1709, 1696}));
  EXPECT_EQ(model.sample_bytes(0), 2898464u);
  EXPECT_EQ(model.dims(1), (Dims{1648, 1680}));
  EXPECT_EQ(model.sample_bytes(1), 2768640u);
  EXPECT_EQ(model.dims(2), (Dims{1694, 1665}));
  EXPECT_EQ(model.sample_bytes(2), 2820510u);
  EXPECT_EQ(model.dims(3), (Dims{1686, 1683}));
  EXPECT_EQ(model.sample_bytes(3), 2837538u);
  EXPECT_EQ(model.dims(4), (Dims{1681, 1677}));
  EXPECT_EQ(model.sample_bytes(4), 2819037u);
  EXPECT_EQ(model.dims(5), (Dims{1690, 1706}));
  EXPECT_EQ(model.sample_bytes(5), 2883140u);
  Bytes sum = 0, low = ~Bytes{0}, high = 0;
  for (FileIndex f = 0; f < 524288; ++f) {
    const Bytes s = model.sample_bytes(f);
    sum += s;
    low = std::min(low, s);
    high = std::max(high, s);
  }
  EXPECT_EQ(sum, 1480619282900u);
  EXPECT_EQ(low, 2598519u);
  EXPECT_EQ(high, 3066000u);
}

TEST(SampleSizeModel, FixedSizes) {
  struct Case {
    double length;
    std::int64_t dim;
    Bytes bytes;
  };
  for (const Case& c :
       {Case{114660.07, 338, 114244}, Case{4096, 64, 4096}, Case{671088640, 25905, 671069025},
        Case{2048, 45, 2025}, Case{322957, 568, 322624}}) {
    const auto model = Model(c.length, 0, 10);
    EXPECT_FALSE(model.varies());
    EXPECT_EQ(model.dims(7), (Dims{c.dim, c.dim})) << c.length;
    EXPECT_EQ(model.sample_bytes(7), c.bytes) << c.length;
    EXPECT_EQ(model.sample_bytes(123456), c.bytes) << "no per-file state without a stdev";
  }
}

TEST(SampleSizeModel, ItemsizeScalesBytes) {
  const auto model = Model(4096, 0, 1, {}, "float32");
  EXPECT_EQ(model.elements(0), 4096u);
  EXPECT_EQ(model.sample_bytes(0), 4u * 4096);
}

TEST(SampleSizeModel, RecordDims) {
  const auto model = Model(4096, 0, 4, {3, 5, 7}, "<f8");
  EXPECT_FALSE(model.varies());
  EXPECT_EQ(model.dims(2), (Dims{3, 5, 7}));
  EXPECT_EQ(model.sample_bytes(2), 3u * 5 * 7 * 8);
  EXPECT_THROW(Model(4096, 10, 4, {3, 5}), Error);
  EXPECT_THROW(Model(4096, 0, 4, {3, 0}), Error);
}

TEST(SampleSizeModel, AssignDimsOverwritesWhatTheVectorHeld) {
  const auto drawn = Model(4096, 1024, 6);
  const auto fixed = Model(4096, 0, 6);
  const auto record = Model(4096, 0, 6, {3, 5, 7});
  Dims out{9, 9, 9, 9};
  for (FileIndex file = 0; file < 6; ++file) {
    for (const SampleSizeModel* model : {&drawn, &record, &fixed}) {
      model->assign_dims(file, out);
      EXPECT_EQ(out, model->dims(file)) << file;
    }
  }
  EXPECT_EQ(out, (Dims{64, 64}));
  record.assign_dims(0, out);
  EXPECT_EQ(out, (Dims{3, 5, 7}));
  EXPECT_NE(drawn.dims(0), drawn.dims(1));
  dlbench::test::ExpectError([&] { drawn.assign_dims(6, out); }, ExitCode::kInternal,
                             {"file 6 of a dataset of 6 files"});
}

TEST(SampleSizeModel, SmallDrawsAreClampedToOne) {
  // A stdev far above the mean draws many values below 1; DLIO keeps max(int(v), 1).
  const auto model = Model(4, 400, 1000);
  bool saw_one = false;
  for (FileIndex f = 0; f < 1000; ++f) {
    for (std::int64_t d : model.dims(f)) {
      EXPECT_GE(d, 1);
      saw_one |= d == 1;
    }
  }
  EXPECT_TRUE(saw_one);
}

TEST(SampleSizeModel, RejectsBadLengths) {
  dlbench::test::ExpectError([&] { Model(0.5, 0, 1); }, ExitCode::kUsage, {"record_length_bytes"});
  EXPECT_THROW(Model(100, 1e12, 10), Error);  // dimensions beyond 32 bits
}

// The per-file size table (8 bytes a file) is checked against the host's memory before it is
// allocated: 2^32 unet3d files ended in "internal error: std::bad_alloc" (exit 1). No test
// machine has 2^45 bytes (32 TiB) of memory, and 2^62 files exceed what a vector can hold.
TEST(SampleSizeModel, SizeTableBeyondMemoryIsAUsageError) {
  dlbench::test::ExpectError(
      [&] { Model(146600628, 68341808, std::uint64_t{1} << 42); }, ExitCode::kUsage,
      {"dataset.record_length_bytes_stdev", "8 bytes per file", "4398046511104 files",
       "more than half of this host's memory", "record_length_bytes_stdev: 0"});
  dlbench::test::ExpectError([&] { Model(4096, 100, std::uint64_t{1} << 62); }, ExitCode::kUsage,
                             {"4611686018427387904 files"});
  EXPECT_NO_THROW(Model(4096, 0, std::uint64_t{1} << 62));  // fixed sizes need no table
}

TEST(ElementType, NamesCodesAndDescrs) {
  struct Case {
    const char* in;
    const char* name;
    int itemsize;
    const char* descr;
  };
  for (const Case& c : {Case{"uint8", "uint8", 1, "|u1"}, Case{"int8", "int8", 1, "|i1"},
                        Case{"uint16", "uint16", 2, "<u2"}, Case{"int16", "int16", 2, "<i2"},
                        Case{"uint32", "uint32", 4, "<u4"}, Case{"int32", "int32", 4, "<i4"},
                        Case{"uint64", "uint64", 8, "<u8"}, Case{"int64", "int64", 8, "<i8"},
                        Case{"float16", "float16", 2, "<f2"}, Case{"float32", "float32", 4, "<f4"},
                        Case{"float64", "float64", 8, "<f8"}, Case{"bool", "bool", 1, "|b1"},
                        Case{"f4", "float32", 4, "<f4"}, Case{"<f4", "float32", 4, "<f4"},
                        Case{"|u1", "uint8", 1, "|u1"}, Case{"=i8", "int64", 8, "<i8"},
                        Case{"float", "float64", 8, "<f8"}, Case{"?", "bool", 1, "|b1"},
                        Case{"B", "uint8", 1, "|u1"}}) {
    const ElementType t = ParseElementType(c.in);
    EXPECT_EQ(t.name, c.name) << c.in;
    EXPECT_EQ(t.itemsize, c.itemsize) << c.in;
    EXPECT_EQ(t.npy_descr, c.descr) << c.in;
  }
  for (const char* bad : {"", "float128", ">f4", "complex64", "u3"}) {
    dlbench::test::ExpectError([&] { ParseElementType(bad); }, ExitCode::kUsage,
                               {"record_element_type"});
  }
}

}  // namespace
}  // namespace dlbench::dataset
