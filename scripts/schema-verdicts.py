#!/usr/bin/env python3
"""Gives the verdict of Python's `jsonschema` (Draft 2020-12) on each probe of a contract schema,
so a test can require that the generated schema accepts exactly what the Swift decoders accept.

usage: schema-verdicts.py CASES.json
CASES.json is {"documents": {"<version>": <schema document>}, "cases": [{"version": "<version>",
"definition": "<name in $defs>", "instance": <any JSON>}]}.
Prints a JSON array with one boolean per case (true: valid) and exits 0; exits 2 on bad input.
"""
import json
import sys

import jsonschema


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as handle:
        data = json.load(handle)
    validators = {}
    verdicts = []
    for case in data["cases"]:
        key = (case["version"], case["definition"])
        if key not in validators:
            document = data["documents"][case["version"]]
            jsonschema.Draft202012Validator.check_schema(document)
            wrapper = {"$schema": document["$schema"], "$defs": document["$defs"], "$ref": "#/$defs/" + case["definition"]}
            validators[key] = jsonschema.Draft202012Validator(wrapper)
        verdicts.append(validators[key].is_valid(case["instance"]))
    json.dump(verdicts, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
