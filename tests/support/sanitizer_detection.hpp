// DBDF_TEST_UNDER_SANITIZER is defined when the test program runs under AddressSanitizer or ThreadSanitizer, whose
// shadow memory takes terabytes of address space: the tests that run under an address-space limit skip there.
// GCC defines __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__; clang before 18 only answers __has_feature (the
// sanitizer presets build with clang).
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DBDF_TEST_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DBDF_TEST_UNDER_SANITIZER 1
#endif
#endif
