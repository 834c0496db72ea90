#pragma once
// What every isoscope API object is: a handle that owns its implementation,
// which lives inside the library, and moves but does not copy.
//
//   isoscope::api::Volume a = std::move(*isoscope::api::Volume::load(context, "sphere:64"));
//   isoscope::api::Volume b = std::move(a); // a is empty now
#include <memory>

namespace isoscope::api::detail {

template <typename Impl>
class Handle {
public:
    // The library's deleter travels with the pointer, so a host destroys
    // handles without seeing what they hold.
    using Owner = std::unique_ptr<Impl, void (*)(Impl*)>;
    explicit Handle(Owner impl) : impl_(std::move(impl)) {}
    Impl& impl() const { return *impl_; } // for isoscope's own code
    explicit operator bool() const { return impl_ != nullptr; }

private:
    Owner impl_;
};

} // namespace isoscope::api::detail
