// A progress line on stderr for long conversions, shown only when stderr is a terminal.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>

namespace dbdf_cli {

class Progress {
public:
    explicit Progress(std::uint64_t total) : total_(total), enabled_(::isatty(2) == 1 && total > 0) {}
    ~Progress() {
        if (enabled_ && shown_ >= 0) std::fprintf(stderr, "\r%60s\r", "");
    }

    void update(std::uint64_t done) {
        if (!enabled_) return;
        const int percent = static_cast<int>(done * 100 / total_);
        if (percent == shown_) return;
        shown_ = percent;
        const int bar = percent / 4;
        std::fprintf(stderr, "\rconverting [%-25.*s] %3d%%", bar, "#########################", percent);
        std::fflush(stderr);
    }

private:
    std::uint64_t total_;
    bool enabled_;
    int shown_ = -1;
};

}  // namespace dbdf_cli
