// The configuration the staging tests start from, built in one place: two storage tiers under
// `dir`, pfs (<dir>/pfs) holding an NPY dataset at <dir>/pfs/data and nvme (<dir>/nvme) that the
// stage phase copies it to (workflow.stage, stage.to nvme), with 1 KiB samples. Each test sets
// the counts, batch and options it is about. Header-only: its users link dlbench's config module.
#pragma once

#include <filesystem>

#include "config/config.h"

namespace dlbench::test {

inline config::Config StagingConfig(const std::filesystem::path& dir) {
  config::Config config;
  config.dataset.data_folder = (dir / "pfs/data").string();
  config.dataset.format = config::Format::kNpy;
  config.dataset.record_length_bytes = 1024;
  for (const char* name : {"pfs", "nvme"}) {
    config::TierConfig tier;
    tier.name = name;
    tier.path = (dir / name).string();
    config.storage.tiers.push_back(tier);
  }
  config.workflow.stage = true;
  config.stage.to = "nvme";
  return config;
}

}  // namespace dlbench::test
