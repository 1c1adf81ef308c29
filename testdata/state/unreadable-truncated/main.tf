# A local state cut off in the middle: a warning, and the check goes on without it.
# @0..0 warning[unreadable-state]: it ends in the middle of the JSON
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us"])
  region   = each.key
}
