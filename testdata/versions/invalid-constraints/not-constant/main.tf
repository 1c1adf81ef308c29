variable "v" {
  type    = string
  default = "1.9"
}

terraform {
  required_version = ">= ${var.v}"
 #^^^^^^^^^^^^^^^^ error[invalid-version-constraint]: `required_version` must be a constant string
}
