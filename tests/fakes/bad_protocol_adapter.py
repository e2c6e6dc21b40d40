"""A protocol adapter that misbehaves on purpose. argv[1] says how: on its first `call` it
exits, hangs, prints garbage, or answers the wrong id; argv[2] is a marker file so that only the
first process misbehaves (the harness restarts it). Every other request works."""
import json
import os
import sys
import time

mode, marker = sys.argv[1], sys.argv[2]
calls = 1 if os.path.exists(marker) else 0
for line in sys.stdin:
    req = json.loads(line)
    op, rid = req["op"], req["id"]
    result = None
    if op == "hello":
        result = {"protocol": 1, "implementation": f"bad-{mode}", "version": "0", "capabilities": ["filesystem"]}
    elif op == "open":
        result = {"session": "s"}
    elif op == "call":
        calls += 1
        if calls == 1:
            open(marker, "w").close()
            if mode == "exit":
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                print("this is not json", flush=True)
                continue
            if mode == "wrong_id":
                print(json.dumps({"id": rid + 100, "ok": True, "result": None}), flush=True)
                continue
        result = {"kind": "text", "value": "fine", "model": None}
    print(json.dumps({"id": rid, "ok": True, "result": result}), flush=True)
    if op == "shutdown":
        break
