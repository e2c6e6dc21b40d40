"""Says at hello that it has no tools (argv[1] "none": `tools: []`), or sends its capabilities as
a string (argv[1] "string"): either way every case would be unsupported, and the run green."""
import sys

from protocol_fake import serve

HOW = sys.argv[1]


def hello(said):
    if HOW == "none":
        return {**said, "tools": []}
    return {**said, "capabilities": "filesystem"}


serve(hello=hello)
