// On SIGINT, SIGTERM and SIGHUP the tool removes the temporary files of the output it is writing before the signal
// ends it, so that an interrupted conversion leaves nothing behind (dbdf_remove_temporary_files() in dbdf.h).
#pragma once

namespace dbdf_cli {

// Installs the handlers; signals the process ignores (a `nohup` or a shell's background job) stay ignored.
void remove_temporary_files_on_signals();

}  // namespace dbdf_cli
