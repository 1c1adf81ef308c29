variable "name" {
  type    = string
  default = "svc-green"
}
