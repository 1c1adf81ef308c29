# Checked as a root, `options` has no value and nothing here fails; called by `module.maybe_options` it is null,
# which fails only if that call has an instance.
variable "options" {
  type = object({ engine = string })
}

locals {
  engine = var.options.engine
}
