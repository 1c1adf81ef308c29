resource "aws_s3_bucket" "logs" {
  provider = aws.euw1
  bucket = "logs" "oops"
  #               ^ error[syntax-error]
}
