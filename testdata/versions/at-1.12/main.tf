# `>= 1.12`: every construct is silent.
terraform {
  required_version = ">= 1.12"
}

variable "protect" {
  type    = bool
  default = true
  const   = true
}

resource "null_resource" "kept" {
  lifecycle {
    prevent_destroy = var.protect
    destroy         = false
  }
}

import {
  to = null_resource.kept
  identity = {
    id = "abc"
  }
}
