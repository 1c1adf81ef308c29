variable "utils_version" {
  type = string
}

module "common_first" {
  source        = "./common"
  utils_version = var.utils_version
  region        = "us-east-1"
}

module "common_second" {
  source        = "./common"
  utils_version = var.utils_version
  region        = "us-east-2"
}
