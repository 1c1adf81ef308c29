# Suppression comments silence the named codes for the block or attribute below them, nested blocks included.

variable "regions" {
  type    = set(string)
  default = []
}

# foreach-ls:ignore undefined-reference
locals {
  silenced = var.regoins
}

locals {
  # foreach-ls:ignore undefined-reference -- an attribute on its own
  also_silenced = var.regoins

  reported = var.regoins
  #          ^^^^^^^^^^^ error[undefined-reference]
}

# foreach-ls:ignore too-similar-for-each
# (another code does not silence this one)
locals {
  reported_too = var.regoins
  #              ^^^^^^^^^^^ error[undefined-reference]
}

# foreach-ls:ignore undefined-reference

locals {
  # a blank line above breaks the link
  reported_three = var.regoins
  #                ^^^^^^^^^^^ error[undefined-reference]
}
