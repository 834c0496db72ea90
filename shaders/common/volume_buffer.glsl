// Reading samples of any supported scalar type from a volume stored as a raw
// storage buffer of 32-bit words (the file's bytes, little-endian), without
// needing 8/16-bit storage features. Declare the buffer as
//   layout(...) readonly buffer VolumeWords { uint volumeWords[]; };
// before including. Scalar type codes match isoscope::ScalarType.

const uint SCALAR_UINT8 = 0u;
const uint SCALAR_UINT16 = 1u;
const uint SCALAR_INT16 = 2u;
const uint SCALAR_FLOAT32 = 3u;

float volumeSampleAt(uint index, uint scalarType)
{
    if (scalarType == SCALAR_UINT8)
        return float(bitfieldExtract(volumeWords[index >> 2], int(index & 3u) * 8, 8));
    if (scalarType == SCALAR_UINT16)
        return float(bitfieldExtract(volumeWords[index >> 1], int(index & 1u) * 16, 16));
    if (scalarType == SCALAR_INT16)
        return float(bitfieldExtract(int(volumeWords[index >> 1]), int(index & 1u) * 16, 16));
    return uintBitsToFloat(volumeWords[index]);
}
