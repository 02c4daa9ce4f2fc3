// The named temporary files this process has open, so that a signal handler can remove them before the process
// dies (remove_temporary_files() in sink.hpp). A library must not install signal handlers itself; the program
// that owns the process does, and calls the removal from its handler.
//
// Everything here is async-signal-safe: a fixed table of slots claimed and released with atomic operations, no
// allocation and no lock. When every slot is taken, a temporary file goes unregistered: a signal then leaves it
// behind, and the next write to the same target removes it (temporary_names.hpp).
#pragma once

namespace dbdf::detail {

// Records the temporary file `name` in the directory open as `directory_fd` (which must stay open until
// unregister_temporary). Returns the slot to pass to unregister_temporary, or -1 when none was free or the name is
// too long.
int register_temporary(int directory_fd, const char* name) noexcept;

// Forgets the slot (-1 is ignored). Waits for a removal in progress on another thread to finish with it.
void unregister_temporary(int slot) noexcept;

// Removes every registered temporary file. Async-signal-safe; the files stay registered until their owners
// unregister them, so that a slot is never reused under a removal.
void remove_registered_temporaries() noexcept;

}  // namespace dbdf::detail
