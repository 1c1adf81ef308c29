resource "aws_iam_role" "ci" {
  name = "ci"
}
