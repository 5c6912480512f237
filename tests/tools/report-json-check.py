#!/usr/bin/env python3
"""report-json-check.py — a report's JSON form against its text form.

    report-json-check.py SCHEMA TEXT JSON

JSON must be valid under SCHEMA (docs/report.schema.json) and say what TEXT
says: the same header lines, the same report lines in the same order with the
same tag, name and text, and fields holding exactly the text's figures: every
number of the text, in order, with the same value (integers as integers,
fractions with the same digits), every histogram entry, and every word as a
key, a label or a value. Written apart from the C code (docs/json.md's rules
only), so a fault in one is not copied into the other. Prints nothing and
exits 0 when all holds; else one line per difference (at most 20), exit 1.
"""
import json
import re
import sys

import jsonschema

INT = re.compile(r"^-?[0-9]+$")
DEC = re.compile(r"^-?[0-9]+\.[0-9]+$")
PCT = re.compile(r"^-?[0-9]+\.[0-9]+%$")
BIN = re.compile(r"^([0-9]+(?:-[0-9]+)?):([0-9]+)$")
TAG = re.compile(r"^R(x|[0-9]+)T(x|-?[0-9]+)L([0-9]{2}): (.*)$")

problems = []


def problem(where, what):
    problems.append(f"{where}: {what}")


class Frac(str):
    """A fraction of the JSON document, as its digits."""


def text_number(tok):
    """A number token as the checker compares it: int, or the digits."""
    if INT.match(tok):
        return int(tok)
    return tok.rstrip("%")


def flatten(fields):
    """Numbers, words and bins of a fields object, in order."""
    nums, words, bins, keys = [], [], [], []
    for key, value in fields.items():
        if key == "hist":
            bins.extend((k, v) for k, v in value.items())
            continue
        keys.append(key)
        if key == "label":
            words.append(value)
        elif isinstance(value, list):
            nums.extend(str(v) if isinstance(v, Frac) else v for v in value)
        elif isinstance(value, Frac):
            nums.append(str(value))
        elif isinstance(value, str):
            words.append(value)
        elif value is not None:
            nums.append(value)
    return nums, words, bins, keys


def check_line(where, line, obj):
    m = TAG.match(line)
    if m:
        phase, thread, level, rest = m.groups()
        want = {"tag": line[: line.index(":")],
                "phase": "x" if phase == "x" else int(phase),
                "thread": "x" if thread == "x" else int(thread),
                "level": int(level)}
        for k, v in want.items():
            if obj.get(k) != v:
                problem(where, f"{k} {obj.get(k)!r}, the text says {v!r}")
    else:
        rest = line
        if "tag" in obj:
            problem(where, "a tag on an untagged line")
    name, _, text = rest.partition(" ")
    if obj.get("name") != name:
        problem(where, f"name {obj.get('name')!r}, the text says {name!r}")
    if obj.get("text") != text:
        problem(where, f"text {obj.get('text')!r}, the text says {text!r}")
    toks = text.split()
    t_nums = [text_number(t) for t in toks if INT.match(t) or DEC.match(t) or PCT.match(t)]
    t_bins = [BIN.match(t).groups() for t in toks if BIN.match(t)]
    t_bins = [(k, int(v)) for k, v in t_bins]
    t_words = [t for t in toks if not (INT.match(t) or DEC.match(t) or PCT.match(t) or BIN.match(t))]
    nums, words, bins, keys = flatten(obj.get("fields", {}))
    if nums != t_nums:
        problem(where, f"numbers {nums}, the text has {t_nums}")
    if bins != t_bins:
        problem(where, f"histogram {bins}, the text has {t_bins}")
    # every word of the text is a key (maybe with _pct or _N), a label or a value
    # (a KEY_pct right after KEY is KEY's percentage, not a word of its own)
    names = list(words)
    for i, k in enumerate(keys):
        if k in ("value", "label") or (i and k.endswith("_pct") and keys[i - 1] == k[:-4]):
            continue
        base = re.sub(r"(_pct)?(_[0-9]+)?$", "", k)
        names.append(base if base in t_words else k)
    if sorted(names) != sorted(t_words):
        problem(where, f"words {sorted(names)}, the text has {sorted(t_words)}")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: report-json-check.py SCHEMA TEXT JSON")
    schema_path, text_path, json_path = sys.argv[1:]
    with open(schema_path) as f:
        schema = json.load(f)
    with open(json_path, "rb") as f:
        raw = f.read()
    doc = json.loads(raw)
    for err in jsonschema.Draft202012Validator(schema).iter_errors(doc):
        problem(json_path, f"schema: {err.message} at {list(err.absolute_path)}")
    # Again, keeping every fraction's digits as written.
    exact = json.loads(raw, parse_float=Frac)
    with open(text_path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    header = [ln[1:][1:] if ln[1:2] == " " else ln[1:] for ln in lines if ln.startswith("#")]
    body = [ln for ln in lines if not ln.startswith("#")]
    if exact.get("header") != header:
        problem(json_path, "the header lines differ from the text's")
    jl = exact.get("lines", [])
    if len(jl) != len(body):
        problem(json_path, f"{len(jl)} lines, the text has {len(body)}")
    for i, (line, obj) in enumerate(zip(body, jl)):
        check_line(f"{json_path}: line {i + 1}", line, obj)
    for p in problems[:20]:
        print(p)
    sys.exit(1 if problems else 0)


main()
