#!/usr/bin/env python3
"""Generate a large, deterministic OpenTofu workspace for benchmarks.

The tree looks like a real multi-region estate: a root module with provider blocks that use `for_each`,
module calls that pass `aws.by_region[each.key]`, and many child modules full of resources, locals,
variables, dynamic blocks, heredocs and templates. Every reference is valid, so a correct checker reports
no errors on it (a few deliberate mistakes are added with --mistakes N, each recorded in MISTAKES.txt).

A copy of ../shared/tools/gen-workspace.py (the shared benchmark workspace) with one addition:
--templated-sources writes what OpenTofu 1.8+ evaluates at `tofu init` with variables and locals (issue #9):
module sources built from locals, `format()` and a root variable set in terraform.tfvars, a nested `labels`
module in every child whose source comes from a variable the caller passes down, module versions from locals,
and a backend and an encryption block configured from variables and locals. Without the flag the output is
byte-for-byte the shared generator's, so figures stay comparable.

usage: gen-workspace.py OUT_DIR [--modules 1000] [--mb 20] [--seed 1] [--mistakes 0] [--templated-sources]
"""
import argparse
import os
import random

REGIONS = ["us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-west-2", "eu-central-1",
           "ap-southeast-1", "ap-southeast-2", "ap-northeast-1", "sa-east-1", "ca-central-1"]
RESOURCE_TYPES = ["aws_s3_bucket", "aws_vpc", "aws_subnet", "aws_iam_role", "aws_security_group",
                  "aws_instance", "aws_lambda_function", "aws_sqs_queue", "aws_sns_topic", "aws_kms_key"]


def key_of(region):
    return region.replace("-", "_")


def resource_block(rng, i, with_provider):
    rtype = rng.choice(RESOURCE_TYPES)
    name = f"r{i}"
    lines = [f'resource "{rtype}" "{name}" {{']
    if with_provider:
        lines.append("  for_each = local.enabled_regions")
        lines.append("  provider = aws.by_region[each.key]")
    lines.append(f'  name        = "${{var.name_prefix}}-{name}-${{each.key}}"' if with_provider
                 else f'  name        = "${{var.name_prefix}}-{name}"')
    lines.append(f'  description = "generated resource {i} of type {rtype}"')
    lines.append("  tags = merge(local.common_tags, {")
    lines.append(f'    Component = "{name}"')
    lines.append(f'    Index     = "{i}"')
    lines.append("  })")
    if rng.random() < 0.4:
        lines.append("  dynamic \"ingress\" {")
        lines.append("    for_each = var.ingress_ports")
        lines.append("    content {")
        lines.append("      from_port   = ingress.value")
        lines.append("      to_port     = ingress.value")
        lines.append('      protocol    = "tcp"')
        lines.append('      cidr_blocks = ["10.0.0.0/8"]')
        lines.append("    }")
        lines.append("  }")
    if rng.random() < 0.3:
        lines.append("  policy = <<-EOT")
        lines.append("    {")
        lines.append('      "Version": "2012-10-17",')
        lines.append(f'      "Statement": [{{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::{name}/*"}}]')
        lines.append("    }")
        lines.append("  EOT")
    if rng.random() < 0.3:
        lines.append('  user_data = "%{ for p in var.ingress_ports }port ${p} %{ endfor }"')
    lines.append("}")
    return "\n".join(lines) + "\n\n"


LABELS_MODULE = """variable "prefix" {
  type = string
}

variable "tags" {
  type = map(string)
}

output "tags" {
  value = merge(var.tags, { Name = var.prefix })
}
"""

# Appended to every child with --templated-sources: the `labels` module's source comes from `var.shared_root`,
# which the root module passes; the version of the registry module from a local.
TEMPLATED_CHILD = """variable "shared_root" {
  type = string
}

locals {
  log_module_version = "~> 4.1"
}

module "labels" {
  source = "${var.shared_root}/labels"
  prefix = var.name_prefix
  tags   = local.common_tags
}

module "logs" {
  source  = "terraform-aws-modules/cloudwatch/aws//modules/log-group"
  version = local.log_module_version
  name    = "${var.name_prefix}-logs"
}

"""


