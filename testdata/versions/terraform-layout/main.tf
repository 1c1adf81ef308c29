# versions.tf beside versions.tofu: the module is meant for Terraform too, with versions.tf's constraint.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[not-in-terraform]
  region   = each.value
}
