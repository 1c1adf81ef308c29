# A state encrypted by OpenTofu's state encryption: foreach-ls has no keys, `tofu state pull` output can be given.
# @0..0 warning[unreadable-state]: `tofu state pull | foreach-ls check --state -`
resource "aws_s3_bucket" "b" {
}
