// bench_report.cpp: the benchmark's tables and results rows (bench_report.h).
#include "common/bench_report.h"

#include "common/report.h"

#include <algorithm>
#include <cmath>

namespace pmpp {

namespace {

std::string format_throughput(double v) {
    if (v <= 0 || !std::isfinite(v)) return "-";
    if (v >= 100) return format("%.0f", v);
    if (v >= 10) return format("%.1f", v);
    return format("%.2f", v);
}

Json row_json(const BenchRow& r, const std::string& label, std::size_t n, double gbs, double items, double ratio,
              const BenchReport& report) {
    const Measurement& m = r.m;
    Json j = Json::object();
    j.set("impl", r.impl->name);
    j.set("kind", to_string(r.impl->kind));
    j.set("section", m.section);
    j.set("label", label);
    j.set("n", static_cast<double>(n));
    j.set("median_ms", m.ms.median);
    j.set("min_ms", m.ms.min);
    j.set("max_ms", m.ms.max);
    j.set("p10_ms", m.ms.p10);
    j.set("p90_ms", m.ms.p90);
    j.set("mean_ms", m.ms.mean);
    j.set("repeats", static_cast<double>(m.ms.count));
    j.set("bytes", m.bytes);
    j.set("gbs", gbs);
    j.set("fraction_of_copy", report.copy_gbs > 0 ? gbs / report.copy_gbs : 0.0);
    j.set("items_per_second", items * 1e9);
    j.set("ratio_to_baseline", ratio);
    j.set("baseline_added", report.baseline_added && r.impl == report.baseline_impl);
    j.set("correct", m.correct);
    if (!m.correct) j.set("message", m.check_message);
    if (!m.note.empty()) j.set("note", m.note);
    if (m.items_ceiling > 0) {
        j.set("items_ceiling_per_second", m.items_ceiling);
        j.set("items_ceiling_name", m.items_ceiling_name);
    }
    return j;
}

}  // namespace

std::string format_ms(double ms) {
    if (ms >= 100) return format("%.1f", ms);
    if (ms >= 1) return format("%.3f", ms);
    return format("%.4f", ms);
}

void report_size(std::ostream& os, const BenchReport& report, std::size_t n, const std::vector<BenchRow>& rows,
                 Json& rows_json, std::vector<std::string>& wrong) {
    std::vector<std::string> sections;
    for (auto& r : rows)
        if (std::find(sections.begin(), sections.end(), r.m.section) == sections.end()) sections.push_back(r.m.section);
    for (const auto& section : sections) {
        double baseline_ms = 0;
        for (auto& r : rows)
            if (r.m.section == section && r.impl == report.baseline_impl && r.m.label.empty())
                baseline_ms = r.m.ms.median;
        Table t({"impl", "kind", "median ms", "spread", "GB/s", "% of copy", report.items_unit,
                 "t / " + report.baseline, "check"},
                {Table::Align::Left, Table::Align::Left});
        for (auto& r : rows) {
            if (r.m.section != section) continue;
            const Measurement& m = r.m;
            const double gbs = gigabytes_per_second(m.bytes, m.ms.median);
            const double items = m.items > 0 && m.ms.median > 0 ? m.items / (m.ms.median * 1e6) : 0;
            const double ratio = baseline_ms > 0 ? m.ms.median / baseline_ms : 0;
            const std::string label = m.label.empty() ? r.impl->name : m.label;
            if (!m.correct) wrong.push_back(label + " at n=" + format_size(n) + ": " + m.check_message);
            t.add_row({label, to_string(r.impl->kind), format_ms(m.ms.median), format("%.1f%%", 100 * m.ms.spread()),
                       format_throughput(gbs),
                       gbs > 0 && report.copy_gbs > 0 ? format("%.1f%%", 100 * gbs / report.copy_gbs) : "-",
                       format_throughput(items), ratio > 0 ? format("%.2f", ratio) : "-", m.correct ? "ok" : "WRONG"});
            rows_json.push_back(row_json(r, label, n, gbs, items, ratio, report));
        }
        os << "\nn = " << format_size(n) << (format_size(n) != std::to_string(n) ? " (" + std::to_string(n) + ")" : "")
           << (section == "kernel" ? "" : ", " + section) << "\n";
        t.print(os);
        for (auto& r : rows)
            if (r.m.section == section && !r.m.note.empty())
                os << "  " << (r.m.label.empty() ? r.impl->name : r.m.label) << ": " << r.m.note << "\n";
    }
}

std::string key_figure(const Json& rows_json, const std::string& baseline) {
    const Json* best = nullptr;
    for (const auto& j : rows_json.elements())
        if (j.at("impl").as_string() == "student" && j.at("section").as_string() == "kernel")
            if (!best || j.at("n").as_number() >= best->at("n").as_number()) best = &j;
    if (!best) return "";
    std::string fig = "student " + format_ms(best->at("median_ms").as_number()) +
                      " ms at n=" + format_size(static_cast<std::size_t>(best->at("n").as_number()));
    if (best->at("gbs").as_number() > 0)
        fig += format(", %.0f GB/s = %.0f%% of copy", best->at("gbs").as_number(),
                      100 * best->at("fraction_of_copy").as_number());
    if (best->at("ratio_to_baseline").as_number() > 0)
        fig += format(", %.2fx %s's time", best->at("ratio_to_baseline").as_number(), baseline.c_str());
    return fig;
}

}  // namespace pmpp
