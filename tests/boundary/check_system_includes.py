#!/usr/bin/env python3
"""The game-system boundary's build check (issue 15, point 2).

Code outside the engine (daemon/, storage/, templates/) must reach a game system through the
game-system interface only. Of engine/, it may include the shared parts and nothing else:
engine/core/ (dice, verdict kinds, rational numbers), engine/table/ (the tabletop geometry every
tabletop system shares) and the interface itself (engine/system/game_system.h, registry.h,
handle.h, status.h). Every other engine header is one system's: its rules
(engine/morne_plaine/, engine/m42/, engine/wme/, a future engine/<system>/), Morne Plaine's grid
(engine/hex/), or a system's adapter behind the interface (engine/system/<system>.h). Listing
what is shared rather than the systems means a new system's folder is caught without editing
this check.

While the boundary is being built, the files that still include Morne Plaine's headers (the
one system there was before it) are listed in an allow list (one path a line, '#' comments).
The check fails when a file NOT on the list includes a system's header, when ANY file
includes a header of another system than Morne Plaine (new code goes through the interface),
and when a file on the list no longer includes one (take it off the list: it only shrinks).
It passes, naming how many files are left, otherwise.

The same holds for a system's schemas and codec, which are its rules' data as much as its
headers are: of the generated pbem/v1/*.pb.h only the shared schemas (SHARED_SCHEMAS) may be
included, and of proto/codec/ only the shared parts (the codec's registry of systems, any
system's game data on disk and pinned, JSON depth, text locations, how errors show untrusted
text). Morne Plaine's schemas and codec
(LEGACY_SCHEMAS, LEGACY_CODEC) may be excused by the allow list like its headers; any other
system's never.

Usage: check_system_includes.py SOURCE_DIR ALLOW_LIST
"""
import pathlib
import re
import sys

SCANNED = ("daemon", "storage", "templates")
# Any include of an engine header, a generated schema or a codec header ...
ENGINE_HEADER = re.compile(
    r'^\s*#\s*include\s*[<"]((?:engine/|pbem/v1/|proto/codec/)[^">]+)[">]')
# ... but these, which every system shares, and the interface.
SHARED = ("engine/core/", "engine/table/")
# The schemas every system shares: verifiable dice (the envelopes of issue 15 point 3 next).
SHARED_SCHEMAS = {"pbem/v1/dice.pb.h"}
SHARED_CODEC = {"proto/codec/systems.h", "proto/codec/game_data.h", "proto/codec/json_depth.h",
                "proto/codec/text_locations.h", "proto/codec/shown.h"}
INTERFACE = {"engine/system/game_system.h", "engine/system/registry.h",
             "engine/system/handle.h", "engine/system/status.h"}


def system_header(line):
    """The engine header `line` includes when it is one system's, else None."""
    match = ENGINE_HEADER.match(line)
    if not match:
        return None
    header = match.group(1)
    if header.startswith(SHARED) or header in INTERFACE:
        return None
    if header in SHARED_SCHEMAS or header in SHARED_CODEC:
        return None
    return header


# What the allow list may excuse: Morne Plaine's rules, its grid, its schemas and its codec,
# nothing newer.
LEGACY = ("engine/morne_plaine/", "engine/hex/")
LEGACY_SCHEMAS = {f"pbem/v1/{name}.pb.h" for name in (
    "archive", "common", "game", "morne_plaine_events", "orders", "ruleset", "scenario",
    "scenario_case", "turn_result")}
LEGACY_CODEC = {"proto/codec/codec.h", "proto/codec/event_body_codec.h"}


def legacy(header):
    return header.startswith(LEGACY) or header in LEGACY_SCHEMAS or header in LEGACY_CODEC
SUFFIXES = {".h", ".cc", ".hpp", ".cpp", ".inc"}


def offenders(source):
    found = {}
    for top in SCANNED:
        root = source / top
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(source).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                header = system_header(line)
                if header:
                    found.setdefault(rel, []).append(
                        (legacy(header), f"{rel}:{number}: includes {header}"))
    return found


def read_allowed(path):
    allowed = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            allowed.add(line)
    return allowed


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    source = pathlib.Path(argv[1])
    allow_path = pathlib.Path(argv[2])
    found = offenders(source)
    allowed = read_allowed(allow_path)
    problems = []
    for rel in sorted(found):
        for legacy, text in found[rel]:
            if rel not in allowed or not legacy:
                problems.append(text)
    for rel in sorted(allowed - set(found)):
        problems.append(f"{rel}: includes no system header any more (or is gone): "
                        f"take it off {allow_path.name}")
    if problems:
        print("system_includes: FAILED: code outside the engine must use the game-system "
              "interface, not one system's headers")
        for problem in problems:
            print("  " + problem)
        return 1
    print(f"system_includes: ok ({len(allowed)} files still allowed in {allow_path.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
