#pragma once
// vtkIsoscopeContour: vtkFlyingEdges3D's job (image data in, triangle
// polydata out) done on a Vulkan GPU by isoscope's public API. The output
// follows vtkFlyingEdges3D's conventions: welded triangles in world
// coordinates, point normals "Normals", point scalars holding the isovalue
// (named as the input array), one surface appended after another for several
// isovalues.
//
//   vtkNew<vtkIsoscopeContour> contour;
//   contour->SetInputConnection(reader->GetOutputPort());
//   contour->SetValue(0, 100.0);
//   contour->Update();
//
// Under MPI each rank contours the piece it is given, with one layer of
// ghost cells beyond it (for the normals at its faces, as vtkFlyingEdges3D
// asks), and keeps the triangles of its own cells only: the pieces' surfaces
// stitch into the whole volume's. It runs on the device its
// node-local rank picks (local rank modulo the usable devices: ranks share a
// GPU when there are more ranks than GPUs). A rank without a usable device
// fails with a message; it runs vtkFlyingEdges3D instead only when
// SetCPUFallback(true) asks for it.
//
// The piece stays on the device between updates: an update that changes
// only the isovalues (or the method) extracts without uploading it again.
// A new piece, a modified scalars array or another extent uploads anew;
// ReleaseDeviceMemory() gives the device memory back before that.
#include <memory>

#include <vtkPolyDataAlgorithm.h>

class vtkContourValues;

class vtkIsoscopeContour : public vtkPolyDataAlgorithm {
public:
    static vtkIsoscopeContour* New();
    vtkTypeMacro(vtkIsoscopeContour, vtkPolyDataAlgorithm);
    void PrintSelf(ostream& os, vtkIndent indent) override;

    // Isovalues, as vtkFlyingEdges3D takes them.
    void SetValue(int i, double value);
    double GetValue(int i);
    void SetNumberOfContours(int number);
    int GetNumberOfContours();
    vtkMTimeType GetMTime() override;

    // 0: block (welded, the default), 1: scan, 2: histopyramid (isoscope::api::Method).
    vtkSetClampMacro(Method, int, 0, 2);
    vtkGetMacro(Method, int);
    vtkSetMacro(ComputeNormals, bool);
    vtkGetMacro(ComputeNormals, bool);
    vtkBooleanMacro(ComputeNormals, bool);
    vtkSetMacro(ComputeScalars, bool);
    vtkGetMacro(ComputeScalars, bool);
    vtkBooleanMacro(ComputeScalars, bool);
    // Khronos validation on the device; any message fails the update. The
    // filters of a process share one device, made as the first to update asks.
    vtkSetMacro(Validation, bool);
    vtkGetMacro(Validation, bool);
    // vtkFlyingEdges3D where no usable Vulkan device is found (off: fail).
    vtkSetMacro(CPUFallback, bool);
    vtkGetMacro(CPUFallback, bool);
    // The device index the last update ran on (-1: none yet, or the CPU fallback).
    vtkGetMacro(DeviceIndex, int);
    // How many times a piece went up to the device (isovalue changes do not count).
    vtkGetMacro(VolumeUploads, int);
    // Drops the piece kept on the device; the next update uploads it again.
    void ReleaseDeviceMemory();

protected:
    vtkIsoscopeContour();
    ~vtkIsoscopeContour() override;
    int FillInputPortInformation(int port, vtkInformation* info) override;
    int RequestUpdateExtent(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;
    int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

private:
    vtkIsoscopeContour(const vtkIsoscopeContour&) = delete;
    void operator=(const vtkIsoscopeContour&) = delete;

    struct Gpu; // the isoscope Context, made at the first update, shared by the process's filters
    static std::shared_ptr<Gpu> SharedGpu();
    struct Piece; // the last piece on the device, its extraction and what it was made from
    std::shared_ptr<Gpu> Device;
    std::unique_ptr<Piece> Resident; // after Device: destroyed before the Context it lives on
    vtkContourValues* Values;
    int Method = 0;
    bool ComputeNormals = true;
    bool ComputeScalars = true;
    bool Validation = false;
    bool CPUFallback = false;
    int DeviceIndex = -1;
    int VolumeUploads = 0;
    bool SaidConverted = false;
    bool SaidValidation = false;
};
