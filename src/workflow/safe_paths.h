// "Safe by default": dlbench never writes into, or deletes under, folders no benchmark owns.
#pragma once

#include <filesystem>
#include <string>

namespace dlbench::workflow {

// Throws Error(kUsage) when `folder` is the filesystem root, the home folder, or a system
// folder (/usr, /etc, ...). `what` names the setting in the message ("output folder").
void RefuseDangerousFolder(const std::filesystem::path& folder, const std::string& what);

}  // namespace dlbench::workflow
