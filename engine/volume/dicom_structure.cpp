// Walks a Part 10 file's data elements (PS3.5 section 7: explicit and
// implicit VR, sequences of defined and undefined length, encapsulated pixel
// data) and checks each one's length against the bytes left.
#include "volume/dicom_structure.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gdcmDictEntry.h>
#include <gdcmDicts.h>
#include <gdcmGlobal.h>
#include <gdcmTag.h>
#include <gdcmVR.h>

#include "core/text.h"
#include "volume/read_support.h"

namespace isoscope::readsupport {

namespace {

constexpr uint32_t undefinedLength = 0xffffffff;
constexpr uint32_t itemTag = 0xfffee000, itemEndTag = 0xfffee00d, sequenceEndTag = 0xfffee0dd;
constexpr uint32_t pixelDataTag = 0x7fe00010, samplesPerPixelTag = 0x00280002, rescaleSlopeTag = 0x00281053,
                   rescaleInterceptTag = 0x00281052, photometricTag = 0x00280004;

// The value representations of PS3.5 section 6.2, table 6.2-1.
bool isStandardVr(const char vr[3])
{
    static const char* standard[] = {"AE", "AS", "AT", "CS", "DA", "DS", "DT", "FD", "FL", "IS", "LO",
                                     "LT", "OB", "OD", "OF", "OL", "OV", "OW", "PN", "SH", "SL", "SQ",
                                     "SS", "ST", "SV", "TM", "UC", "UI", "UL", "UN", "UR", "US", "UT", "UV"};
    for (const char* known : standard)
        if (std::strcmp(vr, known) == 0)
            return true;
    return false;
}

// Whether an explicit VR is one GDCM's dictionary accepts for the tag, by
// GDCM's own rule (VR::Compatible; UN fits any). Tags it does not know fit.
bool fitsDictionary(uint32_t tag, const char vr[3])
{
    static const gdcm::Dicts& dicts = gdcm::Global::GetInstance().GetDicts();
    const gdcm::DictEntry& entry = dicts.GetDictEntry(gdcm::Tag(uint16_t(tag >> 16), uint16_t(tag & 0xffff)));
    gdcm::VR expected = entry.GetVR();
    if (expected == gdcm::VR::INVALID)
        return true;
    return expected.Compatible(gdcm::VR(gdcm::VR::GetVRType(vr)));
}

struct Walker {
    const std::filesystem::path& path;
    const std::vector<std::byte>& bytes;
    bool explicitVr = true;
    bool bigEndian = false;
    bool pixelData = false; // seen at the top level
    bool rescaleIntercept = false, rescaleSlope = false; // likewise

    [[noreturn]] void malformed(uint64_t at, uint32_t tag, const std::string& problem) const
    {
        char name[16];
        std::snprintf(name, sizeof(name), "(%04x,%04x)", tag >> 16, tag & 0xffff);
        failFile(path, "truncated or malformed DICOM: element " + std::string(name) + " at byte " +
                           std::to_string(at) + " " + problem + " (the file has " + std::to_string(bytes.size()) +
                           " bytes)");
    }

    uint32_t read(uint64_t at, int size, bool big) const
    {
        uint32_t value = 0;
        for (int i = 0; i < size; ++i) {
            uint32_t byte = uint32_t(bytes[at + i]);
            value |= big ? byte << (8 * (size - 1 - i)) : byte << (8 * i);
        }
        return value;
    }

    // An element header at `at`, within [at, end): its tag, value length and where the value starts.
    struct Header {
        uint32_t tag;
        uint32_t length;
        uint64_t value;
        bool sequence;
    };

