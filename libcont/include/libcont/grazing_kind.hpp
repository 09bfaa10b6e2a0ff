#pragma once
// Where a grazing was reached from (grazing.hpp): the grazing impact's speed going to zero,
// a flight of an impacting orbit touching the surface between impacts, or the gap of an
// orbit without impacts closing. A located grazing carries it (SpecialPoint::grazing_kind).
#include <string>

namespace libcont {

enum class GrazingKind { ImpactVelocity, InteriorTangency, NonImpactingGap };
// "impact-velocity", "interior-tangency", "non-impacting-gap": the names of the files and
// reports.
std::string to_string(GrazingKind kind);

}  // namespace libcont
