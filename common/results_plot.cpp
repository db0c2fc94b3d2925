// results_plot.cpp: results_plot.h.
#include "common/results_plot.h"

#include "common/cli.h"
#include "common/exercise.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>

namespace pmpp::plot {

namespace {

struct Section {
    std::string name;
    std::vector<const Json*> rows;
};

double number_or(const Json& row, const std::string& key, double fallback) {
    return row.contains(key) && row.at(key).is_number() ? row.at(key).as_number() : fallback;
}

// The ceiling of one section: the rows' own (the first that names one), or the copy bandwidth,
// in items per second through the rows' bytes per item when those agree within 1%.
std::vector<Ceiling> ceilings_of(const Section& s, bool items, const std::string& unit, double copy_gbs) {
    for (const Json* row : s.rows) {
        const double own = number_or(*row, "items_ceiling_per_second", 0);
        if (items && own > 0) {
            const std::string name = row->contains("items_ceiling_name") ? row->at("items_ceiling_name").as_string()
                                                                         : std::string("ceiling");
            return {{format("%s %s %s", name.c_str(), tick_label(own * 1e-9).c_str(), unit.c_str()), own * 1e-9}};
        }
    }
    if (!(copy_gbs > 0)) return {};
    if (!items) return {{format("copy %.0f GB/s", copy_gbs), copy_gbs}};
    double lo = INFINITY, hi = 0;
    for (const Json* row : s.rows) {
        const double bytes = number_or(*row, "bytes", 0), per_s = number_or(*row, "items_per_second", 0);
        const double ms = number_or(*row, "median_ms", 0);
        if (!(bytes > 0 && per_s > 0 && ms > 0)) continue;
        const double per_item = bytes / (per_s * ms * 1e-3);
        lo = std::min(lo, per_item), hi = std::max(hi, per_item);
    }
    if (!(hi > 0) || hi > lo * 1.01) return {};
    const double bound = copy_gbs / lo;  // G items per second
    return {{format("copy bound %s %s", tick_label(bound).c_str(), unit.c_str()), bound}};
}

}  // namespace

std::vector<Chart> charts_of_results(const Json& results, const ResultsPlotOptions& options) {
    if (!results.is_object() || !results.contains("schema"))
        throw ResultsPlotError("not a results file (no \"schema\"): give the --json file of a harness");
    if (!results.contains("bench") || results.at("bench").size() == 0)
        throw ResultsPlotError(
            "it has no benchmark rows: run the benchmark first (make run, or the harness "
            "with --bench --json FILE)");
    const std::string exercise = results.contains("exercise") ? results.at("exercise").as_string() : "results";
    std::string device;
    if (results.contains("device") && results.at("device").contains("name"))
        device = results.at("device").at("name").as_string();
    const double copy_gbs = results.contains("copy_bandwidth") ? number_or(results.at("copy_bandwidth"), "gbs", 0) : 0;
    const std::string unit = results.contains("items_unit") ? results.at("items_unit").as_string() : kDefaultItemsUnit;

    std::vector<Section> sections;
    for (const Json& row : results.at("bench").elements()) {
        const std::string name = row.at("section").as_string();
        if (name.find(options.section) == std::string::npos) continue;
        auto it = std::find_if(sections.begin(), sections.end(), [&](const Section& s) { return s.name == name; });
        if (it == sections.end()) it = sections.insert(sections.end(), Section{name, {}});
        it->rows.push_back(&row);
    }
    if (sections.empty()) throw ResultsPlotError("no benchmark section holds \"" + options.section + "\"");

    std::vector<Chart> charts;
    for (const Section& s : sections) {
        bool has_bytes = true;
        for (const Json* row : s.rows) has_bytes = has_bytes && number_or(*row, "gbs", 0) > 0;
        const bool items = options.metric == Metric::ItemsPerSecond ||
                           (options.metric == Metric::Auto && (unit != kDefaultItemsUnit || !has_bytes));
        const std::string value_unit = items ? unit : "GB/s";
        Chart c;
        std::vector<double> sizes;
        for (const Json* row : s.rows) {
            const std::string label = row->at("label").as_string();
            auto it = std::find_if(c.series.begin(), c.series.end(), [&](const Series& x) { return x.name == label; });
            if (it == c.series.end()) {
                it = c.series.insert(c.series.end(), Series{label, {}, row->at("kind").as_string() == "library"});
            }
            // A row whose timed output was wrong is not drawn: its time is not of the operation.
            const bool correct = !row->contains("correct") || row->at("correct").as_bool();
            const double n = row->at("n").as_number();
            const double y = items ? number_or(*row, "items_per_second", 0) * 1e-9 : number_or(*row, "gbs", 0);
            it->points.push_back({n, correct ? y : 0});
            if (std::find(sizes.begin(), sizes.end(), n) == sizes.end()) sizes.push_back(n);
        }
        const bool one_size = sizes.size() == 1;
        const std::string where = device.empty() ? "" : ", " + device;
        c.title = exercise + ": " + s.name +
                  (one_size ? ", n=" + format_size(static_cast<std::size_t>(sizes.front())) : "") + where;
        c.x_label = one_size ? value_unit : "n";
        c.y_label = value_unit;
        c.ceilings = ceilings_of(s, items, unit, copy_gbs);
        charts.push_back(std::move(c));
    }
    return charts;
}

}  // namespace pmpp::plot