    Header header(uint64_t at, uint64_t end, bool explicitHere, bool big, bool meta) const
    {
        if (end - at < 8)
            malformed(at, 0, "is cut off in its tag");
        uint32_t tag = read(at, 2, big) << 16 | read(at + 2, 2, big);
        // Items and delimiters have no VR, in every transfer syntax (PS3.5 7.5).
        if (!explicitHere || (tag >> 16) == 0xfffe)
            return {tag, read(at + 4, 4, big), at + 8, false};
        char vr[3] = {char(bytes[at + 4]), char(bytes[at + 5]), 0};
        // An explicit VR must be one of PS3.5's: GDCM reads an unknown one
        // with the long header (a 4-byte length after 2 reserved bytes), so
        // it would walk a different file than this check did and allocate
        // whatever length it found there (found by fuzz: dicom, 800 MB for a
        // 584-byte file); a meta group without VRs it takes for implicit and
        // aborts on an assertion (gdcmFileMetaInformation.cxx, also fuzz: dicom).
        if (!isStandardVr(vr))
            malformed(at, tag, std::string("has no valid VR ('") + printable(std::string_view(vr, 2)) + "')" +
                                   (meta ? ": the file meta group must be explicit VR" : ""));
        // GDCM reads the image module's elements as typed attributes, which
        // assert that the file's VR fits the dictionary's (gdcmAttribute.h:
        // a Bits Stored of VR 'OB' aborts; found by fuzz: dicom).
        if (!fitsDictionary(tag, vr))
            malformed(at, tag, "has VR '" + std::string(vr) + "', which the DICOM dictionary does not allow for it");
        static const char* longForms[] = {"OB", "OD", "OF", "OL", "OV", "OW", "SQ", "UC", "UN", "UR", "UT", "SV", "UV"};
        for (const char* form : longForms)
            if (std::strcmp(vr, form) == 0) {
                if (end - at < 12)
                    malformed(at, tag, "is cut off in its length");
                uint32_t length = read(at + 8, 4, big);
                // GDCM asserts that an explicit-VR element of undefined length is
                // SQ, UN, or pixel data in OB/OW (gdcmExplicitDataElement.txx;
                // found by fuzz: dicom, an OW element of undefined length).
                bool pixelFragments = tag == pixelDataTag && (vr[0] == 'O' && (vr[1] == 'B' || vr[1] == 'W'));
                if (length == undefinedLength && std::strcmp(vr, "SQ") != 0 && std::strcmp(vr, "UN") != 0 &&
                    !pixelFragments)
                    malformed(at, tag, "has VR '" + std::string(vr) +
                                           "' and an undefined length, which DICOM allows only for SQ, UN and "
                                           "encapsulated pixel data");
                if (tag == pixelDataTag && std::strcmp(vr, "SQ") == 0)
                    malformed(at, tag, "is Pixel Data of VR 'SQ'");
                return {tag, length, at + 12, std::strcmp(vr, "SQ") == 0};
            }
        return {tag, read(at + 6, 2, big), at + 8, false};
    }

    // GDCM asserts that Samples per Pixel is 1, 3 or 4 (gdcmPixelFormat.h), the
    // values PS3.3 C.7.6.3.1.1 allows; found by fuzz: dicom.
    void checkSamplesPerPixel(uint64_t at, const Header& h, uint64_t end) const
    {
        if (h.length != 2 || end - h.value < 2)
            malformed(at, h.tag, "(Samples per Pixel) has " + std::to_string(h.length) + " bytes, not one US value");
        uint32_t samples = read(h.value, 2, bigEndian);
        if (samples != 1 && samples != 3 && samples != 4)
            malformed(at, h.tag, "(Samples per Pixel) is " + std::to_string(samples) + ": DICOM allows 1, 3 or 4");
    }

    // GDCM asserts that Rescale Slope is not 0 (gdcmImageHelper.cxx; found by
    // fuzz: dicom): a slope of 0, or one that is not a number, is refused here.
    void checkRescaleSlope(uint64_t at, const Header& h, uint64_t end) const
    {
        if (h.length == undefinedLength || h.length > end - h.value || h.length > 64)
            return; // reported by the walk, or not a DS value GDCM reads as one
        std::string text(reinterpret_cast<const char*>(bytes.data() + h.value), h.length);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\0'))
            text.pop_back();
        char* parsed = nullptr;
        double slope = std::strtod(text.c_str(), &parsed);
        if (text.empty() || parsed == text.c_str() || !std::isfinite(slope) || slope == 0.0)
            malformed(at, h.tag, "(Rescale Slope) is '" + printable(text, 20) + "': give a finite number other than 0");
    }

    // isoscope reads grayscale slices only, and GDCM asserts on colour ones
    // whose palette is missing (gdcmPixmapReader.cxx; found by fuzz: dicom),
    // so any Photometric Interpretation but MONOCHROME1/2 is refused here.
    void checkMonochrome(uint64_t at, const Header& h, uint64_t end) const
    {
        if (h.length == undefinedLength || h.length > end - h.value)
            return; // reported by the walk
        std::string text(reinterpret_cast<const char*>(bytes.data() + h.value), h.length);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\0'))
            text.pop_back();
        if (text != "MONOCHROME1" && text != "MONOCHROME2")
            failFile(path, "has Photometric Interpretation (0028,0004) '" + printable(text, 20) +
                               "'; isoscope reads grayscale series (MONOCHROME1 or MONOCHROME2)");
    }

