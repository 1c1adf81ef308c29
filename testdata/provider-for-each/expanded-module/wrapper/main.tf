module "inner" {
  source = "../configured"
}
