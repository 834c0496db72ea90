// vtkIsoscopeContour against vtkFlyingEdges3D on the same pieces, serially or
// under mpirun: per piece, equal triangle counts and every isoscope vertex on
// a FlyingEdges vertex (within 1e-5 of the spacing) over the cells the piece
// owns (the filter is handed one ghost layer more and drops its triangles);
// in total, the sum over the pieces equals FlyingEdges on the whole volume,
// and the written .pvtp reads back as the whole volume's isoscope surface:
// as many triangles, the same vertices and normals (the ghost layer gives
// the faces between pieces the whole volume's central differences). Also:
// several isovalues, uint8 / int16 / float32 / float64 / int32 input, a
// surface-free isovalue, cell data (an error), and updates that keep the
// piece on the device.
//   isoscope_vtk_tests OUT_DIR DATASETS_DIR
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <vtkCallbackCommand.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkExtentTranslator.h>
#include <vtkFlyingEdges3D.h>
#include <vtkFloatArray.h>
#include <vtkImageCast.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkMPIController.h>
#include <vtkNew.h>
#include <vtkNrrdReader.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkRTAnalyticSource.h>
#include <vtkStaticPointLocator.h>
#include <vtkSystemIncludes.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPPolyDataWriter.h>
#include <vtksys/SystemTools.hxx>

#include "vtkIsoscopeContour.h"

namespace {

int failures = 0;
int rank = 0, ranks = 1;
vtkMultiProcessController* controller = nullptr;

void fail(const std::string& what)
{
    std::fprintf(stderr, "FAIL (rank %d of %d): %s\n", rank, ranks, what.c_str());
    ++failures;
}

void countErrors(vtkObject*, unsigned long, void* clientData, void*) { ++*static_cast<int*>(clientData); }

// Largest distance from a vertex of `mesh` to the nearest vertex of
// `reference` and, where both carry normals, the largest difference of the
// normals there.
struct Match {
    double distance = 0.0, normal = 0.0;
};
Match worstMatch(vtkPolyData* mesh, vtkPolyData* reference)
{
    if (mesh->GetNumberOfPoints() == 0)
        return {};
    if (reference->GetNumberOfPoints() == 0)
        return {INFINITY, INFINITY};
    vtkNew<vtkStaticPointLocator> locator;
    locator->SetDataSet(reference);
    locator->BuildLocator();
    vtkDataArray* normals = mesh->GetPointData()->GetNormals();
    vtkDataArray* referenceNormals = reference->GetPointData()->GetNormals();
    Match worst;
    for (vtkIdType i = 0; i < mesh->GetNumberOfPoints(); ++i) {
        double p[3], q[3];
        mesh->GetPoint(i, p);
        const vtkIdType nearest = locator->FindClosestPoint(p);
        reference->GetPoint(nearest, q);
        worst.distance = std::max(worst.distance, std::sqrt(vtkMath::Distance2BetweenPoints(p, q)));
        if (normals && referenceNormals) {
            double n[3], m[3];
            normals->GetTuple(i, n);
            referenceNormals->GetTuple(nearest, m);
            worst.normal = std::max(worst.normal, std::sqrt(vtkMath::Distance2BetweenPoints(n, m)));
        }
    }
    return worst;
}

// The cells piece `rank` of `ranks` owns: the split the pipeline makes
// (vtkExtentTranslator, block mode) of the whole extent, without ghosts.
std::array<int, 6> ownedExtent(vtkAlgorithm* source)
{
    source->UpdateInformation();
    int whole[6], owned[6];
    source->GetOutputInformation(0)->Get(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), whole);
    vtkNew<vtkExtentTranslator> translator;
    translator->PieceToExtentThreadSafe(rank, ranks, 0, whole, owned, vtkExtentTranslator::BLOCK_MODE, 0);
    return {owned[0], owned[1], owned[2], owned[3], owned[4], owned[5]};
}

long long sum(long long local)
{
    long long total = 0;
    controller->AllReduce(&local, &total, 1, vtkCommunicator::SUM_OP);
    return total;
}

// A pipeline's source, made afresh for each consumer: one source shared by
// consumers asking for different pieces re-executes and leaves each of them
// another piece's data.
using Source = std::function<vtkSmartPointer<vtkAlgorithm>()>;

