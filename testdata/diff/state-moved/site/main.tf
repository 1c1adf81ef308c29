resource "aws_instance" "i" {
}
