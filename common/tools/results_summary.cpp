// results_summary: reads the results files of several exercises and prints one table
// (exercise, status, key figure). The top-level `make run` ends with it.
//   results_summary EXERCISE=RESULTS.json [...]
// A missing or unreadable file is reported as such (the exercise did not run to the end).
#include "common/json.h"
#include "common/report.h"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    using pmpp::Table;
    Table t({"exercise", "status", "student check", "key figure"},
            {Table::Align::Left, Table::Align::Left, Table::Align::Left, Table::Align::Left});
    int worst = 0;
    int no_gpu = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto eq = arg.find('=');
        const std::string name = eq == std::string::npos ? arg : arg.substr(0, eq);
        const std::string path = eq == std::string::npos ? arg : arg.substr(eq + 1);
        try {
            const pmpp::Json r = pmpp::Json::parse(pmpp::read_file(path));
            const pmpp::Json& s = r.at("summary");
            t.add_row(
                {name, r.at("status").as_string(), s.at("student_check").as_string(), s.at("key_figure").as_string()});
            if (r.at("status").as_string() == "no_gpu") ++no_gpu;
            const int code = static_cast<int>(r.at("exit_code").as_number());
            if (code > worst) worst = code;
        } catch (const std::exception& e) {
            t.add_row({name, "no results", "-", e.what()});
            worst = worst > 3 ? worst : 3;
        }
    }
    std::cout << "\n== summary\n";
    t.print(std::cout);
    if (argc > 1 && no_gpu == argc - 1)
        std::cout << "\nNo usable GPU on this machine: nothing could run (exit code 3). The tests (make test) "
                     "run without one.\n";
    return worst;
}
