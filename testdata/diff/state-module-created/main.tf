# A new module call that inherits the default aws provider: its instance is created with the two resources inside
# it, grouped under the provider instance they use.
resource "aws_s3_bucket" "keep" {
}

module "net" {
  source = "./net"
}
