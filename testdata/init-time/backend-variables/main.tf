variable "key" {
  type = string
}

locals {
  region    = "us-east-1"
  key_check = md5(var.key)
}

terraform {
  backend "s3" {
    region    = local.region
    key       = var.key
    #           ^^^^^^^ info[backend-config-unresolved]: terraform.backend.key -> var.key
    key_check = local.key_check
    #           ^^^^^^^^^^^^^^^ info[backend-config-unresolved]: terraform.backend.key_check -> local.key_check -> var.key
  }
}
