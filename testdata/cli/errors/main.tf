variable "name" {}

variable "name" {
  default = "again"
}
