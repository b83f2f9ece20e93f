// The storage backends this build has for URI schemes, registered for every run of the process
// (workflow/run_storage.h RegisterSchemeBackend): s3:// (src/s3/, when built with DLBENCH_S3).
#pragma once

namespace dlbench::app {

// Call once, before the first run.
void RegisterStorageBackends();

}  // namespace dlbench::app
