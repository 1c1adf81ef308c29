# `>= 1.10`: the constructs of 1.10 are silent, those of 1.11 warn.
terraform {
  required_version = ">= 1.10"
}

removed {
  from = null_resource.old
  lifecycle {
    destroy = false
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo gone"
  }
}

variable "old_name" {
  type       = string
  default    = "x"
  deprecated = "Use new_name."
}

output "old" {
  value      = var.old_name
  deprecated = "Use new."
}

module "packaged" {
  source = "oci://example.com/modules/net"
}

ephemeral "random_password" "db" {
# @0..9 warning[feature-needs-newer-opentofu]
  length = 16
}

variable "token" {
  type      = string
  default   = "t"
  ephemeral = true
 #^^^^^^^^^ warning[feature-needs-newer-opentofu]
}

output "token" {
  value     = var.token
  ephemeral = true
 #^^^^^^^^^ warning[feature-needs-newer-opentofu]
}

resource "aws_db_instance" "db" {
  password_wo         = ephemeral.random_password.db.result
 #^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
  password_wo_version = 1
  lifecycle {
    enabled = true
   #^^^^^^^ warning[feature-needs-newer-opentofu]
  }
}

locals {
  plain = ephemeralasnull(var.token)
  #       ^^^^^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
}
