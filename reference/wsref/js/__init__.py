"""What the upstream gets from Node, V8 or npm packages rather than its own source, ported.

RegExp (regexp.py), path.posix (node_path.py), Math.log (v8_math.py), String semantics
(strings.py), Error/TypeError/SystemError (errors.py), tokenx (tokenx.py), picomatch
(picomatch.py), ignore (ignore.py) and execa's error messages (execa.py). Each module names its
original and how it was checked against it. Nothing here imports the rest of wsref.
"""
