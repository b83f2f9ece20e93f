// The requests the run's storage sent to remote storage (storage::Env::requests: an object store's
// HTTP requests), summed over ranks, in summary.json `object_storage` and one terminal line.
#pragma once

#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "storage/file.h"

namespace dlbench::workflow {

// Collective: every rank calls it with its run's storage, whose requests() list the same kinds in
// the same order on every rank. On rank 0, {"object_storage": {"requests": {<operation>:
// {requests, retries, failures, bytes, latency_seconds: {p50, p90, p99, max}, first_byte_seconds:
// {p50, p90, p99, max}}} for each kind some rank sent, "total": {requests, retries, failures,
// bytes, request_seconds, first_byte_seconds}}}, and unless `quiet` the line; an empty object
// elsewhere, and when no rank sent a request.
metrics::Json RequestSummary(storage::Env& storage, const mpi::Communicator& comm, bool quiet);

}  // namespace dlbench::workflow