def child_module(rng, idx, target_bytes, templated=False):
    header = f"""# Generated child module {idx}
terraform {{
  required_providers {{
    aws = {{
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }}
  }}
}}

variable "name_prefix" {{
  type    = string
  default = "m{idx}"
}}

variable "ingress_ports" {{
  type    = list(number)
  default = [80, 443]
}}

variable "region_key" {{
  type = string
}}

locals {{
  common_tags = {{
    Module    = "m{idx}"
    Region    = var.region_key
    ManagedBy = "opentofu"
  }}
  names = [for i in range(5) : "${{var.name_prefix}}-${{i}}"]
}}

output "prefix" {{
  value = var.name_prefix
}}

"""
    if templated:
        header += TEMPLATED_CHILD
    body = [header]
    size = len(header)
    i = 0
    while size < target_bytes:
        rtype = rng.choice(RESOURCE_TYPES)
        block = f"""resource "{rtype}" "c{i}" {{
  name = "${{var.name_prefix}}-c{i}"
  tags = merge(local.common_tags, {{ Index = "{i}" }})
  lifecycle {{
    create_before_destroy = true
  }}
}}

"""
        body.append(block)
        size += len(block)
        i += 1
    return "".join(body)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--modules", type=int, default=1000)
    ap.add_argument("--mb", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mistakes", type=int, default=0)
    ap.add_argument("--templated-sources", action="store_true",
                    help="module sources, versions, backend and encryption from variables and locals")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    total = int(args.mb * 1024 * 1024)
    per_module = max(2048, total // max(1, args.modules + 1))
    os.makedirs(args.out, exist_ok=True)

    regions = {key_of(r): r for r in REGIONS}
    root = ['terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n\n',
            'variable "name_prefix" {\n  type    = string\n  default = "estate"\n}\n\n',
            'variable "ingress_ports" {\n  type    = list(number)\n  default = [22, 80, 443]\n}\n\n',
            'variable "aws_regions" {\n  type = map(object({\n    region  = string\n    enabled = optional(bool, true)\n  }))\n}\n\n',
            'locals {\n  enabled_regions = { for k, v in var.aws_regions : k => v if v.enabled }\n'
            '  common_tags     = { Estate = "generated", Owner = "platform" }\n}\n\n',
            'provider "aws" {\n  alias    = "by_region"\n  for_each = var.aws_regions\n  region   = each.value.region\n}\n\n']
    tfvars = ["aws_regions = {\n"]
    for k, r in regions.items():
        tfvars.append(f'  {k} = {{ region = "{r}" }}\n')
    tfvars.append("}\n")
    if args.templated_sources:
        root.append('variable "module_prefix" {\n  type = string\n}\n\n'
                    'variable "state_bucket" {\n  type = string\n}\n\n'
                    'variable "state_passphrase" {\n  type      = string\n  sensitive = true\n}\n\n'
                    'locals {\n  module_root = "./modules"\n  shared_root = "../shared"\n'
                    '  state_key   = "estate/${terraform.workspace}/${md5(var.state_bucket)}.tfstate"\n}\n\n'
                    'terraform {\n  backend "s3" {\n    bucket = var.state_bucket\n    key    = local.state_key\n'
                    '    region = "eu-west-1"\n  }\n\n  encryption {\n    key_provider "pbkdf2" "main" {\n'
                    '      passphrase = var.state_passphrase\n    }\n    method "aes_gcm" "main" {\n'
                    '      keys = key_provider.pbkdf2.main\n    }\n    state {\n      method = method.aes_gcm.main\n'
                    '    }\n  }\n}\n\n')
        tfvars.append('module_prefix    = "m"\nstate_bucket     = "estate-state"\n'
                      'state_passphrase = "correct horse battery staple"\n')
        labels = os.path.join(args.out, "modules", "shared", "labels")
        os.makedirs(labels, exist_ok=True)
        with open(os.path.join(labels, "main.tf"), "w") as f:
            f.write(LABELS_MODULE)

    mistakes = []
    for m in range(args.modules):
        mdir = os.path.join(args.out, "modules", f"m{m:05d}")
        os.makedirs(mdir, exist_ok=True)
        with open(os.path.join(mdir, "main.tf"), "w") as f:
            f.write(child_module(rng, m, per_module, args.templated_sources))
        call_key = "each.key"
        if len(mistakes) < args.mistakes and rng.random() < 0.05:
            call_key = '"mars_north_1"'
            mistakes.append(f"main.tf: module m{m:05d} passes aws.by_region[\"mars_north_1\"] (unknown-provider-instance)")
        source = f'"./modules/m{m:05d}"'
        extra = ""
        if args.templated_sources:
            # Three spellings, so the evaluator's template, function and variable paths are all exercised.
            source = [f'"${{local.module_root}}/m{m:05d}"', f'format("%s/m%05d", local.module_root, {m})',
                      f'"./modules/${{var.module_prefix}}{m:05d}"'][m % 3]
            extra = '  shared_root = local.shared_root\n'
        root.append(f'module "m{m:05d}" {{\n  source   = {source}\n  for_each = local.enabled_regions\n'
                    f'  providers = {{\n    aws = aws.by_region[{call_key}]\n  }}\n'
                    f'  name_prefix = "m{m:05d}-${{each.key}}"\n  region_key  = each.key\n{extra}}}\n\n')
    for i in range(50):
        root.append(resource_block(rng, i, with_provider=True))

    with open(os.path.join(args.out, "main.tf"), "w") as f:
        f.write("".join(root))
    with open(os.path.join(args.out, "terraform.tfvars"), "w") as f:
        f.write("".join(tfvars))
    with open(os.path.join(args.out, "MISTAKES.txt"), "w") as f:
        f.write("\n".join(mistakes) + ("\n" if mistakes else ""))
    nbytes = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(args.out) for n in ns)
    print(f"wrote {args.modules} modules, {nbytes / 1024 / 1024:.1f} MB, {len(mistakes)} mistakes to {args.out}")


if __name__ == "__main__":
    main()
