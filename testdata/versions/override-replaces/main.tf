# An override file that sets `required_version` replaces the constraints of the primary files
# (`Module.mergeFile`): the `>= 1.9` here no longer holds, override.tf's `>= 1.6` does.
terraform {
  required_version = ">= 1.9"
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]
  region   = each.value
}
