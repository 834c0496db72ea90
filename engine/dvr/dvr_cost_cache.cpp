#include "dvr/dvr_cost_cache.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/context.h"
#include "dvr/dvr_raycaster.h"
#include "volume/volume.h"

namespace isoscope {

namespace {

std::filesystem::path cacheFile(const std::filesystem::path& folder, const std::string& key)
{
    char name[64];
    std::snprintf(name, sizeof name, "dvr-calibration-%016zx.json", std::hash<std::string>{}(key));
    return folder / name;
}

bool load(const std::filesystem::path& file, const std::string& key, DvrCostModel& model)
{
    std::ifstream in(file);
    if (!in)
        return false;
    nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded() || !json.is_object() || json.value("key", "") != key || !json["ms"].is_array() ||
        json["ms"].size() != model.ms.size())
        return false;
    DvrCostModel loaded;
    for (size_t m = 0; m < loaded.ms.size(); ++m) {
        const nlohmann::json& row = json["ms"][m];
        if (!row.is_array() || row.size() != loaded.ms[m].size())
            return false;
        for (size_t j = 0; j < row.size(); ++j) {
            // An unrunnable mapping is stored as null (infinite).
            double ms = row[j].is_null() ? INFINITY : row[j].is_number() ? row[j].get<double>() : -1.0;
            if (!(ms > 0.0))
                return false;
            loaded.ms[m][j] = ms;
        }
    }
    loaded.calibrated = true;
    model = loaded;
    return true;
}

void store(const std::filesystem::path& folder, const std::filesystem::path& file, const std::string& key,
           const DvrCostModel& model)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& table : model.ms) {
        nlohmann::json row = nlohmann::json::array();
        for (double ms : table)
            row.push_back(std::isfinite(ms) ? nlohmann::json(ms) : nlohmann::json(nullptr));
        rows.push_back(row);
    }
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    std::filesystem::path partial = file;
    partial += ".partial";
    std::ofstream out(partial);
    out << nlohmann::json{{"key", key}, {"ms", rows}}.dump();
    out.close();
    if (out)
        std::filesystem::rename(partial, file, error); // whole or not at all
    else
        std::filesystem::remove(partial, error);
}

} // namespace

std::string dvrCalibrationKey(const Context& context, const DvrRaycaster& dvr, const Volume& volume, VkExtent2D extent,
                              const DvrParams& params)
{
    const DeviceInfo& info = context.info();
    std::ostringstream key;
    key.precision(9);
    key << info.name << '|' << info.driver << '|';
    for (uint8_t byte : info.pipelineCacheUuid)
        key << int(byte) << '.';
    key << '|' << volume.source << '|' << volume.dims[0] << 'x' << volume.dims[1] << 'x' << volume.dims[2] << '|'
        << scalarName(volume.type) << '|' << volume.stats.min << ',' << volume.stats.max << ',' << volume.stats.mean
        << '|' << extent.width << 'x' << extent.height << '|' << params.stepVoxels << '|' << params.skipTransparent
        << params.terminationOpacity << params.shading << params.camera.orthographic << params.camera.fovYDeg << '|'
        << dvr.canRotate() << '|';
    size_t table = 0;
    for (const glm::vec4& entry : dvr.table().rgba)
        for (int c = 0; c < 4; ++c)
            table = table * 1000003u ^ std::hash<float>{}(entry[c]);
    key << table;
    return key.str();
}

bool calibrateDvrCostModelCached(Context& context, DvrRaycaster& dvr, const Volume& volume, VkExtent2D extent,
                                 const DvrParams& base, const std::filesystem::path& folder)
{
    std::string key = dvrCalibrationKey(context, dvr, volume, extent, base);
    std::filesystem::path file = folder.empty() ? std::filesystem::path() : cacheFile(folder, key);
    if (!folder.empty() && load(file, key, dvr.costModel()))
        return true;
    calibrateDvrCostModel(context, dvr, extent, base);
    if (!folder.empty())
        store(folder, file, key, dvr.costModel());
    return false;
}

} // namespace isoscope
