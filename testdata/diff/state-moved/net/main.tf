resource "aws_vpc" "main" {
}
