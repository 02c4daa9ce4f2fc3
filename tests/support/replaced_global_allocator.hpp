// Replaces the global operator new and delete of a test executable, so that a test can watch or fail the
// allocations the library makes. The including file defines the two functions declared here; include this header
// in exactly one source file of the executable.
//
// Every replaceable form is replaced but the aligned ones (nothing in the library asks for more than the
// fundamental alignment), the nothrow forms too: std::stable_sort's temporary buffer uses them and falls back to
// sorting in place when they fail. So every allocation and its release meet in the two functions below.
#pragma once

#include <cstddef>
#include <new>

// Returns `size` bytes (at least one) aligned as malloc aligns them, or throws std::bad_alloc.
void* test_allocate(std::size_t size);
// Releases memory test_allocate returned; accepts nullptr.
void test_release(void* pointer) noexcept;

void* operator new(std::size_t size) { return test_allocate(size); }
void* operator new[](std::size_t size) { return test_allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return test_allocate(size);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* pointer) noexcept { test_release(pointer); }
void operator delete[](void* pointer) noexcept { test_release(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { test_release(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { test_release(pointer); }
void operator delete(void* pointer, const std::nothrow_t&) noexcept { test_release(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { test_release(pointer); }
