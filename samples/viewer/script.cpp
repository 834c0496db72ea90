#include "script.h"

#include <fstream>
#include <sstream>

namespace viewer {
namespace {

std::string trim(const std::string& text)
{
    size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return "";
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

void parseAction(const std::string& action, ScriptStep& step)
{
    std::istringstream words(action);
    std::string verb, value, extra;
    words >> verb >> value;
    if (value.empty() || (words >> extra))
        throw OptionError("'" + action + "' is not VERB VALUE");
    if (verb == "iso")
        step.iso = parseFloat("iso", value);
    else if (verb == "mode")
        step.mode = parseMode(value);
    else if (verb == "method")
        step.method = parseMethod(value);
    else if (verb == "weld")
        step.weld = parseOnOff("weld", value);
    else if (verb == "resize")
        step.resize = parseSize(value);
    else
        throw OptionError("unknown action '" + verb + "' (iso, mode, method, weld or resize)");
}

} // namespace

std::vector<ScriptStep> loadScript(const std::string& path)
{
    std::ifstream file(path);
    if (!file)
        throw OptionError("--script " + path + ": cannot open it");
    std::vector<ScriptStep> steps;
    std::string line;
    while (std::getline(file, line)) {
        ScriptStep& step = steps.emplace_back();
        line = trim(line);
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream actions(line);
        std::string action;
        while (std::getline(actions, action, ';')) {
            if (trim(action).empty())
                continue;
            try {
                parseAction(trim(action), step);
            } catch (const OptionError& error) {
                throw OptionError("--script " + path + " line " + std::to_string(steps.size()) + ": " + error.what());
            }
        }
    }
    return steps;
}

} // namespace viewer
