// plot_results: draws a results file's benchmark as a PNG, one chart per section stacked in one
// image (`make plot` in an exercise folder). Throughput against size, one line per variant, the
// library dashed in black and the hardware's ceiling in red; a bar chart for a benchmark of one
// size (results_plot.h says which throughput and which ceiling).
//   plot_results RESULTS.json OUT.png [--section TEXT] [--metric auto|gbs|items] [--width PIXELS]
// Exit status: 0 written; 2 a bad command line; 3 a results file that cannot be read or drawn;
// 4 the image could not be written (nothing is left half-written: the file is replaced whole).
#include "common/cli.h"
#include "common/image.h"
#include "common/json.h"
#include "common/report.h"
#include "common/results_plot.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kExitUsage = 2, kExitInput = 3, kExitOutput = 4;

int usage(const std::string& why) {
    std::cerr << "plot_results: " << why << "\n"
              << "usage: plot_results RESULTS.json OUT.png [--section TEXT] [--metric auto|gbs|items] "
                 "[--width PIXELS]\n";
    return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> paths;
    pmpp::plot::ResultsPlotOptions options;
    int width = 1000;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            usage("draws the benchmark of a results file");
            return 0;
        }
        if (arg == "--section" || arg == "--metric" || arg == "--width") {
            if (i + 1 >= argc) return usage(arg + " needs a value");
            const std::string value = argv[++i];
            if (arg == "--section") {
                options.section = value;
            } else if (arg == "--metric") {
                if (value == "auto")
                    options.metric = pmpp::plot::Metric::Auto;
                else if (value == "gbs")
                    options.metric = pmpp::plot::Metric::BytesPerSecond;
                else if (value == "items")
                    options.metric = pmpp::plot::Metric::ItemsPerSecond;
                else
                    return usage("--metric takes auto, gbs or items, not '" + value + "'");
            } else {
                int w = 0;
                if (!pmpp::parse_int(value, w) || w < 480 || w > 4000)
                    return usage("--width takes a number of pixels from 480 to 4000, not '" + value + "'");
                width = w;
            }
        } else if (arg.rfind("--", 0) == 0) {
            return usage("unknown option " + arg);
        } else {
            paths.push_back(arg);
        }
    }
    if (paths.size() != 2) return usage("give a results file and the image to write");
    const std::string& in = paths[0];
    const std::string& out = paths[1];

    std::vector<pmpp::Image> panels;
    try {
        const pmpp::Json results = pmpp::Json::parse(pmpp::read_file(in));
        for (const pmpp::plot::Chart& chart : pmpp::plot::charts_of_results(results, options))
            panels.push_back(pmpp::plot::draw(chart, width));
    } catch (const std::exception& e) {
        std::cerr << "plot_results: " << in << ": " << e.what() << "\n";
        return kExitInput;
    }
    try {
        pmpp::write_image(out, pmpp::plot::stack(panels));
    } catch (const std::exception& e) {
        std::cerr << "plot_results: " << e.what() << "\n";
        return kExitOutput;
    }
    std::cout << "plot_results: " << out << " (" << panels.size() << (panels.size() == 1 ? " chart" : " charts")
              << " from " << in << ")\n";
    return 0;
}
