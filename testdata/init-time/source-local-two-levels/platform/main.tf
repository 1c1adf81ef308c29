variable "flavour" {
  type = string
}

locals {
  services = "../services"
}

module "svc" {
  source = "${local.services}/${var.flavour}"
  name   = "svc-${var.flavour}"
}