    // PS3.5 7.5: a delimiter's length is 0. GDCM reads a non-zero one as a
    // value and allocates it (found by fuzz: dicom, 1 GB for a 444-byte file).
    uint64_t delimiterEnd(uint64_t at, const Header& h) const
    {
        if (h.length != 0)
            malformed(at, h.tag, "is a delimiter of length " + std::to_string(h.length) + ", not 0");
        return h.value;
    }

    // Elements from `at` to `end`; within an undefined-length item, until its delimiter. Returns where it stopped.
    uint64_t elements(uint64_t at, uint64_t end, bool untilItemEnd, int depth)
    {
        if (depth > 32)
            malformed(at, 0, "nests sequences more than 32 deep");
        while (at < end) {
            bool meta = at + 2 <= end && read(at, 2, false) == 0x0002; // the meta group is explicit little-endian
            Header h = header(at, end, meta || explicitVr, !meta && bigEndian, meta);
            if (h.tag == itemEndTag && untilItemEnd)
                return delimiterEnd(at, h);
            // Items and delimiters belong inside sequences; GDCM asserts on one
            // among a data set's elements (gdcmVR16ExplicitDataElement.txx; found by fuzz: dicom).
            if ((h.tag >> 16) == 0xfffe)
                malformed(at, h.tag, "is an item or delimiter tag outside a sequence");
            pixelData = pixelData || (depth == 0 && h.tag == pixelDataTag);
            // PS3.10 7.1 defines no meta element of undefined length or VR SQ;
            // GDCM's meta reader asserts on one (found by fuzz: dicom).
            if (meta && (h.sequence || h.length == undefinedLength))
                malformed(at, h.tag, "is a sequence or of undefined length inside the file meta group");
            if (h.tag == rescaleSlopeTag)
                checkRescaleSlope(at, h, end);
            if (depth == 0 && h.tag == photometricTag)
                checkMonochrome(at, h, end);
            rescaleIntercept = rescaleIntercept || (depth == 0 && h.tag == rescaleInterceptTag);
            rescaleSlope = rescaleSlope || (depth == 0 && h.tag == rescaleSlopeTag);
            if (depth == 0 && h.tag == samplesPerPixelTag)
                checkSamplesPerPixel(at, h, end);
            if (h.length == undefinedLength) {
                // An undefined length: a sequence, or encapsulated pixel data (PS3.5 A.4).
                at = items(h.value, end, h.tag, h.tag != pixelDataTag, depth, true);
                continue;
            }
            if (h.length > end - h.value)
                malformed(at, h.tag, "claims " + std::to_string(h.length) + " bytes but " +
                                         std::to_string(end - h.value) + " are left");
            if (h.sequence)
                items(h.value, h.value + h.length, h.tag, true, depth, false); // defined length: items inside
            at = h.value + h.length;
        }
        if (untilItemEnd)
            malformed(at, itemEndTag, "is missing: an item of undefined length does not end");
        return at;
    }

