variable "utils_version" {
  type    = string
  default = "v1"
}

module "common" {
  for_each      = { first = "us-east-1", second = "us-east-2" }
  source        = "./common"
  utils_version = "${var.utils_version}_${each.key}"
  region        = each.value
}
