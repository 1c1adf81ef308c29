# OpenTofu 1.10+ short-circuits && and ||: the right side is not evaluated once the left side decides the result
# (website/docs/language/expressions/operators.mdx), so a null check guards the attribute access after it.
variable "sso" {
  type    = any
  default = null
}

variable "lb" {
  type    = object({ name = string })
  default = { name = "main" }
}

locals {
  enabled = var.lb != null && var.sso != null && var.sso.instance_count > 0
  #         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: false
  either = var.sso == null || var.sso.enabled
  #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: true
  # Not decided by the left side: the right side is evaluated and its error reported.
  broken = var.lb != null && var.sso.instance_count > 0
  #                                 ^^^^^^^^^^^^^^^ error[evaluation-error]
  # A skipped side is still checked statically.
  typo = false && var.undeclared
  #               ^^^^^^^^^^^^^^ error[undefined-reference]
}
