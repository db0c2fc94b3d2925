// stage_events.h: where the time of a sequence of kernels goes, stage by stage. CUDA events are
// recorded on the default stream at the start and after each stage's work is launched, nothing
// synchronizes in between, and stages of one name (the passes of a sort) add up. The events are
// created on first use and reused by every later sequence (start() begins the next one).
#pragma once

#include "common/cuda_check.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pmpp {

class StageEvents {
public:
    struct Stage {
        std::string name;
        double bytes = 0;  // the fewest bytes the stage must move, summed over its marks
        double ms = 0;
        int count = 0;  // marks of this name
    };
    StageEvents() = default;
    StageEvents(const StageEvents&) = delete;
    StageEvents& operator=(const StageEvents&) = delete;
    ~StageEvents() {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
    }

    void start() {
        marks_.clear();
        record();
    }
    // Right after the work of stage `name` is launched.
    void mark(const std::string& name, double bytes = 0) {
        marks_.push_back({name, bytes});
        record();
    }
    // After the last mark (waits for its event): each stage's time, in first-seen order.
    std::vector<Stage> stages() {
        PMPP_CUDA_CHECK(cudaEventSynchronize(events_[marks_.size()]));
        std::vector<Stage> out;
        for (std::size_t i = 0; i < marks_.size(); ++i) {
            float ms = 0;
            PMPP_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
            auto it = std::find_if(out.begin(), out.end(), [&](const Stage& s) { return s.name == marks_[i].name; });
            if (it == out.end()) it = out.insert(out.end(), Stage{marks_[i].name});
            it->ms += ms;
            it->bytes += marks_[i].bytes;
            ++it->count;
        }
        return out;
    }

private:
    void record() {  // the event after the start and each mark so far
        if (marks_.size() == events_.size()) {
            cudaEvent_t e;
            PMPP_CUDA_CHECK(cudaEventCreate(&e));
            events_.push_back(e);
        }
        PMPP_CUDA_CHECK(cudaEventRecord(events_[marks_.size()]));
    }
    std::vector<cudaEvent_t> events_;
    std::vector<Stage> marks_;  // this sequence's marks, in order
};

}  // namespace pmpp
