// Names of the temporary files written next to an output, and the removal of those a dead writer left behind.
//
// A name is "." + <target's name> + ".dbdf-" + <host tag> + "-" + <pid> + "-" + <16 hex digits> + ".tmp": hidden,
// recognisable as belonging to its target, and telling which process on which host made it, so that a later write
// to the same target can prove a leftover is its own (same pattern, same host, a process that no longer exists,
// same owner) and remove it. The whole name stays within NAME_MAX: a long target name is cut and completed with a
// hash of the whole name, so that the temporary file can be created wherever the target can.
#pragma once

#include <string>
#include <string_view>

namespace dbdf::detail {

// A new temporary name for `target_name` (the last component of the target path), made by this process.
std::string temporary_name_for(std::string_view target_name);

// What every temporary name for `target_name` made on this host starts with.
std::string temporary_prefix_for(std::string_view target_name);

// True when `name` is a temporary name for `target_name` made on this host; *pid receives its maker's process id.
bool parse_temporary_name(std::string_view name, std::string_view target_name, long* pid);

// Removes, from the directory open as `directory_fd`, the temporary files for `target_name` that this host's
// processes made, that belong to this process's effective user and whose process no longer exists. Best effort:
// whatever cannot be read or removed is left as it is.
void remove_stale_temporaries(int directory_fd, std::string_view target_name) noexcept;

}  // namespace dbdf::detail
