// results_plot.h: the charts of a results file's benchmark rows (the "bench" array the harness
// writes, docs/CONTRACT.md): one chart per section, in the order the benchmark printed them.
// Each row label is a series; its points are (n, throughput). A section with rows at two or more
// sizes is a line chart, one with every row at one size a bar chart (plot.h).
//
// The throughput is GB/s (the fewest bytes the operation must move, read + written) or the
// exercise's items per second (Gkeys/s, Giter/s): items when the exercise names a unit of its own,
// GB/s otherwise. The ceiling line: the copy bandwidth measured in the same run, in items per
// second through the row's bytes per item where the chart counts items; or the row's own ceiling
// where the bench recorded one (08: the FP32 peak, in iterations per second).
#pragma once

#include "common/json.h"
#include "common/plot.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace pmpp::plot {

// A results file that cannot be drawn: not a results file, or no benchmark rows.
class ResultsPlotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class Metric { Auto, BytesPerSecond, ItemsPerSecond };

struct ResultsPlotOptions {
    std::string section;  // only the sections whose name holds this text (empty: all)
    Metric metric = Metric::Auto;
};

std::vector<Chart> charts_of_results(const Json& results, const ResultsPlotOptions& options = {});

}  // namespace pmpp::plot
