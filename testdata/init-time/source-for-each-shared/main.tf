variable "utils_version" {
  type = string
}

module "common" {
  for_each      = { first = "us-east-1", second = "us-east-2" }
  source        = "./common"
  utils_version = var.utils_version
  region        = each.value
}
