#!/usr/bin/env python3
"""Writes the state of a workspace's root module from what `foreach-ls diff` says it declares, for the diff
benchmark (server/bench/diff-command.sh): `diff --state EMPTY --format json` lists every instance as a create, with
its provider instance; N of its resource instances, spread over all of them, become a state (format version 4), so that a change to the
configuration destroys real instances of it.
    server/bench/diff-state.py CREATES_JSON OUT_STATE [--instances N]
"""
import argparse
import json
import re

STEP = re.compile(r'module\.([A-Za-z0-9_-]+)(\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?\.')
RESOURCE = re.compile(r'([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)(\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?$')


def split(address):
    """`module.a["x"].t.n["k"]` -> ('module.a["x"]', 't', 'n', 'k')."""
    module, rest = [], address
    while True:
        m = STEP.match(rest)
        if not m:
            break
        module.append(m.group(0)[:-1])
        rest = rest[m.end():]
    m = RESOURCE.match(rest)
    if not m:
        return None
    key = m.group(3)
    if key is not None:
        key = json.loads(key[1:-1]) if key[1] == '"' else int(key[1:-1])
    return ".".join(module), m.group(1), m.group(2), key


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("creates")
    ap.add_argument("out")
    ap.add_argument("--instances", type=int, default=10_000)
    args = ap.parse_args()
    doc = json.load(open(args.creates))
    instances = []
    for root in doc["roots"]:
        for group in root["providers"]:
            for change in group["changes"]:
                provider = (change["provider"] or {}).get("address")
                addresses = change["inside"] if change["kind"] == "module" else [change["address"]]
                instances.extend((a, provider) for a in addresses)
    resources = {}
    # Every k-th instance, so that the state spans every provider instance and module instance.
    step = max(1, len(instances) // max(1, args.instances))
    for address, provider in instances[::step][: args.instances]:
        parts = split(address)
        if parts is None or provider is None:
            continue
        module, ty, name, key = parts
        r = resources.setdefault((module, ty, name), {"mode": "managed", "type": ty, "name": name, "instances": []})
        if module:
            r["module"] = module
        inst = {"schema_version": 0, "attributes": {"id": address}, "provider": provider}
        if key is not None:
            inst["index_key"] = key
        r["instances"].append(inst)
    state = {"version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "bench", "outputs": {},
             "resources": list(resources.values())}
    json.dump(state, open(args.out, "w"))
    print(f"{args.out}: {sum(len(r['instances']) for r in resources.values())} resource instances")


if __name__ == "__main__":
    main()
