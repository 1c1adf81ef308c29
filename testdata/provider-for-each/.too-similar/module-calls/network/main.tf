# Has no resources: the warning still appears at the call, which cannot see into the module (as the RFC says).

variable "cidr" {
  type    = string
  default = "10.0.0.0/16"
}
