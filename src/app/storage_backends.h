// The storage backends this build has for URI schemes, registered for every run of the process
// (workflow/run_storage.h RegisterSchemeBackend): s3:// (src/s3/, when built with DLBENCH_S3).
// With storage.storage_options.op_log (`--op-log FILE`), every S3 request of the run gets a line
// in FILE (s3/op_log.h), or in FILE.<rank> when the job has several ranks.
#pragma once

namespace dlbench::app {

// Before the first run; later calls do nothing (Main may run several times in one process).
void RegisterStorageBackends();

}  // namespace dlbench::app