// vtkIsoscopeContour on this rank's piece of the source (`pieces`) or on the
// whole of it, vtkFlyingEdges3D on the same image data; with pieces, the totals.
void compare(const std::string& name, const Source& makeSource, const std::vector<double>& isovalues,
             const std::string& outDir, bool pieces = true)
{
    vtkSmartPointer<vtkAlgorithm> source = makeSource(), wholeSource = makeSource();
    vtkNew<vtkIsoscopeContour> isoscope;
    vtkNew<vtkFlyingEdges3D> flyingEdges;
    for (size_t i = 0; i < isovalues.size(); ++i) {
        isoscope->SetValue(int(i), isovalues[i]);
        flyingEdges->SetValue(int(i), isovalues[i]);
    }
    isoscope->SetValidation(true);
    int errors = 0;
    vtkNew<vtkCallbackCommand> onError;
    onError->SetCallback(countErrors);
    onError->SetClientData(&errors);
    isoscope->AddObserver(vtkCommand::ErrorEvent, onError);
    isoscope->SetInputConnection(source->GetOutputPort());
    if (pieces)
        isoscope->UpdatePiece(rank, ranks, 0);
    else
        isoscope->Update();
    // vtkFlyingEdges3D contours all the image data it is given, ghost layer
    // included (its pieces overlap): given the cells this piece owns, cut out
    // of the very image data isoscope contoured, it must give the same surface.
    vtkNew<vtkImageData> piece;
    piece->ShallowCopy(source->GetOutputDataObject(0));
    if (pieces) {
        std::array<int, 6> owned = ownedExtent(source);
        const int* given = piece->GetExtent();
        bool ghostLayer = false;
        for (int axis = 0; axis < 3; ++axis)
            ghostLayer = ghostLayer || given[2 * axis] < owned[2 * axis] || given[2 * axis + 1] > owned[2 * axis + 1];
        if (ranks > 1 && !ghostLayer)
            fail(name + ": the piece came without a ghost layer");
        piece->Crop(owned.data());
    }
    flyingEdges->SetInputData(piece);
    flyingEdges->Update();
    if (errors)
        fail(name + ": the filter reported an error");

    vtkPolyData* mine = isoscope->GetOutput();
    vtkPolyData* theirs = flyingEdges->GetOutput();
    const long long triangles = mine->GetNumberOfCells(), expected = theirs->GetNumberOfCells();
    if (triangles != expected)
        fail(name + ": " + std::to_string(triangles) + " triangles, FlyingEdges " + std::to_string(expected));
    const double* spacing = piece->GetSpacing();
    const double tolerance = 1e-5 * std::min({spacing[0], spacing[1], spacing[2]});
    const double worst = worstMatch(mine, theirs).distance;
    if (!(worst <= tolerance))
        fail(name + ": an isoscope vertex lies " + std::to_string(worst) + " from every FlyingEdges vertex (tolerance " +
             std::to_string(tolerance) + ")");
    if (triangles > 0 && !mine->GetPointData()->GetNormals())
        fail(name + ": no point normals");

    if (!pieces) {
        if (rank == 0)
            std::printf("%s: %lld triangles (whole volume on each rank), equal to FlyingEdges; vertices within %.2g "
                        "(tolerance %.2g)\n", name.c_str(), triangles, worst, tolerance);
        return;
    }
    // Totals: the pieces together against FlyingEdges on the whole volume.
    const long long total = sum(triangles);
    vtkNew<vtkFlyingEdges3D> whole;
    whole->SetInputConnection(wholeSource->GetOutputPort());
    for (size_t i = 0; i < isovalues.size(); ++i)
        whole->SetValue(int(i), isovalues[i]);
    whole->UpdatePiece(0, 1, 0);
    if (total != whole->GetOutput()->GetNumberOfCells())
        fail(name + ": " + std::to_string(total) + " triangles over " + std::to_string(ranks) +
             " pieces, FlyingEdges on the whole volume " + std::to_string(whole->GetOutput()->GetNumberOfCells()));

    // The pieces as one .pvtp, read back whole by VTK's XML reader.
    // Named by rank count and subgroup size: ctest runs the variants side by side.
    const char* subgroup = std::getenv("ISOSCOPE_EXPECT_SUBGROUP_SIZE");
    const std::string path = outDir + "/" + name + "-" + std::to_string(ranks) + "ranks-sg" + (subgroup ? subgroup : "any") + ".pvtp";
    vtkNew<vtkXMLPPolyDataWriter> writer;
    writer->SetInputConnection(isoscope->GetOutputPort());
    writer->SetFileName(path.c_str());
    writer->SetController(controller);
    writer->SetNumberOfPieces(ranks);
    writer->SetStartPiece(rank);
    writer->SetEndPiece(rank);
    if (!writer->Write())
        fail(name + ": cannot write " + path);
    controller->Barrier();
    if (rank == 0) {
        vtkNew<vtkXMLPPolyDataReader> reader;
        reader->SetFileName(path.c_str());
        reader->Update();
        vtkPolyData* merged = reader->GetOutput();
        if (merged->GetNumberOfCells() != total)
            fail(name + ": " + path + " reads back with " + std::to_string(merged->GetNumberOfCells()) +
                 " triangles, written " + std::to_string(total));
        // The merged pieces against isoscope on the whole volume, both ways.
        vtkNew<vtkIsoscopeContour> serial;
        serial->SetValidation(true);
        serial->SetInputConnection(makeSource()->GetOutputPort());
        for (size_t i = 0; i < isovalues.size(); ++i)
            serial->SetValue(int(i), isovalues[i]);
        serial->UpdatePiece(0, 1, 0);
        vtkPolyData* whole = serial->GetOutput();
        const Match there = worstMatch(merged, whole), back = worstMatch(whole, merged);
        const double normalTolerance = 1e-3; // float noise: 4e-5 seen; without the ghost layer: 0.43 on the wavelet
        if (whole->GetNumberOfCells() != merged->GetNumberOfCells() || !(there.distance <= tolerance) ||
            !(back.distance <= tolerance) || !(there.normal <= normalTolerance) || !(back.normal <= normalTolerance))
            fail(name + ": the merged pieces (" + std::to_string(merged->GetNumberOfCells()) +
                 " triangles) differ from the whole volume's surface (" + std::to_string(whole->GetNumberOfCells()) +
                 "): vertices " + std::to_string(std::max(there.distance, back.distance)) + " apart, normals " +
                 std::to_string(std::max(there.normal, back.normal)));
        std::printf("%s: %lld triangles over %d piece(s), equal to FlyingEdges; vertices within %.2g (tolerance %.2g); "
                    "%s reads back as the whole volume's surface (normals within %.2g)\n", name.c_str(), total, ranks,
                    worst, tolerance, path.c_str(), std::max(there.normal, back.normal));
    }
}

