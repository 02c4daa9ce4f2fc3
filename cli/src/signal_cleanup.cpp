#include "signal_cleanup.hpp"

#include <signal.h>

#include <initializer_list>

#include "dbdf.h"

namespace dbdf_cli {
namespace {

// Runs once per process (SA_RESETHAND restores the default action first), removes the temporary files, then
// raises the signal again so that the process ends as the signal says: the parent sees "killed by SIGINT", and a
// shell stops a script on it.
void remove_and_die(int signal_number) {
    dbdf_remove_temporary_files();
    ::raise(signal_number);
}

}  // namespace

void remove_temporary_files_on_signals() {
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction current {};
        if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = remove_and_die;
        ::sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(signal_number, &action, nullptr);
    }
}

}  // namespace dbdf_cli
