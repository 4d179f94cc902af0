"""Schemathesis hooks for the OpenAPI flow: each well-formed Idempotency-Key is made unique.

A client sends a fresh key for each command it means to run once; generated keys repeat ("!"
for every operation), and the server rightly answers a key reused for another body with 422
`idempotencyKeyReused`. A malformed key is left as generated, so its 400 is still checked.
"""
import re
import uuid

import schemathesis

WELL_FORMED = re.compile(r"[!-~]{1,255}")


@schemathesis.hook
def before_call(context, case, kwargs):
    """Before each request, in every phase: a fresh key where a well-formed one was generated."""
    for headers in (case.headers, kwargs.get("headers")):
        key = (headers or {}).get("Idempotency-Key")
        if key is not None and WELL_FORMED.fullmatch(key):
            headers["Idempotency-Key"] = uuid.uuid4().hex
