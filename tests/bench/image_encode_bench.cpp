// Per-image CPU of dlbench's jpeg and png writers against the bare libraries encoding the same
// pixels with the same settings into memory: what the writers add to libjpeg-turbo's and libpng's
// own cost (content generation, row blocks, the buffered file; the file is on tmpfs, not synced).
// One 568 x 568 grayscale image (retinanet's), random pixels as dataset.content.kind: random.
//
// BM_BarePng/0 encodes with libpng's defaults (all five filters, zlib memLevel 8), /1 with PIL's
// (None, Sub, Up and Paeth, memLevel 9: what PngWriter sets, png_writer.h); both zlib level 6 and
// Z_FILTERED. BM_JpegPools, BM_JpegTailPool and BM_PngWidthPools: the set-up of
// dataset.content.encoding: assembled, once per rank (and png width).
#include <benchmark/benchmark.h>
#include <png.h>
#include <unistd.h>
#include <zlib.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
// clang-format off: after <cstdio>
#include <jpeglib.h>
// clang-format on

#include "bench_main.h"
#include "dataset/content.h"
#include "formats/image/jpeg_assembly.h"
#include "formats/image/jpeg_writer.h"
#include "formats/image/png_assembly.h"
#include "formats/image/png_writer.h"
#include "storage/file.h"

namespace dlbench::formats {
namespace {

constexpr int kSide = 568;

const std::string& Folder() {
  static const std::string kFolder = [] {
    const std::string path = "/dev/shm/dlbench-image-bench-" + std::to_string(getpid());
    std::filesystem::create_directories(path);
    return path;
  }();
  return kFolder;
}

const dataset::ContentGenerator& Content() {
  static const dataset::ContentGenerator kContent(config::ContentKind::kRandom, 2.0, 42);
  return kContent;
}

std::vector<unsigned char> Pixels() {
  std::vector<std::byte> pixels(kSide * kSide);
  Content().fill(0, 0, pixels);
  const auto* p = reinterpret_cast<const unsigned char*>(pixels.data());
  return {p, p + pixels.size()};
}

void Writer(benchmark::State& state, const FormatWriter& writer, const char* name) {
  FileSpec spec;
  spec.path = Folder() + "/" + name;
  spec.sample_dims = {kSide, kSide};
  std::vector<std::byte> buffer(4 << 20);  // the generation buffer's cap (generation/generation.h)
  Bytes bytes = 0;
  for (auto _ : state)
    bytes = writer.write(storage::PosixEnv(), spec, Content(), buffer).data_bytes;
  state.counters["file_bytes"] = static_cast<double>(bytes);
}

void BM_JpegWriter(benchmark::State& state) { Writer(state, JpegWriter(), "image.jpeg"); }
void BM_PngWriter(benchmark::State& state) { Writer(state, PngWriter(), "image.png"); }

// Returns the JPEG's size; 0 on a libjpeg error.
unsigned long EncodeJpeg(const std::vector<unsigned char>& pixels,  // NOLINT(google-runtime-int)
                         std::vector<unsigned char>& out) {
  struct Errors {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
  } errors;
  jpeg_compress_struct cinfo{};
  cinfo.err = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = [](j_common_ptr c) {
    std::longjmp(reinterpret_cast<Errors*>(c->err)->jump, 1);
  };
  unsigned char* data = out.data();
  unsigned long size = out.size();  // NOLINT(google-runtime-int): libjpeg's type
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&cinfo);
    return 0;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &data, &size);
  cinfo.image_width = kSide;
  cinfo.image_height = kSide;
  cinfo.input_components = 1;
  cinfo.in_color_space = JCS_GRAYSCALE;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, kJpegQuality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(pixels.data() + cinfo.next_scanline * kSide);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  if (data != out.data()) std::free(data);  // libjpeg allocated a larger one: not expected
  return size;
}

void BM_BareJpeg(benchmark::State& state) {
  const std::vector<unsigned char> pixels = Pixels();
  std::vector<unsigned char> out(4 << 20);
  unsigned long bytes = 0;  // NOLINT(google-runtime-int)
  for (auto _ : state) bytes = EncodeJpeg(pixels, out);
  if (bytes == 0) state.SkipWithError("libjpeg failed");
  state.counters["file_bytes"] = static_cast<double>(bytes);
}

void AppendBytes(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::vector<unsigned char>*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + length);
}

// Encodes into `out` (cleared first); false on a libpng error.
bool EncodePng(const std::vector<unsigned char>& pixels, bool pil_settings,
               std::vector<unsigned char>& out) {
  out.clear();
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, &out, AppendBytes, nullptr);
  png_set_IHDR(png, info, kSide, kSide, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, kPngZlibLevel);
  png_set_compression_strategy(png, Z_FILTERED);
  if (pil_settings) {
    png_set_filter(png, PNG_FILTER_TYPE_BASE,
                   PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_PAETH);
    png_set_compression_mem_level(png, 9);
  }
  png_write_info(png, info);
  for (int r = 0; r < kSide; ++r) png_write_row(png, pixels.data() + r * kSide);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

void BM_BarePng(benchmark::State& state) {
  const std::vector<unsigned char> pixels = Pixels();
  std::vector<unsigned char> out;
  out.reserve(1 << 20);
  bool ok = true;
  for (auto _ : state) ok = EncodePng(pixels, state.range(0) == 1, out);
  if (!ok) state.SkipWithError("libpng failed");
  state.counters["file_bytes"] = static_cast<double>(out.size());
}

// dataset.content.encoding: assembled — what a rank pays once before its first file: the jpeg
// main pool (JpegPools), one jpeg tail pool of N blocks, the png pools of one width.
void BM_JpegPools(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(JpegPools(Content()).pool().size());
}

void BM_JpegTailPool(benchmark::State& state) {
  for (auto _ : state) {
    JpegPools pools(Content());
    benchmark::DoNotOptimize(pools.tail(static_cast<int>(state.range(0))).size());
  }
}

void BM_PngWidthPools(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(PngWidthPools(Content(), state.range(0)).levels());
}

BENCHMARK(BM_JpegPools)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JpegTailPool)->Arg(1)->Arg(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PngWidthPools)->Arg(224)->Arg(568)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JpegWriter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BareJpeg)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PngWriter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarePng)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dlbench::formats

int main(int argc, char** argv) {
  return dlbench::bench::RunBenchmarksThenRemove(argc, argv, dlbench::formats::Folder);
}
