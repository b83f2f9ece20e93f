// The report's table of object-storage requests: one row per kind of request a run sent
// (summary.json object_storage.requests: GET, range GET, HEAD, PUT, the multipart requests,
// ListObjectsV2, DeleteObjects, ListMultipartUploads), with its count, retries, failures, bytes,
// and the p50/p90/p99/max of its latency and of its time to first byte, in milliseconds.
#pragma once

#include <string>

#include "metrics/json_fields.h"

namespace dlbench::report {

// The table's HTML; empty when the run sent no request (a run on a file system).
std::string RequestTable(const metrics::Json& summary);

}  // namespace dlbench::report
