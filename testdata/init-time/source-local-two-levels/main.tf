variable "stack" {
  type    = string
  default = "blue"
}

module "platform" {
  source  = "./platform"
  flavour = var.stack
}
