#!/usr/bin/env python3
"""check_rules_doc.py PROTOC PROTO_DIR RULESET_DIR DOC...

Checks the numbers of the players' rules summaries (RULES.md, REGLES.md)
against the ruleset data the engine plays with, so the two cannot drift apart.

The data: every *.textproto of RULESET_DIR, each encoded with
`protoc --encode=pbem.v1.Ruleset`, concatenated in file-name order (binary
concatenation is protobuf MergeFrom, as the loader merges them), then decoded
back to canonical text format and read here.

The documents: each checked table follows a marker comment
    <!-- check: KIND (columns: a b c) -->   or   <!-- check: KIND (rows: a b c) -->
whose list names the data field of each column (or row) in order, so the
tables stay written for players while the test knows what each number is.
KIND is one of movement-costs, marsh-stuck, hexside-costs, terrain-effects,
bombard-modifiers, crt, terrain-combat, unit-types, options. Every kind must
appear in every document; every terrain, unit type, CRT column and row and
terrain effect of the data must appear in its table, and nothing else.
Exits 1 with one line per difference.
"""

import os
import re
import subprocess
import sys
from fractions import Fraction

KINDS = [
    "movement-costs", "marsh-stuck", "hexside-costs", "terrain-effects",
    "bombard-modifiers", "crt", "terrain-combat", "unit-types", "options",
]


# ---- The data -----------------------------------------------------------------------------

def load_ruleset(protoc, proto_dir, ruleset_dir):
    files = sorted(f for f in os.listdir(ruleset_dir) if f.endswith(".textproto"))
    if not files:
        sys.exit(f"check_rules_doc: no *.textproto in {ruleset_dir}")
    binary = b""
    for name in files:
        with open(os.path.join(ruleset_dir, name), "rb") as f:
            out = subprocess.run(
                [protoc, "-I", proto_dir, "--encode=pbem.v1.Ruleset", "pbem/v1/ruleset.proto"],
                stdin=f, capture_output=True, check=False)
        if out.returncode != 0:
            sys.exit(f"check_rules_doc: protoc cannot encode {name}: {out.stderr.decode()}")
        binary += out.stdout
    out = subprocess.run(
        [protoc, "-I", proto_dir, "--decode=pbem.v1.Ruleset", "pbem/v1/ruleset.proto"],
        input=binary, capture_output=True, check=False)
    if out.returncode != 0:
        sys.exit(f"check_rules_doc: protoc cannot decode the merged ruleset: {out.stderr.decode()}")
    return parse_text_format(out.stdout.decode())


def parse_text_format(text):
    """protoc's canonical text output to nested dicts: field -> list of values."""
    root = {}
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        m = re.fullmatch(r"(\w+) \{", line)
        if m:
            child = {}
            stack[-1].setdefault(m.group(1), []).append(child)
            stack.append(child)
            continue
        m = re.fullmatch(r"(\w+): (.*)", line)
        if not m:
            sys.exit(f"check_rules_doc: unexpected protoc output line: {raw}")
        value = m.group(2)
        if value.startswith('"'):
            value = value[1:-1]
        elif re.fullmatch(r"-?\d+", value):
            value = int(value)
        elif value in ("true", "false"):
            value = value == "true"
        stack[-1].setdefault(m.group(1), []).append(value)
    return root


def one(msg, field, default=None):
    values = msg.get(field, [])
    return values[0] if values else default


# ---- The documents ------------------------------------------------------------------------

MARKER = re.compile(r"<!--\s*check:\s*([\w-]+)\s*(?:\((columns|rows):\s*([^)]*)\))?\s*-->")


def split_row(line):
    cells = line.strip().strip("|").split("|")
    return [c.strip() for c in cells]


