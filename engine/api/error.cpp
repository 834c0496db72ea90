#include <exception>
#include <new>

#include "api/api_impl.h"

namespace isoscope::api {

Error currentError(ErrorCode fallback)
{
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return {ErrorCode::OutOfMemory, "isoscope ran out of host memory"};
    } catch (const isoscope::Error& error) {
        std::string message = error.what();
        // VK_CHECK names the call and its VkResult (core/vk_check.h).
        ErrorCode code = fallback;
        if (message.find("VK_ERROR_OUT_OF_") != std::string::npos)
            code = ErrorCode::OutOfMemory;
        else if (message.find("device budget") != std::string::npos)
            code = ErrorCode::OutOfMemory;
        else if (message.find("VK_ERROR_") != std::string::npos)
            code = ErrorCode::VulkanError;
        return {code, message};
    } catch (const std::exception& error) {
        return {fallback, error.what()};
    }
}

} // namespace isoscope::api
