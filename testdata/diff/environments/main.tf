# The same state compared in each environment of the project file: staging has no eu-west-1.
variable "regions" {
  type = list(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
  #          ^^^^^^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]
  region   = each.key
}

resource "aws_vpc" "this" {
  for_each = toset(var.regions)
  #          ^^^^^^^^^^^^^^^^^^ warning[too-similar-for-each]: (prod) this resource's `for_each` is too similar to the `for_each` of provider `aws.by_region`: removing an element would remove a provider instance together with its instances that need it to be destroyed, and the plan fails; filter this collection instead (e.g. by an `enabled` attribute) so that elements are disabled here first; right now the state has resources created through its instances "eu-west-1" (1 resource instance), "us-east-1" (1 resource instance): removing one of these elements makes the plan fail
  #          ^^^^^^^^^^^^^^^^^^ warning[too-similar-for-each]: (staging) this resource's `for_each` is too similar to the `for_each` of provider `aws.by_region`: removing an element would remove a provider instance together with its instances that need it to be destroyed, and the plan fails; filter this collection instead (e.g. by an `enabled` attribute) so that elements are disabled here first; right now the state has resources created through its instances "us-east-1" (1 resource instance): removing one of these elements makes the plan fail
  provider = aws.by_region[each.key]
}
