# `>= 1.9`: provider for_each is silent, the constructs of 1.10 warn.
terraform {
  required_version = ">= 1.9"
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1"])
  region   = each.value
}

removed {
  from = null_resource.old
  lifecycle {
 #^^^^^^^^^ warning[feature-needs-newer-opentofu]
    destroy = false
  }
  provisioner "local-exec" {
 #^^^^^^^^^^^ warning[feature-needs-newer-opentofu]
    when    = destroy
    command = "echo gone"
  }
}

variable "old_name" {
  type       = string
  default    = "x"
  deprecated = "Use new_name."
 #^^^^^^^^^^ warning[feature-needs-newer-opentofu]
}

output "old" {
  value      = var.old_name
  deprecated = "Use new."
 #^^^^^^^^^^ warning[feature-needs-newer-opentofu]
}

module "packaged" {
  source = "oci://example.com/modules/net"
 #^^^^^^ warning[feature-needs-newer-opentofu]
}
