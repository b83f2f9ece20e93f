#include "app/storage_backends.h"

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "mpi/launch.h"
#include "mpi/nodes.h"
#include "storage/file.h"
#include "workflow/run_storage.h"
#if DLBENCH_S3
#include "s3/op_log.h"
#include "s3/s3_env.h"
#include "s3/settings.h"
#endif

namespace dlbench::app {
namespace {

#if DLBENCH_S3
// An S3Env with the client settings of storage.storage_options and the environment
// (s3/settings.h). Before any work, rank 0 checks that the endpoint answers, that the credentials
// are accepted and that each bucket the folders name exists (one small listing each): a wrong
// secret or a missing bucket is then exit 2, agreed by every rank, not a failure mid-run.
std::unique_ptr<storage::Env> MakeS3Env(const config::Config& config,
                                        const std::vector<std::string>& folders, int rank) {
  auto env = std::make_unique<s3::S3Env>(
      s3::ResolveClientOptions(config.storage.storage_options, s3::ProcessEnvironment(), rank));
  if (const auto op_log = config.storage.storage_options.find("op_log");
      op_log != config.storage.storage_options.end()) {
    const bool several = mpi::LaunchFromEnvironment().size > 1;
    const std::string path = several ? s3::RankOpLogPath(op_log->second, rank) : op_log->second;
    env->set_op_log(std::make_unique<s3::OpLog>(path, env->client().options().endpoint_url,
                                                mpi::NodeName() + ":" + std::to_string(rank)));
  }
  if (rank == 0) {
    // Each folder's own prefix: credentials may be limited to it.
    std::set<std::pair<std::string, std::string>> prefixes;
    for (const std::string& folder : folders) {
      s3::ObjectName name = s3::ParseObjectUri(folder);
      if (!name.key.empty() && name.key.back() != '/') name.key += '/';
      prefixes.emplace(std::move(name.bucket), std::move(name.key));
    }
    for (const auto& [bucket, prefix] : prefixes) env->client().check_bucket(bucket, prefix);
  }
  return env;
}
#endif

}  // namespace

void RegisterStorageBackends() {
  static std::once_flag once;
  std::call_once(once, [] {
#if DLBENCH_S3
    workflow::RegisterSchemeBackend("s3", MakeS3Env);
#endif
  });
}

}  // namespace dlbench::app