def read_tables(path):
    """KIND -> (axis, keys, header cells, body rows), for every marker of the document."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    tables = {}
    for i, line in enumerate(lines):
        m = MARKER.search(line)
        if not m:
            continue
        kind, axis, keys = m.group(1), m.group(2), (m.group(3) or "").split()
        j = i + 1
        while j < len(lines) and not lines[j].lstrip().startswith("|"):
            j += 1
        block = []
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            block.append(split_row(lines[j]))
            j += 1
        if len(block) < 3:
            tables.setdefault("_errors", []).append(f"{kind}: no table after the marker")
            continue
        tables[kind] = (axis, keys, block[0], block[2:])
    return tables


def number(cell):
    """The first integer of a cell, or None for a dash or an empty cell."""
    m = re.search(r"[−-]?\d+", cell)
    if not m:
        return None
    return int(m.group(0).replace("−", "-"))


def key_of(cell):
    """The ruleset name written in backticks in a cell."""
    m = re.search(r"`([\w.]+)`", cell)
    return m.group(1) if m else None


def multiplier(cell):
    """×2, ×1.5, ×1,5, ×1/2, ×3/2 or a dash (no change) as a Fraction."""
    m = re.search(r"×\s*(\d+(?:[.,]\d+)?(?:/\d+)?)", cell)
    if not m:
        return Fraction(1)
    return Fraction(m.group(1).replace(",", "."))


# Terrain fields that hold numbers; the others are yes/no flags.
INT_FIELDS = {"retreat_preference", "advance_rank_foot", "advance_rank_mounted",
              "bombard_target_modifier"}

YES = {"yes", "oui"}
NO = {"no", "non", "—", "-", ""}


def flag(cell):
    word = re.sub(r"[*`]", "", cell).strip().lower().split(" ")[0] if cell.strip() else ""
    if word in YES:
        return True
    if word in NO:
        return False
    return None


# Arms as written in the terrain-combat table, English and French.
ARM_WORDS = {
    "ARM_INFANTRY": ("infantry", "infanterie"),
    "ARM_CAVALRY": ("cavalry", "cavalerie"),
    "ARM_ARTILLERY": ("artillery", "artillerie"),
    "ARM_LEADER": ("leaders", "généraux"),
}
ALL_ARMS = ("every arm", "toutes armes")


def arms_of(cell):
    low = cell.lower()
    if any(w in low for w in ALL_ARMS):
        return frozenset()
    return frozenset(arm for arm, words in ARM_WORDS.items() if any(w in low for w in words))


# ---- The checks ---------------------------------------------------------------------------

class Checker:
    def __init__(self, data, doc):
        self.data = data
        self.doc = os.path.basename(doc)
        self.errors = []

    def err(self, kind, text):
        self.errors.append(f"{self.doc}: {kind}: {text}")

    def expect(self, kind, where, got, want):
        if got != want:
            self.err(kind, f"{where}: the document says {got}, the ruleset data {want}")

    def terrains(self):
        return {one(t, "name"): t for t in self.data.get("terrain", [])}

    def rows_by_key(self, kind, body):
        out = {}
        for row in body:
            key = key_of(row[0])
            if key is None:
                self.err(kind, f"row '{row[0]}' names no ruleset key in backticks")
            elif key in out:
                self.err(kind, f"`{key}` appears twice")
            else:
                out[key] = row
        return out

    def same_keys(self, kind, doc_keys, data_keys):
        for k in sorted(set(data_keys) - set(doc_keys)):
            self.err(kind, f"`{k}` is in the ruleset data but not in the table")
        for k in sorted(set(doc_keys) - set(data_keys)):
            self.err(kind, f"`{k}` is in the table but not in the ruleset data")

    def movement_costs(self, kind, keys, body):
        terrains = self.terrains()
        rows = self.rows_by_key(kind, body)
        self.same_keys(kind, rows, terrains)
        for name, row in rows.items():
            if name not in terrains or len(row) != len(keys) + 1:
                if name in terrains:
                    self.err(kind, f"`{name}` has {len(row) - 1} cells for {len(keys)} columns")
                continue
            costs = {one(c, "movement_class"): c for c in terrains[name].get("move_costs", [])}
            for col, cell in zip(keys, row[1:]):
                c = costs.get(col)
                if c is None:
                    self.err(kind, f"`{name}` has no cost for `{col}` in the data")
                    continue
                where = f"`{name}` for `{col}`"
                if one(c, "impassable", False):
                    self.expect(kind, where, number(cell), None)
                    continue
                self.expect(kind, where, number(cell), one(c, "cost"))
                # "2 (1)": 1 from an adjacent hex of the same terrain.
                same = re.search(r"\((\d+)", cell)
                self.expect(kind, where + " from the same terrain",
                            int(same.group(1)) if same else None,
                            one(c, "cost_from_same_terrain"))

    def marsh_stuck(self, kind, keys, body):
        stuck = {}
        for name, t in self.terrains().items():
            for s in t.get("stuck_chances", []):
                stuck.setdefault(name, {})[one(s, "movement_class")] = one(s, "chance_in_4", 0)
        rows = self.rows_by_key(kind, body)
        self.same_keys(kind, rows, stuck)
        for name, row in rows.items():
            for col, cell in zip(keys, row[1:]):
                self.expect(kind, f"`{name}` for `{col}`", number(cell),
                            stuck.get(name, {}).get(col))

    def field(self, path):
        """A dotted path from the ruleset root; `name[i]` picks element i of a repeated field."""
        node = self.data
        for part in path.split("."):
            m = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", part)
            values = node.get(m.group(1), []) if isinstance(node, dict) else []
            idx = int(m.group(2)) if m.group(2) else 0
            if idx >= len(values):
                return None
            node = values[idx]
        return node

    def hexside_costs(self, kind, keys, body):
        if len(keys) != len(body):
            self.err(kind, f"the marker names {len(keys)} rows, the table has {len(body)}")
        for key, row in zip(keys, body):
            want = self.field(key)
            if want is None:
                self.err(kind, f"`{key}` is not set in the ruleset data")
                continue
            # The cell may list alternating values ("0, then 1"): check the first number,
            # and for the road chain every number in order.
            if key.startswith("routes.road_alternating_costs"):
                got = [int(n) for n in re.findall(r"\d+", row[1])]
                self.expect(kind, row[0], got, self.data["routes"][0]["road_alternating_costs"])
            else:
                self.expect(kind, row[0], number(row[1]), want)

    def terrain_effects(self, kind, keys, body):
        terrains = self.terrains()
        rows = self.rows_by_key(kind, body)
        self.same_keys(kind, rows, terrains)
        for name, row in rows.items():
            if name not in terrains:
                continue
            for col, cell in zip(keys, row[1:]):
                if col in INT_FIELDS:
                    self.expect(kind, f"`{name}` `{col}`", number(cell), one(terrains[name], col, 0))
                else:
                    self.expect(kind, f"`{name}` `{col}`", flag(cell),
                                one(terrains[name], col, False))

    def bombard_modifiers(self, kind, keys, body):
        want = {n: one(t, "bombard_target_modifier", 0) for n, t in self.terrains().items()}
        want = {n: v for n, v in want.items() if v}
        rows = self.rows_by_key(kind, body)
        self.same_keys(kind, rows, want)
        for name, row in rows.items():
            if name in want:
                self.expect(kind, f"`{name}`", number(row[1]), want[name])

    def crt(self, kind, keys, header, body):
        crt = self.data["crt"][0]
        columns = crt["columns"]
        labels = [c.replace(",", ".").replace(" ", "") for c in header[1:]]
        self.expect(kind, "odds columns", labels, columns)
        lo, hi = one(crt, "min_result", 0), one(crt, "max_result", 0)
        self.expect(kind, "results", [number(r[0]) for r in body], list(range(lo, hi + 1)))
        rows = {one(r, "result", 0): r.get("cells", []) for r in crt.get("rows", [])}
        for r in body:
            result = number(r[0])
            cells = [c.replace(" ", "").replace("\\*", "*") for c in r[1:]]
            want = rows.get(result, [])
            if len(cells) != len(want):
                self.err(kind, f"result {result}: {len(cells)} cells, the data has {len(want)}")
                continue
            for label, got, w in zip(columns, cells, want):
                self.expect(kind, f"result {result} at {label}", got, w)

    def terrain_combat(self, kind, keys, body):
        want = set()
        for e in self.data.get("terrain_combat", []):
            want.add((one(e, "terrain"), frozenset(e.get("arms", [])),
                      Fraction(one(e, "cs_multiplier", "1")),
                      one(e, "attacker_die_modifier", 0)))
        got = set()
        for row in body:
            got.add((key_of(row[0]), arms_of(row[1]), multiplier(row[2]), number(row[3]) or 0))
        for t in sorted(want - got, key=str):
            self.err(kind, f"data effect {fmt_effect(t)} is missing or differs in the table")
        for t in sorted(got - want, key=str):
            self.err(kind, f"table row {fmt_effect(t)} is not in the ruleset data")

    def unit_types(self, kind, keys, body):
        units = {one(u, "name"): one(u, "defaults", {}) for u in self.data.get("unit_types", [])}
        rows = self.rows_by_key(kind, body)
        self.same_keys(kind, rows, units)
        for name, row in rows.items():
            if name not in units:
                continue
            for col, cell in zip(keys, row[1:]):
                self.expect(kind, f"`{name}` {col}", number(cell), one(units[name], col))

    def options(self, kind, keys, body):
        params = self.data["parameters"][0]
        seen = 0
        for row in body:
            for literal in re.findall(r"`(\w+): ([^`]+)`", " ".join(row)):
                key, value = literal
                found = find_field(params, key)
                if len(found) != 1:
                    self.err(kind, f"`{key}` is {'not' if not found else 'not uniquely'} a "
                                   f"ruleset parameter")
                    continue
                seen += 1
                self.expect(kind, f"`{key}`", parse_literal(value), found[0])
        if seen == 0:
            self.err(kind, "no `key: value` default in the table")

    def run(self, tables):
        for e in tables.get("_errors", []):
            self.err("table", e)
        for kind in KINDS:
            if kind not in tables:
                self.err(kind, "the table (its <!-- check: ... --> marker) is missing")
                continue
            axis, keys, header, body = tables[kind]
            if kind == "crt":
                self.crt(kind, keys, header, body)
            elif kind == "terrain-combat":
                self.terrain_combat(kind, keys, body)
            else:
                getattr(self, kind.replace("-", "_"))(kind, keys, body)
        return self.errors


def fmt_effect(t):
    terrain, arms, mult, die = t
    return f"(`{terrain}`, {sorted(arms) or 'every arm'}, x{mult}, die {die:+d})"


def find_field(msg, key):
    out = list(msg.get(key, [])[:1])
    for values in msg.values():
        for v in values:
            if isinstance(v, dict):
                out += find_field(v, key)
    return out


def parse_literal(value):
    value = value.strip()
    if value.startswith('"'):
        return value.strip('"')
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    protoc, proto_dir, ruleset_dir, docs = argv[1], argv[2], argv[3], argv[4:]
    data = load_ruleset(protoc, proto_dir, ruleset_dir)
    errors = []
    for doc in docs:
        errors += Checker(data, doc).run(read_tables(doc))
    for e in errors:
        print(e)
    if errors:
        print(f"check_rules_doc: {len(errors)} difference(s) between the rules summaries and "
              f"{ruleset_dir}")
        return 1
    print(f"check_rules_doc: {len(docs)} document(s) agree with {ruleset_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
