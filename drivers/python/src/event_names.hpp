#pragma once
// The names events are reported by in Python (as in vicont's events.csv).
#include <string>

#include "libcont/hybrid_system.hpp"

namespace libcont_python {

inline std::string event_kind_name(libcont::EventKind kind) {
  switch (kind) {
    case libcont::EventKind::Impact: return "impact";
    case libcont::EventKind::ContactStart: return "contact_start";
    case libcont::EventKind::ContactEnd: return "contact_end";
    case libcont::EventKind::StickStart: return "stick_start";
    case libcont::EventKind::StickEnd: return "stick_end";
    case libcont::EventKind::ModeSwitch: return "mode_switch";
    case libcont::EventKind::Terminal: return "terminal";
  }
  return "event";
}

}  // namespace libcont_python
