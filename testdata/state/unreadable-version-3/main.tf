# A state of format version 3 (Terraform 0.11 and older).
# @0..0 warning[unreadable-state]: it has state format version 3; foreach-ls reads format version 4
resource "aws_s3_bucket" "b" {
}
