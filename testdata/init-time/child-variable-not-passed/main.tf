module "common" {
  source = "./common"
}
