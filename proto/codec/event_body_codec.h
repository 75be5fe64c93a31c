// An event's payload (engine::EventBody) to and from the oneof `body` of pbem.v1.Event
// (format version 2): each payload field goes to the field of the same name of the kind's
// message (morne_plaine_events.proto), found by reflection, so engine/morne_plaine/event.h stays
// the one table of fields.
#ifndef PBEM_PROTO_CODEC_EVENT_BODY_CODEC_H_
#define PBEM_PROTO_CODEC_EVENT_BODY_CODEC_H_

#include <string>
#include <variant>

#include "engine/morne_plaine/turn_result.h"
#include "pbem/v1/turn_result.pb.h"

namespace pbem::codec {

// Sets the body of `out` from `body`. Every value the engine writes fits the schema (sides and
// levels are names the engine gives; numbers fit 32 bits): a payload that does not is a
// programming error (PBEM_CHECK).
void EventBodyToProto(const engine::EventBody& body, pbem::v1::Event& out);

// The payload of kind `kind` from the body of `event`, or a problem naming the field: "body:
// missing ...", "body: ... for kind ..." when it is another kind's, "body: combat.steps: ..."
// for a field (stored results and archives are untrusted input).
std::variant<engine::EventBody, std::string> EventBodyFromProto(engine::EventKind kind,
                                                                const pbem::v1::Event& event);

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_EVENT_BODY_CODEC_H_
