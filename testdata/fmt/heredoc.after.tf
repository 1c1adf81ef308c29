locals {
  a = <<EOT
  keep   this   ${var.x}
	tabs too
EOT
  b = <<-EOT
        indented ${upper("x")}
    EOT
  c = var.single
  d = "${var.a}-${var.b}"
  e = "%{if var.x}yes%{endif}"
  f = var.cond ? 1 : 2
}
