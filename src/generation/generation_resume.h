// How a rerun of generation tells finished work from interrupted work. Rank 0 keeps a marker,
// `<data_folder>/.dlbench-dataset.json`, holding the dataset's fingerprint (format, counts,
// shapes, content, seed) and whether generation completed: it is rewritten as "incomplete"
// before any data file is written and as "complete" after the final barrier, so a training run
// can refuse an interrupted dataset and a rerun knows which existing files it may keep.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "generation/dataset_files.h"
#include "storage/file.h"

namespace dlbench::generation {

std::string DatasetMarkerPath(const config::Config& config);

// The content seed generation uses: dataset.content.seed, or one derived from train.seed when
// that is 0 (so that runs differing only in train.seed also differ in content).
std::uint64_t ContentSeed(const config::Config& config);

// Everything that decides the bytes of the dataset, as canonical JSON text.
std::string DatasetFingerprint(const config::Config& config);

// The settings two fingerprints disagree on, as "dataset.record_length_bytes: 65536 in the
// dataset, 131072 configured" (joined by "; "); "" when they agree. Keys are the fingerprint's.
std::string DescribeFingerprintDifference(const std::string& dataset,
                                          const std::string& configured);

struct DatasetMarker {
  std::string fingerprint;  // canonical JSON text, comparable with DatasetFingerprint
  bool complete = false;
};

// The marker in the data folder, if there is a readable one. A marker that cannot be parsed is
// treated as absent (and will be replaced): it only ever says what this tool wrote.
std::optional<DatasetMarker> ReadDatasetMarker(storage::Env& env, const std::string& path);
// Writes the marker atomically (published whole: storage::AtomicFileWriter; fsync when asked).
void WriteDatasetMarker(storage::Env& env, const std::string& path, const std::string& fingerprint,
                        bool complete, bool fsync);

// True when `config`'s dataset was generated completely by dlbench with the same fingerprint.
bool IsDatasetComplete(storage::Env& env, const config::Config& config);

// Whether an existing file under its final name may be kept:
// - kTrusted: the marker has this fingerprint, so every final-named file was written (whole,
//   since files are renamed into place only when complete) with this configuration;
// - kSizeOnly: no marker or another fingerprint: keep only files whose exact size is predictable
//   and matches; files of unpredictable size are regenerated;
// - kNone: the folders held no data files when generation started (FoldersHoldNoDataFiles), so
//   there is nothing to keep and nothing to look up: no stat per file, which on a parallel file
//   system is a metadata round trip each.
enum class ExistingFiles { kTrusted, kSizeOnly, kNone };

// True when `file` is complete on storage: the data file exists with `expected_size` (when
// known; when unknown only under kTrusted) and every companion exists. Always false, without
// touching storage, under kNone.
bool IsFileComplete(storage::Env& env, const DatasetFile& file, std::optional<Bytes> expected_size,
                    ExistingFiles policy);

// Removes what an interrupted run left unfinished in `folders` (not recursively): the partial
// files (names made by storage::PartialPathFor, never anything else) and, on an object store,
// the uploads started and never completed (Env::abort_pending_writes). Returns how many.
std::size_t RemovePartialFiles(storage::Env& env, const std::vector<std::string>& folders);

// True when none of `folders` holds anything but folders, partial files of ours and the dataset
// and folder markers (missing folders hold nothing). One listing per folder, stopping at the first
// folder with another entry. Throws Error(kIo) if a folder cannot be listed.
bool FoldersHoldNoDataFiles(storage::Env& env, const std::vector<std::string>& folders);

}  // namespace dlbench::generation
