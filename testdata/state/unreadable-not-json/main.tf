# A local state that is not JSON at all.
# @0..0 warning[unreadable-state]: it is not valid JSON
resource "aws_s3_bucket" "b" {
}
