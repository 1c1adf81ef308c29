# `fileset` of a directory that does not exist matches nothing, as in OpenTofu (it globs `path/pattern`): an empty
# set, not an error. A configuration that reads optional per-account files keeps working before any is added.
# Wildcards may be in the path too; matches are then relative to the path as written (`../present/a.tf`).

locals {
  accounts = { for f in fileset("${path.module}/accounts", "*.json") : trimsuffix(f, ".json") => jsondecode(file("${path.module}/accounts/${f}")) }
  missing  = fileset("${path.module}/accounts", "*.json")
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset([])
  on_file  = fileset("${path.module}/main.tf", "*")
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset([])
  present  = fileset("${path.module}/present", "*.tf")
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset(["a.tf"])
  wildcard = fileset("${path.module}/*", "*.tf")
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset(["../present/a.tf"])
}

provider "aws" {
  alias    = "by_account"
  for_each = local.accounts
  region   = each.value.region
}
