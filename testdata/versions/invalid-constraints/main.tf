# Constraints OpenTofu refuses.
terraform {
  required_version = ">= 1.9.0-beta1"
 #^^^^^^^^^^^^^^^^ error[invalid-version-constraint]: OpenTofu refuses pre-release versions in `required_version` (`1.9.0-beta1`)
}

variable "v" {
  type    = string
  default = "1.9"
}
