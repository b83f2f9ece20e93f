#include "formats/image/jpeg_coefficients.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <string>

#include "formats/image/image_writing.h"
#include "formats/image/jpeg_parameters.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// libjpeg's output in memory it allocates.
struct JpegMemory {
  unsigned char* bytes = nullptr;
  unsigned long size = 0;              // NOLINT(google-runtime-int): jpeg_mem_dest's type
  ~JpegMemory() { std::free(bytes); }  // NOLINT(cppcoreguidelines-no-malloc)
};

[[noreturn]] void CodecFailure(const char* what, const char* message) {
  throw InternalError(std::string("jpeg coefficients: libjpeg ") + what + ": " + message);
}

// Only C-like objects in the frames that call setjmp (jpeg_errors.h).
void CompressCoefficients(const JpegBlock* blocks, JDIMENSION width, JDIMENSION height,
                          JpegMemory* out) {
  JpegErrors errors;
  jpeg_compress_struct cinfo{};
  cinfo.err = InstallJpegErrors(errors, /*warnings_are_errors=*/false);
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&cinfo);
    CodecFailure("writing coefficients", errors.message);
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &out->bytes, &out->size);
  SetJpegParameters(cinfo, ImageShape{8 * static_cast<std::int64_t>(height),
                                      8 * static_cast<std::int64_t>(width)});
  auto* common = reinterpret_cast<j_common_ptr>(&cinfo);
  jvirt_barray_ptr array =
      (*cinfo.mem->request_virt_barray)(common, JPOOL_IMAGE, FALSE, width, height, 1);
  (*cinfo.mem->realize_virt_arrays)(common);
  for (JDIMENSION row = 0; row < height; ++row) {
    JBLOCKARRAY rows = (*cinfo.mem->access_virt_barray)(common, array, row, 1, TRUE);
    std::memcpy(rows[0], blocks + static_cast<std::size_t>(row) * width, width * sizeof(JBLOCK));
  }
  jpeg_write_coefficients(&cinfo, &array);
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
}

void CopyTables(JpegTables* tables, char* message) {
  JpegErrors errors;
  jpeg_compress_struct cinfo{};
  cinfo.err = InstallJpegErrors(errors, /*warnings_are_errors=*/false);
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&cinfo);
    std::memcpy(message, errors.message, sizeof(errors.message));
    return;
  }
  jpeg_create_compress(&cinfo);
  SetJpegParameters(cinfo, ImageShape{8, 8});
  const jpeg_component_info& component = cinfo.comp_info[0];
  tables->dc = *cinfo.dc_huff_tbl_ptrs[component.dc_tbl_no];
  tables->ac = *cinfo.ac_huff_tbl_ptrs[component.ac_tbl_no];
  const JQUANT_TBL& quant = *cinfo.quant_tbl_ptrs[component.quant_tbl_no];
  for (std::size_t i = 0; i < tables->quant.size(); ++i) tables->quant[i] = quant.quantval[i];
  jpeg_destroy_compress(&cinfo);
}

// cos(jπ/16), j = 0 .. 8, written out (no libm: the same bits on every machine).
constexpr std::array<double, 9> kCosPi16 = {1.0,
                                            0.98078528040323044,
                                            0.92387953251128674,
                                            0.83146961230254524,
                                            0.70710678118654752,
                                            0.55557023301960218,
                                            0.38268343236508977,
                                            0.19509032201612826,
                                            0.0};

double CosPi16(int m) {  // cos(mπ/16), m >= 0
  m %= 32;
  if (m > 16) m = 32 - m;
  return m <= 8 ? kCosPi16[m] : -kCosPi16[16 - m];
}

// kBasis[u][x] = C(u) / 2 · cos((2x + 1) u π / 16), C(0) = 1/√2, else 1: the 2-D DCT of T.81
// is F = B S Bᵀ. Single precision: a coefficient is at most ~1,024, so its error (~1e-4) moves a
// rounding only within 1e-5 of a half step. The file is compiled without fused multiply-adds
// (src/CMakeLists.txt), so that every machine computes the same coefficients from the same seed.
const std::array<std::array<float, 8>, 8> kBasis = [] {
  std::array<std::array<float, 8>, 8> basis{};
  for (int u = 0; u < 8; ++u) {
    for (int x = 0; x < 8; ++x) {
      basis[u][x] =
          static_cast<float>((u == 0 ? std::numbers::sqrt2 / 4 : 0.5) * CosPi16((2 * x + 1) * u));
    }
  }
  return basis;
}();

// Eight floats as two vectors of four (GCC's and Clang's vector extension: SSE2 on x86-64).
using Float4 = float __attribute__((vector_size(16)));
struct Float8 {
  Float4 low{};
  Float4 high{};
  void add(float scale, const Float8& v) {
    low += scale * v.low;
    high += scale * v.high;
  }
};

// kColumns[x] = (B[0][x], ..., B[7][x]).
const std::array<Float8, 8> kColumns = [] {
  std::array<Float8, 8> columns{};
  for (int x = 0; x < 8; ++x) {
    for (int u = 0; u < 4; ++u) {
      columns[x].low[u] = kBasis[u][x];
      columns[x].high[u] = kBasis[u + 4][x];
    }
  }
  return columns;
}();

}  // namespace

JpegTables StandardJpegTables() {
  JpegTables tables;
  char message[JMSG_LENGTH_MAX] = {};
  CopyTables(&tables, message);
  if (message[0] != '\0') CodecFailure("setting up tables", message);
  return tables;
}

JpegDct::JpegDct(const std::array<std::uint16_t, 64>& quant) {
  for (std::size_t i = 0; i < quant.size(); ++i) scale_[i] = 1.0F / static_cast<float>(quant[i]);
}

JpegBlock JpegDct::operator()(std::span<const std::byte, 64> pixels) const {
  std::array<Float8, 8> rows{};  // rows[y] = (Σ_x S[y][x] B[u][x])_u
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      rows[y].add(static_cast<float>(std::to_integer<int>(pixels[8 * y + x]) - 128), kColumns[x]);
    }
  }
  std::array<Float8, 8> f{};  // f[v] = (Σ_y B[v][y] rows[y][u])_u
  for (int v = 0; v < 8; ++v) {
    for (int y = 0; y < 8; ++y) f[v].add(kBasis[v][y], rows[y]);
  }
  std::array<float, 64> flat{};
  static_assert(sizeof(f) == sizeof(flat));
  std::memcpy(flat.data(), f.data(), sizeof(flat));
  JpegBlock block{};
  for (std::size_t i = 0; i < block.size(); ++i) {
    const float steps = flat[i] * scale_[i];
    block[i] = static_cast<JCOEF>(static_cast<int>(steps + std::copysign(0.5F, steps)));
  }
  return block;
}

std::vector<std::byte> EncodeCoefficients(std::span<const JpegBlock> blocks, int width) {
  if (width < 1 || blocks.empty() || blocks.size() % static_cast<std::size_t>(width) != 0) {
    throw InternalError("jpeg coefficients: " + std::to_string(blocks.size()) +
                        " blocks do not make rows of " + std::to_string(width));
  }
  JpegMemory out;
  CompressCoefficients(blocks.data(), static_cast<JDIMENSION>(width),
                       static_cast<JDIMENSION>(blocks.size() / static_cast<std::size_t>(width)),
                       &out);
  std::vector<std::byte> bytes(out.size);
  std::memcpy(bytes.data(), out.bytes, out.size);
  return bytes;
}

}  // namespace dlbench::formats
