# The selected workspace `prod` keeps its state in `terraform.tfstate.d/prod/terraform.tfstate`; the default
# workspace's `terraform.tfstate`, which binds a resource to the removed key "ap", is not this workspace's state.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  #          ^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]: no longer has the key "eu"
  region   = each.key
}
