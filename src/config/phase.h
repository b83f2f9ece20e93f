// The phases a run can execute (workflow/phases.h runs them, in this order). Named here because
// the configuration's rules depend on which phases run: a command that runs one phase whatever
// the workflow section says (`dlbench stage`, `dlbench train`) has that phase's rules checked at
// load (LoadOptions::forced), and the phases it does not run are not held to theirs.
#pragma once

namespace dlbench::config {

enum class Phase { kGenerate, kStage, kTrain, kCheckpoint };

}  // namespace dlbench::config
