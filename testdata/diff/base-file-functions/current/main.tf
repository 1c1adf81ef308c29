# The schemas are the files of schemas/: at the base a and b, now a and c. File functions read the base side from
# the base.
locals {
  schemas = fileset("${path.module}/schemas", "*.json")
}

resource "aws_schemas_schema" "this" {
  for_each = local.schemas
  content  = file("${path.module}/schemas/${each.value}")
}
