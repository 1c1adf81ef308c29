# `>= 1.11`: the constructs of 1.11 are silent, those of 1.12 warn.
terraform {
  required_version = ">= 1.11"
}

ephemeral "random_password" "db" {
  length = 16
}

variable "token" {
  type      = string
  default   = "t"
  ephemeral = true
}

output "token" {
  value     = var.token
  ephemeral = true
}

resource "aws_db_instance" "db" {
  password_wo         = ephemeral.random_password.db.result
  password_wo_version = 1
  lifecycle {
    enabled = true
  }
}

locals {
  plain = ephemeralasnull(var.token)
}

variable "protect" {
  type    = bool
  default = true
  const   = true
 #^^^^^ warning[feature-needs-newer-opentofu]
}

resource "null_resource" "kept" {
  lifecycle {
    prevent_destroy = var.protect
   #^^^^^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
    destroy         = false
   #^^^^^^^ warning[feature-needs-newer-opentofu]
  }
}

import {
  to = null_resource.kept
  identity = {
 #^^^^^^^^ warning[feature-needs-newer-opentofu]
    id = "abc"
  }
}