// Cell scalars only: a clear error, no output.
void cellDataIsAnError()
{
    vtkNew<vtkImageData> image;
    image->SetDimensions(4, 4, 4);
    vtkNew<vtkFloatArray> values;
    values->SetName("density");
    values->SetNumberOfValues(image->GetNumberOfCells());
    values->Fill(1.0f);
    image->GetCellData()->SetScalars(values);
    vtkNew<vtkIsoscopeContour> isoscope;
    isoscope->SetInputData(image);
    isoscope->SetValue(0, 0.5);
    int errors = 0;
    vtkNew<vtkCallbackCommand> onError;
    onError->SetCallback(countErrors);
    onError->SetClientData(&errors);
    isoscope->AddObserver(vtkCommand::ErrorEvent, onError);
    isoscope->Update();
    if (errors != 1 || isoscope->GetOutput()->GetNumberOfCells() != 0)
        fail("cell-data input: expected one error and no output, got " + std::to_string(errors) + " error(s)");
}

// The piece stays on the device between updates: an isovalue or method
// change extracts without uploading again; samples modified in place, a new
// input and ReleaseDeviceMemory() upload anew. Each step against FlyingEdges.
void updatesKeepThePiece()
{
    auto wavelet = [](int half) {
        vtkNew<vtkRTAnalyticSource> source;
        source->SetWholeExtent(-half, half, -half, half, -half, half);
        source->Update();
        auto image = vtkSmartPointer<vtkImageData>::New();
        image->DeepCopy(source->GetOutput());
        return image;
    };
    const int failuresBefore = failures;
    vtkSmartPointer<vtkImageData> image = wavelet(16);
    vtkNew<vtkIsoscopeContour> isoscope;
    isoscope->SetValidation(true);
    isoscope->SetInputData(image);
    auto step = [&](const std::string& what, double iso, int uploads) {
        isoscope->SetValue(0, iso);
        isoscope->Update();
        vtkNew<vtkFlyingEdges3D> reference;
        reference->SetInputData(image);
        reference->SetValue(0, iso);
        reference->Update();
        vtkPolyData* mesh = isoscope->GetOutput();
        const double tolerance = 1e-5 * image->GetSpacing()[0];
        const Match match = worstMatch(mesh, reference->GetOutput());
        if (isoscope->GetVolumeUploads() != uploads || mesh->GetNumberOfCells() != reference->GetOutput()->GetNumberOfCells() ||
            mesh->GetNumberOfCells() == 0 || !(match.distance <= tolerance))
            fail("kept piece, " + what + ": " + std::to_string(isoscope->GetVolumeUploads()) + " upload(s) (expected " +
                 std::to_string(uploads) + "), " + std::to_string(mesh->GetNumberOfCells()) + " triangles against FlyingEdges' " +
                 std::to_string(reference->GetOutput()->GetNumberOfCells()) + ", vertices " + std::to_string(match.distance) + " apart");
    };
    step("first update", 100.0, 1);
    step("isovalue change", 180.0, 1);
    isoscope->SetMethod(1);
    step("method change", 140.0, 1);
    vtkDataArray* values = image->GetPointData()->GetScalars();
    for (vtkIdType i = 0; i < values->GetNumberOfTuples(); ++i)
        values->SetTuple1(i, 320.0 - values->GetTuple1(i));
    values->Modified();
    step("samples modified in place", 140.0, 2);
    image = wavelet(12);
    isoscope->SetInputData(image);
    step("a new input", 180.0, 3);
    isoscope->ReleaseDeviceMemory(); // the output stays: only an update that runs uploads again
    step("after ReleaseDeviceMemory", 150.0, 4);
    if (failures == failuresBefore)
        std::printf("kept piece: isovalue and method changes extracted without an upload; modified samples, a new input and "
                "ReleaseDeviceMemory() uploaded anew; every step equal to FlyingEdges\n");
}

} // namespace

