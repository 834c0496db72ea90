#include "volume_options.h"

#include "core/text.h"
#include "params.h"
#include "progress.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"

namespace isoscope::cli {

std::shared_ptr<VolumeArguments> addVolumeArguments(CLI::App* command)
{
    auto args = std::make_shared<VolumeArguments>();
    std::string synthetic = join(syntheticFieldNames(), ", ");
    command->add_option("VOLUME", args->volume,
                        "Volume file (.raw .nrrd .nhdr .mhd .mha .vtk .nii .nii.gz .hdr/.img .tif .tiff .dcm), folder of DICOM or TIFF slices, glob of TIFF slices, or synthetic field NAME:N or NAME:NXxNYxNZ (" +
                            synthetic + ")")
        ->required();
    command->add_option("--dims", args->dims, "Raw files: sizes X Y Z (else taken from a name like v_64x64x32_uint8.raw)")
        ->expected(3)
        ->check(wholeNumber(1, UINT32_MAX));
    command->add_option("--type", args->type, "Raw files: uint8, uint16, int16 or float32; synthetic specs: float32 (the field) or uint8 (its [-1, 1] onto 0..255)")
        ->check([](const std::string& name) {
            return parseScalarName(name) ? std::string() : "unknown type '" + name + "': use uint8, uint16, int16 or float32";
        });
    command->add_option("--spacing", args->spacing,
                        "Raw files and TIFF stacks: spacing X Y Z (default 1 1 1, or ImageJ's)")
        ->expected(3)
        ->check(finiteNumber(kMinSpacing, kMaxSpacing));
    command->add_flag("--big-endian", args->bigEndian, "Raw files: samples are big-endian");
    command->add_option("--header-bytes", args->headerBytes, "Raw files: bytes to skip at the start")
        ->check(wholeNumber(0, INT64_MAX));
    command->add_flag("--quiet", args->quiet, "No progress line on stderr while reading or writing (shown only on a terminal)");
    command->add_option("--series", args->series,
                        "DICOM folders holding several series: the Series Instance UID to read (an error lists them)")
        ->check(dicomUid());
    return args;
}

Volume VolumeArguments::load() const
{
    // A synthetic spec with --type: the streamed source's samples (uint8: the field's [-1, 1] onto 0..255).
    if (!type.empty() && isSyntheticSpec(volume) && !std::filesystem::exists(volume))
        return readWholeVolume(*openSyntheticSource(volume, *parseScalarName(type)));
    return loadVolume(volume, rawOptions());
}

RawOptions VolumeArguments::rawOptions() const
{
    RawOptions options;
    if (!dims.empty())
        options.dims = std::array<uint32_t, 3>{dims[0], dims[1], dims[2]};
    if (!type.empty())
        options.type = parseScalarName(type); // checked when parsed
    if (!spacing.empty())
        options.spacing = std::array<double, 3>{spacing[0], spacing[1], spacing[2]};
    options.bigEndian = bigEndian;
    options.headerBytes = headerBytes;
    options.dicomSeries = series;
    options.progress = terminalProgress(quiet);
    return options;
}

} // namespace isoscope::cli
