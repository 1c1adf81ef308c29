variable "regions" {
  type = set(string)
}

locals {
  all = var.regoins
  #     ^^^^^^^^^^^ error[undefined-reference]: did you mean `var.regions`?
}

resource "aws_s3_bucket" "b" {
  for_each = local.al
  #          ^^^^^^^^ error[undefined-reference]: did you mean `local.all`?
  bucket = "${var.prefix}-${each.key}"
  #           ^^^^^^^^^^ error[undefined-reference]
}

output "o" {
  value = [for r in var.regions : local.nope[r]]
  #                               ^^^^^^^^^^ error[undefined-reference]
}