    // Items until the sequence delimiter (undefined length: it must come before
    // `end`) or until `end` (defined length); returns the byte after.
    uint64_t items(uint64_t at, uint64_t end, uint32_t owner, bool nested, int depth, bool undefined)
    {
        while (at < end) {
            Header h = header(at, end, false, bigEndian, false);
            if (h.tag == sequenceEndTag)
                return delimiterEnd(at, h);
            if (h.tag != itemTag)
                malformed(at, owner, "holds a non-item element inside a sequence");
            if (h.length == undefinedLength) {
                if (!nested)
                    malformed(at, owner, "has a pixel-data fragment of undefined length");
                at = elements(h.value, end, true, depth + 1);
                continue;
            }
            if (h.length > end - h.value)
                malformed(at, owner, "has an item of " + std::to_string(h.length) + " bytes but " +
                                         std::to_string(end - h.value) + " are left");
            if (nested)
                elements(h.value, h.value + h.length, false, depth + 1);
            at = h.value + h.length;
        }
        if (undefined)
            malformed(at, owner, "does not end: no sequence delimiter before the end of the file");
        return at;
    }
};

std::string transferSyntaxOf(const std::vector<std::byte>& bytes)
{
    // The meta group, explicit VR little endian, right after "DICM".
    uint64_t at = 132;
    while (at + 8 <= bytes.size()) {
        uint32_t group = uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8;
        uint32_t element = uint32_t(bytes[at + 2]) | uint32_t(bytes[at + 3]) << 8;
        if (group != 0x0002)
            break;
        bool longForm = (bytes[at + 4] == std::byte('O') || bytes[at + 4] == std::byte('U')) &&
                        bytes[at + 5] != std::byte('I') && bytes[at + 5] != std::byte('L') &&
                        bytes[at + 5] != std::byte('S');
        uint64_t length = 0, value = 0;
        if (longForm) {
            if (at + 12 > bytes.size())
                break;
            length = uint32_t(bytes[at + 8]) | uint32_t(bytes[at + 9]) << 8 | uint32_t(bytes[at + 10]) << 16 |
                     uint32_t(bytes[at + 11]) << 24;
            value = at + 12;
        } else {
            length = uint32_t(bytes[at + 6]) | uint32_t(bytes[at + 7]) << 8;
            value = at + 8;
        }
        if (value + length > bytes.size())
            break;
        if (element == 0x0010) {
            // GDCM reads the UID as a C string, up to its first NUL.
            std::string uid(reinterpret_cast<const char*>(bytes.data() + value), size_t(length));
            uid = uid.substr(0, uid.find('\0'));
            while (!uid.empty() && uid.back() == ' ')
                uid.pop_back();
            return uid;
        }
        at = value + length;
    }
    return "1.2.840.10008.1.2.1"; // missing: the walk below reports what is wrong
}

} // namespace

DicomFileKind checkDicomStructure(const std::filesystem::path& path)
{
    uint64_t size = fileSize(path);
    if (size < 132)
        return DicomFileKind::NotDicom;
    std::vector<std::byte> magic = readBytes(path, 128, 4);
    if (std::memcmp(magic.data(), "DICM", 4) != 0)
        return DicomFileKind::NotDicom;
    if (size > maxVolumeBytes)
        failFile(path, "is larger than 1 TiB");
    std::vector<std::byte> bytes = readBytes(path, 0, size);
    // PS3.10 7.1: the file meta group follows "DICM". Without it GDCM guesses
    // the byte order from the first tag and may read lengths swapped, which
    // this walk would not (found by fuzz: dicom, a 1.3 GB allocation).
    if (bytes.size() < 134 || (uint32_t(bytes[132]) | uint32_t(bytes[133]) << 8) != 0x0002)
        failFile(path, "has no file meta group (0002,xxxx) after \"DICM\" at byte 132, as DICOM Part 10 requires");
    std::string syntax = transferSyntaxOf(bytes);
    // Whatever follows a UID's NUL is not part of it for GDCM; a walk with
    // another byte order than GDCM's found asserts (gdcmItem.h; found by fuzz: dicom).
    if (syntax.empty() || syntax.find_first_not_of("0123456789.") != std::string::npos)
        failFile(path, "has a Transfer Syntax UID (0002,0010) '" + printable(syntax, 64) + "' that is not a UID");
    if (syntax == "1.2.840.10008.1.2.1.99")
        failFile(path, "uses the deflated transfer syntax, which isoscope does not read (convert with e.g. "
                       "`gdcmconv --raw`)");
    Walker walker{path, bytes, syntax != "1.2.840.10008.1.2", syntax == "1.2.840.10008.1.2.2"};
    walker.elements(132, bytes.size(), false, 0);
    // The pair comes together (PS3.3 C.11.1.1); GDCM takes a missing slope
    // for 0 and asserts (found by fuzz: dicom).
    if (walker.rescaleIntercept && !walker.rescaleSlope)
        failFile(path, "has Rescale Intercept (0028,1052) without Rescale Slope (0028,1053)");
    // GDCM's scanner reads up to the pixel data and asserts when the file ends before them.
    if (!walker.pixelData)
        failFile(path, "is a DICOM file without Pixel Data (7fe0,0010): not an image, or truncated");
    return DicomFileKind::Sound;
}

} // namespace isoscope::readsupport
