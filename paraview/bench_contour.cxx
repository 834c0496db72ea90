// vtkIsoscopeContour against vtkFlyingEdges3D on the host's cores: filter
// wall time of Update(), median of the timed runs after one warm-up (the
// device is made by a first, untimed update), for two kinds of update:
// "new samples" (the array marked modified before each: isoscope uploads the
// piece, extracts, reads back and fills the polydata) and "isovalue change"
// (the isovalue alternates between ISO and the next float above it:
// isoscope extracts from the piece it keeps on the device). One JSON line
// per update kind and filter on stdout.
//   isoscope_vtk_bench [--threads N] [--backend STDThread|TBB|Sequential] [--repeat R] VOLUME ISO...
// VOLUME: cayley:N (float32, sampled on [-1,1]^3 as isoscope's cayley:N) or
// FILE.nhdr[@N] (read by vtkNrrdReader, resampled trilinearly to N^3 by
// vtkImageReslice over the same box).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <vtkFloatArray.h>
#include <vtkFlyingEdges3D.h>
#include <vtkImageData.h>
#include <vtkImageReslice.h>
#include <vtkNew.h>
#include <vtkNrrdReader.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSMPTools.h>
#include <vtkSmartPointer.h>

#include "vtkIsoscopeContour.h"

namespace {

[[noreturn]] void usage(const std::string& problem)
{
    std::fprintf(stderr, "isoscope_vtk_bench: %s\nusage: isoscope_vtk_bench [--threads N] [--backend NAME] "
                         "[--repeat R] cayley:N|FILE.nhdr[@N] ISO...\n", problem.c_str());
    std::exit(2);
}

vtkSmartPointer<vtkImageData> cayley(int n)
{
    auto image = vtkSmartPointer<vtkImageData>::New();
    image->SetDimensions(n, n, n);
    image->SetOrigin(-1.0, -1.0, -1.0);
    const double h = 2.0 / (n - 1);
    image->SetSpacing(h, h, h);
    vtkNew<vtkFloatArray> values;
    values->SetName("cayley");
    values->SetNumberOfValues(vtkIdType(n) * n * n);
    float* out = values->GetPointer(0);
    vtkSMPTools::For(0, n, [&](vtkIdType z0, vtkIdType z1) {
        for (vtkIdType z = z0; z < z1; ++z)
            for (int y = 0; y < n; ++y)
                for (int x = 0; x < n; ++x) {
                    // x_i = -1 + 2i/(N-1), as isoscope's synthetic volumes sample it.
                    const double px = -1.0 + 2.0 * x / (n - 1), py = -1.0 + 2.0 * y / (n - 1),
                                 pz = -1.0 + 2.0 * double(z) / (n - 1);
                    out[(z * n + y) * n + x] = float(1.0 - 16.0 * px * py * pz - 4.0 * (px * px + py * py + pz * pz));
                }
    });
    image->GetPointData()->SetScalars(values);
    return image;
}

vtkSmartPointer<vtkImageData> nrrd(const std::string& path, int n)
{
    vtkNew<vtkNrrdReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    vtkImageData* read = reader->GetOutput();
    if (read->GetNumberOfPoints() == 0)
        usage("cannot read '" + path + "'");
    auto image = vtkSmartPointer<vtkImageData>::New();
    if (n <= 0) {
        image->DeepCopy(read);
        return image;
    }
    int dims[3];
    double spacing[3], bounds[6];
    read->GetDimensions(dims);
    read->GetSpacing(spacing);
    read->GetBounds(bounds);
    vtkNew<vtkImageReslice> reslice;
    reslice->SetInputData(read);
    reslice->SetInterpolationModeToLinear();
    reslice->SetOutputOrigin(bounds[0], bounds[2], bounds[4]);
    reslice->SetOutputSpacing((bounds[1] - bounds[0]) / (n - 1), (bounds[3] - bounds[2]) / (n - 1),
                              (bounds[5] - bounds[4]) / (n - 1));
    reslice->SetOutputExtent(0, n - 1, 0, n - 1, 0, n - 1);
    reslice->Update();
    image->DeepCopy(reslice->GetOutput());
    return image;
}

template <typename Filter>
std::vector<double> time(Filter* filter, int repeat, const std::function<void(int)>& beforeRun)
{
    std::vector<double> ms;
    for (int run = 0; run <= repeat; ++run) { // run 0: warm-up
        beforeRun(run);
        const auto start = std::chrono::steady_clock::now();
        filter->Update();
        const auto stop = std::chrono::steady_clock::now();
        if (run > 0)
            ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    return ms;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int threads = 0, repeat = 5;
    std::string backend = "STDThread", volume;
    std::vector<double> isovalues;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if ((arg == "--threads" || arg == "--backend" || arg == "--repeat") && i + 1 < argc) {
            const std::string value = argv[++i];
            if (arg == "--threads")
                threads = std::atoi(value.c_str());
            else if (arg == "--repeat")
                repeat = std::max(1, std::atoi(value.c_str()));
            else
                backend = value;
        } else if (volume.empty()) {
            volume = arg;
        } else {
            isovalues.push_back(std::atof(arg.c_str()));
        }
    }
    if (volume.empty() || isovalues.empty())
        usage("a volume and at least one isovalue are needed");
    if (!vtkSMPTools::SetBackend(backend.c_str()))
        usage("VTK has no SMP backend '" + backend + "'");
    vtkSMPTools::Initialize(threads);

    vtkSmartPointer<vtkImageData> image;
    if (volume.rfind("cayley:", 0) == 0) {
        image = cayley(std::atoi(volume.c_str() + 7));
    } else {
        const size_t at = volume.rfind('@');
        image = nrrd(volume.substr(0, at), at == std::string::npos ? 0 : std::atoi(volume.c_str() + at + 1));
    }
    int dims[3];
    image->GetDimensions(dims);
    vtkDataArray* scalars = image->GetPointData()->GetScalars();

    vtkNew<vtkIsoscopeContour> isoscope;
    vtkNew<vtkFlyingEdges3D> flyingEdges;
    isoscope->SetInputData(image);
    flyingEdges->SetInputData(image);
    for (size_t i = 0; i < isovalues.size(); ++i) {
        isoscope->SetValue(int(i), isovalues[i]);
        flyingEdges->SetValue(int(i), isovalues[i]);
    }
    isoscope->Update(); // makes the device: not timed
    auto line = [&](const char* filter, const char* update, vtkPolyData* mesh, const std::vector<double>& ms) {
        std::printf("{\"volume\": \"%s\", \"dims\": [%d, %d, %d], \"type\": \"%s\", \"iso\": %g, \"filter\": \"%s\", "
                    "\"update\": \"%s\", \"smp_backend\": \"%s\", \"threads\": %d, \"triangles\": %lld, \"points\": %lld, "
                    "\"wall_ms_median\": %.3f, \"wall_ms_min\": %.3f, \"runs\": %zu}\n",
                    volume.c_str(), dims[0], dims[1], dims[2], scalars->GetDataTypeAsString(), isovalues[0], filter, update,
                    vtkSMPTools::GetBackend(), vtkSMPTools::GetEstimatedNumberOfThreads(),
                    (long long)mesh->GetNumberOfCells(), (long long)mesh->GetNumberOfPoints(), median(ms),
                    *std::min_element(ms.begin(), ms.end()), ms.size());
    };
    auto newSamples = [&](int) { scalars->Modified(); };
    auto bench = [&](auto* filter, const char* name) {
        line(name, "new samples", filter->GetOutput(), time(filter, repeat, newSamples));
        const double iso = isovalues[0], above = std::nextafter(float(iso), INFINITY);
        line(name, "isovalue change", filter->GetOutput(),
             time(filter, repeat, [&](int run) { filter->SetValue(0, run % 2 ? above : iso); }));
        filter->SetValue(0, iso);
    };
    bench(isoscope.Get(), "vtkIsoscopeContour");
    bench(flyingEdges.Get(), "vtkFlyingEdges3D");
    std::fflush(stdout);
    return 0;
}
