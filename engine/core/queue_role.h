#pragma once
// The queues render graphs are placed on (graph/graph_queue.h submits them):
// the main queue, and the transfer queue, which is a queue of a dedicated
// transfer family where the device has one and the main queue otherwise
// (core/context.h).
namespace isoscope {

enum class QueueRole { Main, Transfer };

} // namespace isoscope
