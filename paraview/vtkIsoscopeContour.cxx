#include "vtkIsoscopeContour.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>
#include "vtkIsoscopeGhostCells.h"
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkContourValues.h>
#include <vtkDataSetAttributes.h>
#include <vtkFloatArray.h>
#include <vtkFlyingEdges3D.h>
#include <vtkIdTypeArray.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkObjectFactory.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkStreamingDemandDrivenPipeline.h>

namespace iso = isoscope::api;

vtkStandardNewMacro(vtkIsoscopeContour);

// The Context outlives updates: creating a device (and, on lavapipe,
// compiling the pipelines) costs far more than one extraction.
struct vtkIsoscopeContour::Gpu {
    std::optional<iso::Context> context;
    bool validation = false;
    std::vector<std::string> messages; // validation messages since the last update
};

// One Context per process, shared by every vtkIsoscopeContour (a ParaView
// pipeline may hold several): isoscope's Vulkan entry points are
// process-wide (volk), so contexts with different layers must not live side
// by side, and one device per rank is the placement MPI asks for anyway.
std::shared_ptr<vtkIsoscopeContour::Gpu> vtkIsoscopeContour::SharedGpu()
{
    static std::weak_ptr<Gpu> shared;
    std::shared_ptr<Gpu> gpu = shared.lock();
    if (!gpu) {
        gpu = std::make_shared<Gpu>();
        shared = gpu;
    }
    return gpu;
}

// What the piece on the device was made from: an update that matches it
// reuses the volume (no upload) and, for the same method, the extraction.
// MTimes are VTK's global counter, so a new array at the freed address of
// the old one never matches; the image's MTime also moves when its producer
// runs again (the data object is initialized anew) or an array is modified.
struct vtkIsoscopeContour::Piece {
    vtkDataArray* array = nullptr;
    vtkMTimeType arrayTime = 0, imageTime = 0;
    std::array<int, 6> extent{};
    std::array<double, 3> spacing{}, origin{};
    std::optional<iso::Volume> volume;
    std::optional<iso::Isosurface> surface; // after volume: destroyed first
    int method = -1;

    bool holds(vtkImageData* image, vtkDataArray* scalars, const int pieceExtent[6], const double pieceSpacing[3],
               const double pieceOrigin[3]) const
    {
        return volume && array == scalars && arrayTime == scalars->GetMTime() && imageTime == image->GetMTime() &&
               std::equal(extent.begin(), extent.end(), pieceExtent) &&
               std::equal(spacing.begin(), spacing.end(), pieceSpacing) &&
               std::equal(origin.begin(), origin.end(), pieceOrigin);
    }
};

namespace {

// The node-local rank as the MPI launchers export it (Open MPI, MPICH, Slurm); 0 outside MPI.
int localRank()
{
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "SLURM_LOCALID"})
        if (const char* value = std::getenv(name))
            return std::atoi(value);
    return 0;
}

// The isoscope scalar type a VTK array uploads as without conversion, if any.
std::optional<iso::ScalarType> directType(int vtkType)
{
    switch (vtkType) {
    case VTK_UNSIGNED_CHAR: return iso::ScalarType::UInt8;
    case VTK_UNSIGNED_SHORT: return iso::ScalarType::UInt16;
    case VTK_SHORT: return iso::ScalarType::Int16;
    case VTK_FLOAT: return iso::ScalarType::Float32;
    default: return std::nullopt;
    }
}

} // namespace

vtkIsoscopeContour::vtkIsoscopeContour() : Device(SharedGpu()), Values(vtkContourValues::New())
{
    this->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, vtkDataSetAttributes::SCALARS);
}

vtkIsoscopeContour::~vtkIsoscopeContour() { this->Values->Delete(); }

void vtkIsoscopeContour::ReleaseDeviceMemory() { this->Resident.reset(); }

void vtkIsoscopeContour::SetValue(int i, double value) { this->Values->SetValue(i, value); }
double vtkIsoscopeContour::GetValue(int i) { return this->Values->GetValue(i); }
void vtkIsoscopeContour::SetNumberOfContours(int number) { this->Values->SetNumberOfContours(number); }
int vtkIsoscopeContour::GetNumberOfContours() { return this->Values->GetNumberOfContours(); }

