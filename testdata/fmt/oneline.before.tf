resource aws_x "y" { # c
  a = "${x}"
  b={for k,v in m: k=>v...}
  c = <<-EOT
  t ${1} %{if 1}x%{endif}
  EOT
  d = -1 * f(a...) // e
  /* f */ g = { h = "$${i}\" " }
}
variable v { type = "list" }