int main(int argc, char** argv)
{
    vtkNew<vtkMPIController> mpi;
    mpi->Initialize(&argc, &argv);
    vtkMultiProcessController::SetGlobalController(mpi);
    controller = mpi;
    rank = mpi->GetLocalProcessId();
    ranks = mpi->GetNumberOfProcesses();
    if (argc != 3) {
        std::fprintf(stderr, "usage: isoscope_vtk_tests OUT_DIR DATASETS_DIR\n");
        mpi->Finalize();
        return 2;
    }
    const std::string outDir = argv[1], datasets = argv[2];
    vtksys::SystemTools::MakeDirectory(outDir);

    // The synthetic field: VTK's wavelet (float32, about 37..277), 33 samples a side.
    const Source wavelet = [] {
        auto source = vtkSmartPointer<vtkRTAnalyticSource>::New();
        source->SetWholeExtent(-16, 16, -16, 16, -16, 16);
        return vtkSmartPointer<vtkAlgorithm>(source);
    };
    compare("wavelet-float32", wavelet, {100.0, 160.0, 220.0}, outDir);
    compare("wavelet-no-surface", wavelet, {1000.0}, outDir);
    for (int type : {VTK_DOUBLE, VTK_UNSIGNED_CHAR, VTK_INT}) {
        const Source cast = [&wavelet, type] {
            auto filter = vtkSmartPointer<vtkImageCast>::New();
            filter->SetInputConnection(wavelet()->GetOutputPort());
            filter->SetOutputScalarType(type);
            filter->ClampOverflowOn();
            return vtkSmartPointer<vtkAlgorithm>(filter);
        };
        // Whole: vtkImageCast (VTK 9.1) asked for pieces under MPI reads outside its input and crashes.
        compare(std::string("wavelet-") + (type == VTK_DOUBLE ? "float64" : type == VTK_INT ? "int32" : "uint8"), cast,
                {120.5, 200.5}, outDir, false);
    }

    // A real volume (int16, uploaded as it is), where ../shared has it.
    const std::string fmri = datasets + "/fmri_128x96x24_int16.nhdr";
    if (vtksys::SystemTools::FileExists(fmri)) {
        const Source reader = [&fmri] {
            auto source = vtkSmartPointer<vtkNrrdReader>::New();
            source->SetFileName(fmri.c_str());
            return vtkSmartPointer<vtkAlgorithm>(source);
        };
        compare("fmri-int16", reader, {300.5}, outDir);
    } else if (rank == 0) {
        std::printf("SKIP fmri-int16: %s not found\n", fmri.c_str());
    }
    cellDataIsAnError();
    if (rank == 0)
        updatesKeepThePiece();

    const long long allFailures = sum(failures);
    mpi->Finalize();
    if (rank == 0)
        std::printf("%s: %lld failure(s) over %d rank(s)\n", allFailures ? "FAILED" : "passed", allFailures, ranks);
    return allFailures ? 1 : 0;
}