vtkMTimeType vtkIsoscopeContour::GetMTime()
{
    return std::max(this->Superclass::GetMTime(), this->Values->GetMTime());
}

int vtkIsoscopeContour::FillInputPortInformation(int, vtkInformation* info)
{
    info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
    return 1;
}

// One ghost layer more than downstream asks for: the central differences at
// the piece's faces need the samples beyond them (vtkFlyingEdges3D does the same).
int vtkIsoscopeContour::RequestUpdateExtent(vtkInformation*, vtkInformationVector** inputVector,
                                            vtkInformationVector* outputVector)
{
    using Pipeline = vtkStreamingDemandDrivenPipeline;
    vtkInformation* inInfo = inputVector[0]->GetInformationObject(0);
    vtkInformation* outInfo = outputVector->GetInformationObject(0);
    const int ghostLevels = outInfo->Get(Pipeline::UPDATE_NUMBER_OF_GHOST_LEVELS());
    inInfo->Set(Pipeline::UPDATE_NUMBER_OF_GHOST_LEVELS(), ghostLevels + 1);
    return 1;
}

int vtkIsoscopeContour::RequestData(vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
    vtkImageData* input = vtkImageData::GetData(inputVector[0]);
    vtkPolyData* output = vtkPolyData::GetData(outputVector);
    int association = -1;
    vtkDataArray* scalars = this->GetInputArrayToProcess(0, inputVector, association);
    if (!scalars || association != vtkDataObject::FIELD_ASSOCIATION_POINTS) {
        vtkDataArray* cellScalars = input->GetCellData()->GetScalars();
        if (association == vtkDataObject::FIELD_ASSOCIATION_CELLS || (!scalars && cellScalars))
            vtkErrorMacro("Isoscope Contour: the input's scalars are cell data ('"
                          << (scalars ? scalars->GetName() : cellScalars->GetName())
                          << "'); it contours point data (apply Cell Data to Point Data first)");
        else
            vtkErrorMacro("Isoscope Contour: the input has no point scalars to contour");
        return 0;
    }
    if (scalars->GetNumberOfComponents() != 1) {
        vtkErrorMacro("Isoscope Contour: array '" << scalars->GetName() << "' has "
                      << scalars->GetNumberOfComponents() << " components; it contours one");
        return 0;
    }
    int extent[6];
    input->GetExtent(extent);
    const int dims[3] = {extent[1] - extent[0] + 1, extent[3] - extent[2] + 1, extent[5] - extent[4] + 1};
    if (dims[0] < 2 || dims[1] < 2 || dims[2] < 2 || this->GetNumberOfContours() == 0)
        return 1; // a piece without cells (or no isovalue): an empty surface, as vtkFlyingEdges3D gives
    vtkIsoscopeGhostCells::Grid grid;
    for (int axis = 0; axis < 3; ++axis) {
        grid.spacing[axis] = input->GetSpacing()[axis];
        grid.origin[axis] = input->GetOrigin()[axis] + extent[2 * axis] * grid.spacing[axis]; // the piece's first sample
        grid.extent[2 * axis] = extent[2 * axis];
        grid.extent[2 * axis + 1] = extent[2 * axis + 1];
    }
    const std::array<int, 6> owned = vtkIsoscopeGhostCells::ownedExtent(inputVector[0]->GetInformationObject(0),
                                                                         outputVector->GetInformationObject(0), extent);

    if (!this->Device->context) {
        iso::ContextOptions options;
        options.validation = this->Validation;
        Gpu* gpu = this->Device.get();
        options.onMessage = [gpu](std::string_view message) { gpu->messages.emplace_back(message); };
        auto context = iso::Context::create(options);
        if (context) {
            // The rank's device: its node-local rank modulo the usable devices.
            std::vector<uint32_t> usable;
            for (const iso::DeviceInfo& device : context->devices())
                if (device.usable)
                    usable.push_back(device.index);
            const uint32_t wanted = usable.empty() ? 0 : usable[size_t(localRank()) % usable.size()];
            if (!usable.empty() && wanted != context->info().index) {
                options.device = std::to_string(wanted);
                context = iso::Context::create(options);
            }
        }
        if (!context && !this->CPUFallback) {
            vtkErrorMacro("Isoscope Contour: no usable Vulkan device (" << context.error().message
                          << "); set CPUFallback to run vtkFlyingEdges3D instead");
            return 0;
        }
        if (context)
            this->Device->context.emplace(std::move(*context));
        this->Device->validation = this->Validation;
    }
    if (this->Device->context && this->Device->validation != this->Validation && !this->SaidValidation) {
        vtkWarningMacro("Isoscope Contour: validation stays " << (this->Device->validation ? "on" : "off")
                        << ": this process's filters share one device, made with it " << (this->Device->validation ? "on" : "off"));
        this->SaidValidation = true;
    }
    if (!this->Device->context) {
        vtkNew<vtkFlyingEdges3D> flyingEdges;
        vtkNew<vtkImageData> copy;
        copy->ShallowCopy(input);
        flyingEdges->SetInputData(copy);
        flyingEdges->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, scalars->GetName());
        for (int i = 0; i < this->GetNumberOfContours(); ++i)
            flyingEdges->SetValue(i, this->GetValue(i));
        flyingEdges->SetComputeNormals(this->ComputeNormals);
        flyingEdges->SetComputeScalars(this->ComputeScalars);
        flyingEdges->Update();
        output->ShallowCopy(flyingEdges->GetOutput());
        vtkIsoscopeGhostCells::removeGhostTriangles(output, grid, owned);
        this->DeviceIndex = -1;
        return 1;
    }
    iso::Context& context = *this->Device->context;
    this->DeviceIndex = int(context.info().index);

    this->Device->messages.clear();
    const double* spacing = input->GetSpacing();
    if (!this->Resident || !this->Resident->holds(input, scalars, extent, spacing, grid.origin.data())) {
        this->Resident.reset(); // the old piece's device memory first
        auto piece = std::make_unique<Piece>();
        // Types the GPU volume holds go up as they are (no host copy); others as float32.
        vtkSmartPointer<vtkDataArray> samples = scalars;
        std::optional<iso::ScalarType> type = directType(scalars->GetDataType());
        if (!type || !scalars->HasStandardMemoryLayout()) {
            auto converted = vtkSmartPointer<vtkFloatArray>::New();
            converted->DeepCopy(scalars);
            samples = converted;
            if (!type && !this->SaidConverted)
                vtkWarningMacro("Isoscope Contour: array '" << scalars->GetName() << "' (" << scalars->GetDataTypeAsString()
                                << ") is converted to float32 on the host; uint8, uint16, int16 and float32 go up as they are");
            this->SaidConverted = this->SaidConverted || !type;
            type = iso::ScalarType::Float32;
        }
        iso::VolumeDesc desc;
        desc.type = *type;
        for (int axis = 0; axis < 3; ++axis) {
            desc.dims[axis] = uint32_t(dims[axis]);
            desc.spacing[axis] = grid.spacing[axis];
            desc.origin[axis] = grid.origin[axis];
        }
        const size_t bytes = size_t(samples->GetNumberOfValues()) * size_t(samples->GetDataTypeSize());
        auto volume = iso::Volume::fromMemory(context, desc, samples->GetVoidPointer(0), bytes);
        if (!volume) {
            vtkErrorMacro("Isoscope Contour: cannot upload the piece: " << volume.error().message);
            return 0;
        }
        ++this->VolumeUploads;
        piece->volume.emplace(std::move(*volume));
        piece->array = scalars;
        piece->arrayTime = scalars->GetMTime();
        piece->imageTime = input->GetMTime();
        std::copy(extent, extent + 6, piece->extent.begin());
        std::copy(spacing, spacing + 3, piece->spacing.begin());
        piece->origin = grid.origin;
        this->Resident = std::move(piece);
    }
    Piece& piece = *this->Resident;
    if (!piece.surface || piece.method != this->Method) {
        piece.surface.reset();
        auto surface = iso::Isosurface::create(context, *piece.volume, {iso::Method(this->Method)});
        if (!surface) {
            vtkErrorMacro("Isoscope Contour: " << surface.error().message);
            return 0;
        }
        piece.surface.emplace(std::move(*surface));
        piece.method = this->Method;
    }
    iso::Isosurface* surface = &*piece.surface;

    // The meshes of all isovalues, then VTK's arrays filled whole from them
    // (inserting point by point and cell by cell took longer than extraction).
    std::vector<iso::HostMesh> meshes;
    vtkIdType pointCount = 0, triangleCount = 0;
    for (int i = 0; i < this->GetNumberOfContours(); ++i) {
        auto mesh = surface->extract(float(this->GetValue(i)));
        if (!mesh) {
            vtkErrorMacro("Isoscope Contour: extraction at " << this->GetValue(i) << " failed: " << mesh.error().message);
            return 0;
        }
        pointCount += vtkIdType(mesh->positions.size());
        triangleCount += vtkIdType(mesh->indices.size() / 3);
        meshes.push_back(std::move(*mesh));
    }
    vtkNew<vtkFloatArray> coordinates;
    coordinates->SetNumberOfComponents(3);
    coordinates->SetNumberOfTuples(pointCount);
    vtkNew<vtkFloatArray> normals;
    normals->SetName("Normals");
    normals->SetNumberOfComponents(3);
    normals->SetNumberOfTuples(pointCount);
    vtkSmartPointer<vtkDataArray> values = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(scalars->GetDataType()));
    values->SetName(scalars->GetName());
    values->SetNumberOfTuples(pointCount);
    vtkNew<vtkIdTypeArray> offsets;
    offsets->SetNumberOfValues(triangleCount + 1);
    vtkIdType* offset = offsets->GetPointer(0);
    for (vtkIdType t = 0; t <= triangleCount; ++t)
        offset[t] = 3 * t;
    vtkNew<vtkIdTypeArray> connectivity;
    connectivity->SetNumberOfValues(3 * triangleCount);
    vtkIdType firstPoint = 0, firstIndex = 0;
    for (size_t i = 0; i < meshes.size(); ++i) {
        const iso::HostMesh& mesh = meshes[i];
        const vtkIdType count = vtkIdType(mesh.positions.size());
        if (count) {
            std::memcpy(coordinates->GetPointer(3 * firstPoint), mesh.positions.data(), size_t(count) * sizeof(mesh.positions[0]));
            std::memcpy(normals->GetPointer(3 * firstPoint), mesh.normals.data(), size_t(count) * sizeof(mesh.normals[0]));
        }
        for (vtkIdType p = firstPoint; p < firstPoint + count; ++p)
            values->SetTuple1(p, this->GetValue(int(i)));
        vtkIdType* ids = connectivity->GetPointer(0) + firstIndex;
        const size_t indexCount = mesh.indices.size() / 3 * 3;
        for (size_t k = 0; k < indexCount; ++k)
            ids[k] = firstPoint + vtkIdType(mesh.indices[k]);
        firstPoint += count;
        firstIndex += vtkIdType(indexCount);
    }
    meshes.clear(); // before the polydata is handed on: the peak is the meshes and VTK's arrays, not more
    vtkNew<vtkPoints> points;
    points->SetData(coordinates);
    vtkNew<vtkCellArray> triangles;
    triangles->SetData(offsets, connectivity);
    if (!this->Device->messages.empty()) {
        vtkErrorMacro("Isoscope Contour: " << this->Device->messages.size()
                      << " validation message(s), the first: " << this->Device->messages.front());
        return 0;
    }
    output->SetPoints(points);
    output->SetPolys(triangles);
    if (this->ComputeNormals)
        output->GetPointData()->SetNormals(normals);
    if (this->ComputeScalars)
        output->GetPointData()->SetScalars(values);
    vtkIsoscopeGhostCells::removeGhostTriangles(output, grid, owned);
    return 1;
}

void vtkIsoscopeContour::PrintSelf(ostream& os, vtkIndent indent)
{
    this->Superclass::PrintSelf(os, indent);
    this->Values->PrintSelf(os, indent.GetNextIndent());
    os << indent << "Method: " << iso::methodName(iso::Method(this->Method)) << "\n";
    os << indent << "ComputeNormals: " << this->ComputeNormals << "\n";
    os << indent << "ComputeScalars: " << this->ComputeScalars << "\n";
    os << indent << "Validation: " << this->Validation << "\n";
    os << indent << "CPUFallback: " << this->CPUFallback << "\n";
    os << indent << "DeviceIndex: " << this->DeviceIndex << "\n";
}
