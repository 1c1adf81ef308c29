variable "environment" {
  type = string
}

module "subnets" {
  source = "./${"subnets"}"
  prefix = var.environment
}
