resource "aws_instance" "web" {
  lifecycle {
    create_before_destroy = true
  }
}
