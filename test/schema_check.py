#!/usr/bin/python3
"""The JSON outputs against their schemas (docs/schema/) and docs/outputs.md.

  schema_check.py validate SCHEMA FILE...  each FILE is valid under SCHEMA
  schema_check.py docs DOCS                 the schemas under DOCS/schema are
                                            well formed, closed and described,
                                            and DOCS/outputs.md lists exactly
                                            their fields, types and units

Prints one line per problem and exits 1 if there is any.  Needs Debian's
python3-jsonschema (deps.sh).
"""
import json
import os
import re
import sys

import jsonschema



def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def validator(schema):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate(schema_path, files):
    v = validator(load(schema_path))
    bad = 0
    for path in files:
        try:
            doc = load(path)
        except ValueError as e:
            print("%s: not JSON: %s" % (path, e))
            bad += 1
            continue
        for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print("%s: %s: %s" % (path, where, e.message))
            bad += 1
    return bad


# ---- the schemas as rows: (path, type, unit) ----

def leaf_type(s):
    t = s["type"]
    return " or ".join(t) if isinstance(t, list) else t


def unit_of(s):
    d = s.get("description", "")
    if ". Unit: " not in d or not d.endswith("."):
        return None
    return d.rsplit(". Unit: ", 1)[1][:-1]


def rows(s, path, out, problems, where):
    """Every leaf field of schema s under path, as outputs.md names it."""
    if "anyOf" in s:
        for v in s["anyOf"]:
            rows(v, path, out, problems, where)
        return
    t = s.get("type")
    if t == "object":
        if s.get("additionalProperties") is not False:
            problems.append("%s: %s: an object without \"additionalProperties\": false" % (where, path or "(top)"))
        for k in s.get("required", []):
            if k not in s["properties"]:
                problems.append("%s: %s: required %s is not a property" % (where, path or "(top)", k))
        for k, v in s["properties"].items():
            rows(v, path + "." + k if path else k, out, problems, where)
        for v in s.get("patternProperties", {}).values():
            rows(v, (path + "." if path else "") + v["title"], out, problems, where)
    elif t == "array":
        rows(s["items"], path + "[]", out, problems, where)
    else:
        u = unit_of(s)
        if u is None:
            problems.append("%s: %s: its description does not end with \"Unit: ...\"" % (where, path))
        if path not in out:
            out[path] = (leaf_type(s), u)


def schema_rows(schema, where, problems):
    out = {}
    rows(schema, "", out, problems, where)
    return out


# ---- outputs.md as rows, per schema file ----

def doc_sections(md_path, problems):
    """{schema file name: {path: (type, unit)}} from outputs.md's tables."""
    sections = {}
    current = None
    with open(md_path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"Schema: \[schema/([^\]]+)\]", line)
            if m:
                current = sections.setdefault(m.group(1), {})
                continue
            if line.startswith("## "):
                current = None
                continue
            m = re.match(r"\| `([^`]+)` \| ([^|]+) \| ([^|]+) \|", line)
            if not m:
                continue
            if current is None:
                problems.append("%s:%d: a field row outside a schema's section" % (md_path, n))
                continue
            if m.group(1) in current:
                problems.append("%s:%d: %s listed twice" % (md_path, n, m.group(1)))
            current[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return sections


def flat_keys(schema):
    """The keys dlasim merge makes of a result: nested objects as
    outer.inner, arrays left out."""
    keys = set()
    for k, v in schema["properties"].items():
        if v.get("type") == "object":
            keys |= {k + "." + x for x in flat_keys(v)}
        elif v.get("type") != "array":
            keys.add(k)
    return keys


def docs(root):
    problems = []
    sdir = os.path.join(root, "schema")
    md = os.path.join(root, "outputs.md")
    sections = doc_sections(md, problems)
    schemas = {}
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".schema.json"):
            continue
        path = os.path.join(sdir, name)
        try:
            schemas[name] = load(path)
            validator(schemas[name])
        except (ValueError, jsonschema.exceptions.SchemaError) as e:
            problems.append("%s: not a valid JSON Schema: %s" % (path, str(e).splitlines()[0]))
            continue
        want = schema_rows(schemas[name], path, problems)
        have = sections.pop(name, None)
        if have is None:
            problems.append("%s: no section names schema/%s" % (md, name))
            continue
        for p in sorted(set(want) - set(have)):
            problems.append("%s: %s is in %s but not in its table" % (md, p, name))
        for p in sorted(set(have) - set(want)):
            problems.append("%s: %s is in its table but not in %s" % (md, p, name))
        for p in sorted(set(want) & set(have)):
            if want[p] != have[p]:
                problems.append("%s: %s: type, unit %s in %s, %s in the table" % (md, p, want[p], name, have[p]))
    for name in sections:
        problems.append("%s: a section names schema/%s, which does not exist" % (md, name))
    # merge's rows are the flattened keys of the sweepable commands' results.
    if "merge.schema.json" in schemas:
        want = {"run"}
        for n in ("coll", "train", "tier", "nna", "nvm", "dram", "llm"):
            want |= flat_keys(schemas.get(n + ".schema.json", {"properties": {}}))
        have = set(schemas["merge.schema.json"]["items"]["properties"])
        for k in sorted(want ^ have):
            problems.append("merge.schema.json: %s: %s" % (k, "missing (a key of a sweepable command)" if k in want else "not a key of a sweepable command"))
    for p in problems:
        print(p)
    return len(problems)


def main(argv):
    if len(argv) >= 3 and argv[1] == "validate":
        return 1 if validate(argv[2], argv[3:]) else 0
    if len(argv) == 3 and argv[1] == "docs":
        return 1 if docs(argv[2]) else 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
