variable "name" {}

variable "name" {
#        ^^^^^^ error[duplicate-block]
  default = "again"
}
