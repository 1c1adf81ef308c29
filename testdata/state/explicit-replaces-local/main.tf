# The state given explicitly (`state` in fixture.toml, as `--state pulled.tfstate`) replaces the local
# `terraform.tfstate`, which is not even read (it is not JSON).
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  #          ^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]: no longer has the key "eu"
  region   = each.key
}
