#!/bin/bash
# Writes libFuzzer dictionaries for the fuzz targets from the .proto schemas, so they never
# fall behind them: text-format field names ("name:", "name {"), JSON keys ("name": and
# "camelName":), enum value names, and MIME words for the mail target.
#
# Usage: tests/fuzz/make_dicts.sh OUT_DIR      (writes OUT_DIR/<target>.dict)
set -euo pipefail
out=${1:?usage: make_dicts.sh OUT_DIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
proto="$root/proto/pbem/v1"
mkdir -p "$out"

# Field and enum value names of the given .proto files, one a line, sorted, unique.
fields() {
  sed -nE 's/^[[:space:]]*(repeated[[:space:]]+|optional[[:space:]]+)?[A-Za-z0-9_.]+[[:space:]]+([a-z][a-z0-9_]*)[[:space:]]*=[[:space:]]*[0-9]+.*;.*/\2/p' "$@" |
    sort -u
}
enums() {
  sed -nE 's/^[[:space:]]*([A-Z][A-Z0-9_]*)[[:space:]]*=[[:space:]]*[0-9]+[[:space:]]*;.*/\1/p' "$@" | sort -u
}
camel() { awk -F_ '{ s = $1; for (i = 2; i <= NF; ++i) s = s toupper(substr($i, 1, 1)) substr($i, 2); print s }'; }

text_dict() {
  fields "$@" | awk '{ printf "\"%s:\"\n\"%s {\"\n", $1, $1 }'
  enums "$@" | awk '{ printf "\"%s\"\n", $1 }'
  printf '"#"\n"\\\\n"\n"[\"\n"]\"\n"\\\""\n"0412"\n"-1"\n"true"\n"false"\n'
}
json_dict() {
  { fields "$@"; fields "$@" | camel; } | sort -u | awk '{ printf "\"\\\"%s\\\":\"\n", $1 }'
  enums "$@" | awk '{ printf "\"\\\"%s\\\"\"\n", $1 }'
  printf '"{"\n"}"\n"["\n"]"\n"null"\n"true"\n"\\\\u00e9"\n"1e999"\n'
}

orders=("$proto/orders.proto" "$proto/common.proto" "$proto/morne_plaine_orders.proto"
  "$proto/m42_orders.proto" "$proto/wme_orders.proto")
text_dict "${orders[@]}" >"$out/orders_text.dict"
json_dict "${orders[@]}" >"$out/orders_json.dict"
cat "$out/orders_text.dict" "$out/orders_json.dict" >"$out/orders_detect.dict"
text_dict "$proto/ruleset.proto" "$proto/common.proto" >"$out/ruleset_text.dict"
text_dict "$proto/scenario.proto" "$proto/common.proto" >"$out/scenario_text.dict"
text_dict "$proto/m42_ruleset.proto" >"$out/m42_ruleset_text.dict"
text_dict "$proto/m42_scenario.proto" >"$out/m42_scenario_text.dict"
{
  text_dict "$proto/m42_orders.proto"
  json_dict "$proto/m42_orders.proto"
} >"$out/m42_orders.dict"
{
  text_dict "$proto/m42_turn_result.proto" "$proto/m42_orders.proto"
  json_dict "$proto/m42_turn_result.proto" "$proto/m42_orders.proto"
} >"$out/m42_turn_result.dict"
text_dict "$proto/wme_ruleset.proto" >"$out/wme_ruleset_text.dict"
text_dict "$proto/wme_scenario.proto" "$proto/wme_ruleset.proto" >"$out/wme_scenario_text.dict"
{
  text_dict "$proto/wme_orders.proto"
  json_dict "$proto/wme_orders.proto"
} >"$out/wme_orders.dict"
{
  cat "$out/orders_detect.dict"
  for word in 'From: ' 'Subject: ' 'Message-ID: ' 'Auto-Submitted: ' 'MIME-Version: 1.0' \
    'Content-Type: ' 'Content-Transfer-Encoding: ' 'Content-Disposition: attachment; ' \
    'multipart/mixed; boundary=' 'multipart/alternative' 'text/plain' 'charset=' \
    'application/json' 'application/octet-stream' 'base64' 'quoted-printable' \
    'filename=' 'name=' 'orders.bin' 'orders.textproto' 'orders.json' '--' '\x0D\x0A' '=?utf-8?q?'; do
    printf '"%s"\n' "$word"
  done
} >"$out/mail_inbound.dict"
