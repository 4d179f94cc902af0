#!/usr/bin/env python3
"""Validates JSON documents against a Screenplay contract schema with the independent
`jsonschema` library (Draft 2020-12), so the Swift decoder and the generated schema cannot
drift apart unnoticed.

usage: validate-json-schema.py SCHEMA.json DOCUMENTS.jsonl
Each line of DOCUMENTS.jsonl is {"name": ..., "definition": "Screen" | "CommandResult" | ..., "document": {...}}.
Prints one line per invalid document and exits 1 if there is any; prints a count and exits 0 otherwise.
"""
import json
import sys

import jsonschema


def main() -> int:
    schema_path, documents_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    failures = 0
    count = 0
    with open(documents_path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            entry = json.loads(line)
            count += 1
            wrapper = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/" + entry["definition"]}
            validator = jsonschema.Draft202012Validator(wrapper)
            errors = sorted(validator.iter_errors(entry["document"]), key=lambda error: list(error.absolute_path))
            for error in errors[:5]:
                failures += 1
                path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
                print(f"{entry['name']}: {path}: {error.message[:300]}")
    if failures:
        print(f"{failures} schema violations in {count} documents")
        return 1
    print(f"{count} documents valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
