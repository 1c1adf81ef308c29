# No environment and no --var-file: the info names the var files OpenTofu loads only with -var-file, and how to
# list them as environments. `terraform.tfvars` is loaded automatically, so it is not named.
variable "regions" {
  type = set(string)
}

variable "name" {
  type = string
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  #          ^^^^^^^^^^^ info[provider-for-each-unresolved]: (`envs/prod.tfvars`, `envs/staging.tfvars`, `legacy.tfvars`): list them as environments in foreach-ls.toml (`[environments.prod]` with `var_files = ["envs/prod.tfvars"]`
  region   = each.key
}
