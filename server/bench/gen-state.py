#!/usr/bin/env python3
"""Writes a large OpenTofu state (format version 4) and the root module it belongs to, for the state-reading
benchmark (docs/performance.md): by default 100,000 managed resource instances in about 50 MB.

    server/bench/gen-state.py DIR [--instances N] [--mb MB]

DIR/main.tf declares `aws.by_region` over 8 regions and module `regional` over the same regions; DIR/big.tfstate
binds the instances to those provider instances (one region, "zz", removed from the configuration, so the check
has a finding). Attributes are padded so the file reaches the requested size, as real states are mostly attributes.
"""
import argparse
import json
import os

REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1", "ap-northeast-1", "sa-east-1", "zz"]
PROVIDER = 'provider["registry.opentofu.org/hashicorp/aws"]'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--instances", type=int, default=100_000)
    ap.add_argument("--mb", type=float, default=50)
    args = ap.parse_args()
    os.makedirs(os.path.join(args.dir, "regional"), exist_ok=True)
    configured = [r for r in REGIONS if r != "zz"]
    with open(os.path.join(args.dir, "main.tf"), "w") as f:
        f.write(
            'variable "regions" {\n  type    = set(string)\n  default = %s\n}\n\n'
            'provider "aws" {\n  alias    = "by_region"\n  for_each = var.regions\n  region   = each.key\n}\n\n'
            'module "regional" {\n  source   = "./regional"\n  for_each = var.regions\n'
            '  providers = {\n    aws = aws.by_region[each.key]\n  }\n}\n' % json.dumps(configured)
        )
    with open(os.path.join(args.dir, "regional", "main.tf"), "w") as f:
        f.write('resource "aws_s3_bucket" "b" {\n  count = 1\n}\n')

    per_resource = 100
    resources = max(1, args.instances // per_resource)
    # Pad each instance's attributes so that the file is about --mb megabytes: measure without padding first.
    unpadded = len(state_text(resources, per_resource, 0))
    pad = max(0, int((args.mb * 1e6 - unpadded) / (resources * per_resource)))
    text = state_text(resources, per_resource, pad)
    path = os.path.join(args.dir, "big.tfstate")
    with open(path, "w") as f:
        f.write(text)
    print("%s: %.1f MB, %d resource instances" % (path, os.path.getsize(path) / 1e6, resources * per_resource))


def state_text(resources, per_resource, pad):
    out = []
    for r in range(resources):
        region = REGIONS[r % len(REGIONS)]
        instances = []
        for i in range(per_resource):
            instances.append({
                "index_key": "item-%d" % i,
                "schema_version": 0,
                "attributes": {
                    "id": "res-%d-%d" % (r, i),
                    "arn": "arn:aws:s3:::bucket-%d-%d" % (r, i),
                    "policy": "x" * pad,
                },
                "sensitive_attributes": [],
                "provider": '%s.by_region["%s"]' % (PROVIDER, region),
            })
        out.append({
            "module": 'module.regional["%s"]' % region,
            "mode": "managed",
            "type": "aws_s3_bucket",
            "name": "r%d" % r,
            "each": "map",
            "instances": instances,
        })
    state = {"version": 4, "terraform_version": "1.10.0", "serial": 1, "lineage": "bench", "outputs": {},
             "resources": out, "check_results": None}
    return json.dumps(state, indent=2)


if __name__ == "__main__":
    main()
