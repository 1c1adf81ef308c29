variable "regions" {
  type = map(object({
    cidr    = string
    enabled = optional(bool, true)
  }))
  default = {
    us = { cidr = "10.0.0.0/16" }
    eu = { cidr = "10.1.0.0/16", enabled = false }
  }
}

locals {
  enabled = { for k, v in var.regions : k => v if v.enabled }
  #         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: {"us" = {"cidr" = "10.0.0.0/16", "enabled" = true}}
  names = toset([for k in keys(var.regions) : upper(k)])
  #       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset(["EU", "US"])
  cidrs = [for r in values(var.regions) : cidrsubnet(r.cidr, 8, 1)]
  #       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: ["10.1.1.0/24", "10.0.1.0/24"]
  big   = 9007199254740993 + 0
  #       ^^^^^^^^^^^^^^^^^^^^ value: 9007199254740993
  path  = path.module
  #       ^^^^^^^^^^^ value: "."
  ws    = terraform.workspace
  #       ^^^^^^^^^^^^^^^^^^^ value: unknown
}
