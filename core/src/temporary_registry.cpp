#include "temporary_registry.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

#include "dbdf/sink.hpp"

namespace dbdf::detail {
namespace {

enum SlotState : int {
    kFree = 0,
    kFilling = 1,   // being claimed by register_temporary: its fields are not yet valid
    kHeld = 2,      // holds a registered name
    kRemoving = 3,  // a removal is using its fields
    kRemoved = 4,   // a removal has unlinked the name; the owner has not unregistered yet
};

struct Slot {
    std::atomic<int> state{kFree};
    int directory_fd = -1;
    char name[NAME_MAX + 1] = {};
};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers may only use lock-free atomics");

constexpr std::size_t kSlots = 64;  // more named temporary files at once than any program writes outputs
std::array<Slot, kSlots> slots;

}  // namespace

int register_temporary(int directory_fd, const char* name) noexcept {
    const std::size_t length = std::strlen(name);
    if (length > NAME_MAX) return -1;
    for (std::size_t i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (!slots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) continue;
        slots[i].directory_fd = directory_fd;
        std::memcpy(slots[i].name, name, length + 1);
        slots[i].state.store(kHeld, std::memory_order_release);
        return static_cast<int>(i);
    }
    return -1;
}

void unregister_temporary(int slot) noexcept {
    if (slot < 0 || static_cast<std::size_t>(slot) >= kSlots) return;
    Slot& held = slots[static_cast<std::size_t>(slot)];
    for (;;) {
        int expected = kHeld;
        if (held.state.compare_exchange_strong(expected, kFree, std::memory_order_acq_rel)) return;
        expected = kRemoved;
        if (held.state.compare_exchange_strong(expected, kFree, std::memory_order_acq_rel)) return;
        ::sched_yield();  // kRemoving: another thread's removal is unlinking this name right now
    }
}

void remove_registered_temporaries() noexcept {
    for (Slot& slot : slots) {
        int expected = kHeld;
        if (!slot.state.compare_exchange_strong(expected, kRemoving, std::memory_order_acq_rel)) continue;
        ::unlinkat(slot.directory_fd, slot.name, 0);
        slot.state.store(kRemoved, std::memory_order_release);
    }
}

}  // namespace dbdf::detail

namespace dbdf {

void remove_temporary_files() noexcept { detail::remove_registered_temporaries(); }

}  // namespace dbdf
