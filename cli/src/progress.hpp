// A progress line on stderr for long conversions, shown only when stderr is a terminal. Each phase of a conversion
// that takes time in proportion to its data (reading, converting) has one; the line is cleared when it ends.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>

namespace dbdf_cli {

class Progress {
public:
    explicit Progress(std::uint64_t total, const char* label = "converting")
        : total_(total), label_(label), enabled_(::isatty(2) == 1 && total > 0) {}
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    ~Progress() {
        if (enabled_ && shown_ >= 0) std::fprintf(stderr, "\r%60s\r", "");
    }

    void update(std::uint64_t done) {
        if (!enabled_) return;
        const int percent = static_cast<int>((done < total_ ? done : total_) * 100 / total_);
        if (percent == shown_) return;
        shown_ = percent;
        const int bar = percent / 4;
        std::fprintf(stderr, "\r%s [%-25.*s] %3d%%", label_, bar, "#########################", percent);
        std::fflush(stderr);
    }

private:
    std::uint64_t total_;
    const char* label_;
    bool enabled_;
    int shown_ = -1;
};

}  // namespace dbdf_cli
