// list_option.h: the names an exercise option of `list = true` holds (cli.h's ExtraOption, as
// `--view full,deep` or `--scene all`), in the order given. The parser has already refused any
// name that is not one of the option's choices, so no name needs checking here.
#pragma once

#include "common/cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace pmpp {

// "all", an empty value (the parser refuses one on the command line, so it is an option whose
// default is empty, as 04's --scene), or Options that do not hold the option (a test's
// pmpp::Options{}): every name of `all`.
inline std::vector<std::string> list_option(const Options& opts, const std::string& name,
                                            const std::vector<std::string>& all) {
    const auto given = opts.extra.find(name);
    if (given == opts.extra.end() || given->second == "all" || given->second.empty()) return all;
    std::vector<std::string> names;
    std::stringstream items(given->second);
    for (std::string item; std::getline(items, item, ',');) names.push_back(item);
    return names;
}

}  // namespace pmpp
