variable "env" {
  type = string
}

module "app" {
  source = "./modules/${var.env}"
  #        ^^^^^^^^^^^^^^^^^^^^^^ value: "./modules/prod"
  region = "eu-west-1"
}
