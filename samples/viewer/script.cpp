#include "script.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace viewer {
namespace {

std::string trim(const std::string& text)
{
    size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return "";
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The action's numbers after the verb, exactly `count` of them.
std::vector<double> numbers(const std::string& verb, const std::vector<std::string>& values, size_t count)
{
    if (values.size() != count)
        throw OptionError(verb + " takes " + std::to_string(count) + " numbers, not " + std::to_string(values.size()));
    std::vector<double> result;
    for (const std::string& value : values)
        result.push_back(parseFloat(verb, value));
    return result;
}

// The verbs of more than one value: clip and the transfer-function edits.
bool parseEdit(const std::string& verb, const std::vector<std::string>& values, ScriptStep& step)
{
    if (verb == "clip" && values.size() == 1 && values[0] == "off") {
        step.clip = std::optional<isoscope::api::ClipBox>();
    } else if (verb == "clip") {
        std::vector<double> v = numbers(verb, values, 6);
        step.clip = isoscope::api::ClipBox{{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
    } else if (verb == "tf-opacity") {
        std::vector<double> v = numbers(verb, values, 2);
        step.tfEdits.push_back({TfEdit::Opacity, v[0], {v[1], 0.0, 0.0}});
    } else if (verb == "tf-color") {
        std::vector<double> v = numbers(verb, values, 4);
        step.tfEdits.push_back({TfEdit::Color, v[0], {v[1], v[2], v[3]}});
    } else if (verb == "tf-remove-opacity" || verb == "tf-remove-color") {
        std::vector<double> v = numbers(verb, values, 1);
        step.tfEdits.push_back({verb == "tf-remove-opacity" ? TfEdit::RemoveOpacity : TfEdit::RemoveColor, v[0], {}});
    } else {
        return false;
    }
    return true;
}

void parseAction(const std::string& action, ScriptStep& step)
{
    std::istringstream words(action);
    std::string verb, word;
    std::vector<std::string> values;
    words >> verb;
    while (words >> word)
        values.push_back(word);
    if (parseEdit(verb, values, step))
        return;
    if (values.size() != 1)
        throw OptionError("'" + action + "' is not VERB VALUE");
    const std::string& value = values[0];
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
    else if (verb == "tf")
        step.transferFunction = value;
    else if (verb == "open")
        step.open = value;
    else if (verb == "tf-save")
        step.tfSave = value;
    else
        throw OptionError("unknown action '" + verb + "' (iso, mode, method, weld, resize, open, clip, tf, tf-opacity, "
                          "tf-color, tf-remove-opacity, tf-remove-color or tf-save)");
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
