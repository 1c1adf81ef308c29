# `compatible_with.opentofu` is read by 1.12 and later only; 1.8 to 1.11 read the `.tofu` file and refuse the
# `language` block, and 1.6 and 1.7 ignore it.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
 #^^^^^^^^ warning[feature-needs-newer-opentofu]
  region   = each.value
}
